import numpy
import pytest

import chainerlite
from chainerlite import optimizers


@pytest.mark.parametrize(
    'kwargs',
    [
        {'eps': 1e-3},
        {'lr': 0.1, 'alpha': 0.9, 'eps': 1e-2},
        {'lr': 0.1, 'alpha': 0.9, 'eps': 1e-2, 'eps_inside_sqrt': True},
    ],
)
def test_matches_reference(kwargs, problem, run_optimizer, check_update):
    param, grads = problem
    lr = kwargs.get('lr', 0.01)
    alpha = kwargs.get('alpha', 0.99)
    eps = kwargs['eps']
    inside = kwargs.get('eps_inside_sqrt', False)
    w = run_optimizer(optimizers.RMSprop(**kwargs), param, grads)
    expected = param.astype(numpy.float64)
    ms = numpy.zeros_like(expected)
    for g in grads:
        ms = alpha * ms + (1 - alpha) * g * g
        denom = numpy.sqrt(ms + eps) if inside else numpy.sqrt(ms) + eps
        expected = expected - lr * g / denom
    check_update(w.array, param, expected, len(grads))


def test_default_eps(run_optimizer):
    rng = numpy.random.RandomState(1)
    param = rng.uniform(-1, 1, (3,))
    grads = rng.uniform(-1, 1, (3, 3))
    w = run_optimizer(optimizers.RMSprop(), param, grads)
    ms = numpy.zeros(3)
    expected = param.copy()
    for g in grads:
        ms = 0.99 * ms + 0.01 * g * g
        expected -= 0.01 * g / (numpy.sqrt(ms) + 1e-8)
    numpy.testing.assert_allclose(w.array, expected, rtol=1e-12)


def test_eps_too_small_for_float16():
    link = chainerlite.Link()
    with link.init_scope():
        link.w = chainerlite.Parameter(numpy.ones(2, numpy.float16))
    opt = optimizers.RMSprop().setup(link)
    link.w.grad = numpy.ones(2, numpy.float16)
    with pytest.raises(ValueError, match='eps of RMSprop.*float16'):
        opt.update()


def test_defaults():
    opt = optimizers.RMSprop()
    assert (opt.lr, opt.alpha, opt.eps, opt.eps_inside_sqrt) == (
        0.01,
        0.99,
        1e-8,
        False,
    )
