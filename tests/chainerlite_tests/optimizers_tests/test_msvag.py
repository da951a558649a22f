import numpy
import pytest

from chainerlite import optimizers


def _reference(param, grads, lr, beta, eta, wd):
    expected = param.astype(numpy.float64)
    m = numpy.zeros_like(expected)
    v = numpy.zeros_like(expected)
    for t, g in enumerate(grads.astype(numpy.float64), 1):
        m = beta * m + (1 - beta) * g
        v = beta * v + (1 - beta) * g * g
        mt = m / (1 - beta**t)
        vt = v / (1 - beta**t)
        rho = (1 - beta) * (1 + beta**t) / ((1 + beta) * (1 - beta**t))
        if t == 1:
            factor = numpy.ones_like(mt)
        else:
            s = (vt - mt**2) / (1 - rho)
            factor = mt**2 / (mt**2 + rho * s)
        expected = expected - eta * (lr * factor * mt + wd * expected)
    return expected


@pytest.mark.parametrize(
    'kwargs', [{}, {'lr': 0.05, 'beta': 0.8, 'eta': 0.5, 'weight_decay_rate': 0.1}]
)
def test_matches_reference(kwargs, problem, run_optimizer, check_update):
    param, grads = problem
    w = run_optimizer(optimizers.MSVAG(**kwargs), param, grads)
    expected = _reference(
        param,
        grads,
        kwargs.get('lr', 0.1),
        kwargs.get('beta', 0.9),
        kwargs.get('eta', 1.0),
        kwargs.get('weight_decay_rate', 0),
    )
    check_update(w.array, param, expected, len(grads))


def test_zero_gradient_gives_no_nan(run_optimizer):
    param = numpy.ones(3)
    w = run_optimizer(optimizers.MSVAG(), param, numpy.zeros((3, 3)))
    numpy.testing.assert_array_equal(w.array, param)
