import numpy
import pytest

from chainerlite import optimizers


@pytest.mark.parametrize(
    'kwargs', [{'lr': 1e-3}, {'lr': 1e-3, 'alpha': 0.9, 'momentum': 0.5, 'eps': 1e-2}]
)
def test_matches_reference(kwargs, problem, run_optimizer, check_update):
    param, grads = problem
    lr = kwargs['lr']
    alpha = kwargs.get('alpha', 0.95)
    momentum = kwargs.get('momentum', 0.9)
    eps = kwargs.get('eps', 1e-4)
    w = run_optimizer(optimizers.RMSpropGraves(**kwargs), param, grads)
    expected = param.astype(numpy.float64)
    n = numpy.zeros_like(expected)
    gbar = numpy.zeros_like(expected)
    delta = numpy.zeros_like(expected)
    for g in grads.astype(numpy.float64):
        n = alpha * n + (1 - alpha) * g**2
        gbar = alpha * gbar + (1 - alpha) * g
        delta = momentum * delta - lr * g / numpy.sqrt(n - gbar**2 + eps)
        expected = expected + delta
    check_update(w.array, param, expected, len(grads))


def test_defaults():
    opt = optimizers.RMSpropGraves()
    assert (opt.lr, opt.alpha, opt.momentum, opt.eps) == (1e-4, 0.95, 0.9, 1e-4)
