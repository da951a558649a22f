import numpy
import pytest

from chainerlite import optimizers


@pytest.mark.parametrize('kwargs', [{}, {'lr': 0.1, 'eps': 1e-2}])
def test_matches_reference(kwargs, problem, tolerance, run_optimizer, check_update):
    param, grads = problem
    lr = kwargs.get('lr', 0.001)
    eps = kwargs.get('eps', 1e-8)
    w = run_optimizer(optimizers.AdaGrad(**kwargs), param, grads)
    expected = param.astype(numpy.float64)
    h = numpy.zeros_like(expected)
    for g in grads:
        h = h + g * g
        expected = expected - lr * g / (numpy.sqrt(h) + eps)
    check_update(w.array, param, expected, len(grads))
    numpy.testing.assert_allclose(w.update_rule.state['h'], h, **tolerance)


def test_defaults_and_rule_override():
    opt = optimizers.AdaGrad()
    assert (opt.lr, opt.eps) == (0.001, 1e-8)
    rule = optimizers.ada_grad.AdaGradRule(opt.hyperparam, eps=0.5)
    assert (rule.hyperparam.lr, rule.hyperparam.eps) == (0.001, 0.5)
