import numpy
import pytest

from chainerlite import optimizers


@pytest.mark.parametrize('kwargs', [{}, {'lr': 0.01, 'eps': 1e-8}])
def test_matches_reference(kwargs, problem, run_optimizer, check_update):
    param, grads = problem
    lr = kwargs.get('lr', 0.001)
    eps = kwargs.get('eps', 1e-16)
    w = run_optimizer(optimizers.SMORMS3(**kwargs), param, grads)
    expected = param.astype(numpy.float64)
    mem = numpy.ones_like(expected)
    gbar = numpy.zeros_like(expected)
    g2 = numpy.zeros_like(expected)
    for g in grads.astype(numpy.float64):
        r = 1 / (mem + 1)
        gbar = (1 - r) * gbar + r * g
        g2 = (1 - r) * g2 + r * g * g
        x = gbar**2 / (g2 + eps)
        expected = expected - g * numpy.minimum(x, lr) / (numpy.sqrt(g2) + eps)
        mem = 1 + mem * (1 - x)
    check_update(w.array, param, expected, len(grads))
