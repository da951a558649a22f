import numpy
import pytest

from chainerlite import optimizers


@pytest.mark.parametrize('kwargs', [{}, {'lr': 0.2, 'momentum': 0.5}])
def test_matches_reference(kwargs, problem, run_optimizer, check_update):
    param, grads = problem
    lr = kwargs.get('lr', 0.01)
    mu = kwargs.get('momentum', 0.9)
    w = run_optimizer(optimizers.NesterovAG(**kwargs), param, grads)
    expected = param.astype(numpy.float64)
    v = numpy.zeros_like(expected)
    for g in grads:
        v = mu * v - lr * g
        expected = expected + mu * mu * v - (1 + mu) * lr * g
    check_update(w.array, param, expected, len(grads))


def test_defaults_and_rule_override():
    opt = optimizers.NesterovAG()
    assert (opt.lr, opt.momentum) == (0.01, 0.9)
    rule = optimizers.nesterov_ag.NesterovAGRule(opt.hyperparam, lr=0.5)
    assert (rule.hyperparam.lr, rule.hyperparam.momentum) == (0.5, 0.9)
