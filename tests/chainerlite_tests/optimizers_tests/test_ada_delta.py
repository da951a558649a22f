import numpy
import pytest

from chainerlite import optimizers


@pytest.mark.parametrize('kwargs', [{}, {'rho': 0.9, 'eps': 1e-3}])
def test_matches_reference(kwargs, problem, run_optimizer, check_update):
    param, grads = problem
    rho = kwargs.get('rho', 0.95)
    eps = kwargs.get('eps', 1e-6)
    w = run_optimizer(optimizers.AdaDelta(**kwargs), param, grads)
    expected = param.astype(numpy.float64)
    msg = numpy.zeros_like(expected)
    msdx = numpy.zeros_like(expected)
    for g in grads.astype(numpy.float64):
        msg = rho * msg + (1 - rho) * g**2
        dx = numpy.sqrt((msdx + eps) / (msg + eps)) * g
        msdx = rho * msdx + (1 - rho) * dx**2
        expected = expected - dx
    check_update(w.array, param, expected, len(grads))


def test_defaults_and_rule_override():
    opt = optimizers.AdaDelta()
    assert (opt.rho, opt.eps) == (0.95, 1e-6)
    rule = optimizers.ada_delta.AdaDeltaRule(opt.hyperparam, rho=0.5)
    assert (rule.hyperparam.rho, rule.hyperparam.eps) == (0.5, 1e-6)
