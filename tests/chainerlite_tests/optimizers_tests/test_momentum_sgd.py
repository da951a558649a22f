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
