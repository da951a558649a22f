import numpy
import pytest

from chainerlite import optimizers


@pytest.mark.parametrize('kwargs', [{}, {'lr': 0.3}])
def test_matches_reference(kwargs, problem, run_optimizer, check_update):
    param, grads = problem
    lr = kwargs.get('lr', 0.01)
    w = run_optimizer(optimizers.SGD(**kwargs), param, grads)
    expected = param.astype(numpy.float64)
    for g in grads:
        expected = expected - lr * g
    check_update(w.array, param, expected, len(grads))


def test_rule_hyperparameter_override():
    rule = optimizers.sgd.SGDRule(optimizers.SGD(lr=0.1).hyperparam, lr=0.4)
    assert rule.hyperparam.lr == 0.4
    assert optimizers.sgd.SGDRule().hyperparam.lr == 0.01
