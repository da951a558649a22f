import numpy
import pytest

from chainerlite import optimizers


@pytest.mark.parametrize('kwargs', [{}, {'lr': 0.2, 'momentum': 0.5}])
def test_matches_reference(kwargs, problem, tolerance, run_optimizer, check_update):
    param, grads = problem
    lr = kwargs.get('lr', 0.01)
    momentum = kwargs.get('momentum', 0.9)
    w = run_optimizer(optimizers.MomentumSGD(**kwargs), param, grads)
    expected = param.astype(numpy.float64)
    v = numpy.zeros_like(expected)
    for g in grads:
        v = momentum * v - lr * g
        expected = expected + v
    check_update(w.array, param, expected, len(grads))
    numpy.testing.assert_allclose(w.update_rule.state['v'], v, **tolerance)


def test_defaults_and_rule_override():
    opt = optimizers.MomentumSGD()
    assert (opt.lr, opt.momentum) == (0.01, 0.9)
    rule = optimizers.momentum_sgd.MomentumSGDRule(opt.hyperparam, momentum=0.3)
    assert (rule.hyperparam.lr, rule.hyperparam.momentum) == (0.01, 0.3)


@pytest.mark.parametrize('lr', [0.1, numpy.float64(0.1)])
def test_large_parameter_updated_in_pieces_as_a_whole(lr, run_optimizer):
    # more elements than one pass takes: the same float32 operations as on
    # the whole array, so the same bits (the temporary of lr * grad too)
    rng = numpy.random.RandomState(0)
    param = rng.randn(3, 50001).astype(numpy.float32)
    grads = [rng.randn(3, 50001).astype(numpy.float32) for _ in range(2)]
    w = run_optimizer(optimizers.MomentumSGD(lr=lr, momentum=0.5), param, grads)
    expected, v = param.copy(), numpy.zeros_like(param)
    for g in grads:
        v *= 0.5
        v -= lr * g
        expected += v
    numpy.testing.assert_array_equal(w.array, expected)
    numpy.testing.assert_array_equal(w.update_rule.state['v'], v)
