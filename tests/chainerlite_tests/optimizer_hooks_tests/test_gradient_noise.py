import numpy
import pytest

import chainerlite
from chainerlite import optimizer_hooks
from chainerlite import optimizers


def _link():
    link = chainerlite.Link()
    with link.init_scope():
        link.w = chainerlite.Parameter(numpy.zeros((2, 3), numpy.float32))
        link.v = chainerlite.Parameter(numpy.zeros(4, numpy.float32))
    return link


def test_noise_func_is_added_to_each_gradient():
    link = _link()
    calls = []

    def noise(xp, shape, dtype, hook, rule):
        calls.append((xp, shape, dtype, hook, rule))
        return xp.full(shape, 0.5, dtype)

    opt = optimizers.SGD(lr=1).setup(link)
    hook = optimizer_hooks.GradientNoise(0.01, noise_func=noise)
    opt.add_hook(hook)
    for p in link.params():
        p.grad = numpy.ones_like(p.array)
    opt.update()
    for p in link.params():
        numpy.testing.assert_array_equal(p.array, -1.5)
    assert sorted(c[1] for c in calls) == [(2, 3), (4,)]
    assert all(c[0] is numpy and c[2] == numpy.float32 and c[3] is hook for c in calls)
    assert {id(c[4]) for c in calls} == {id(p.update_rule) for p in link.params()}


def test_default_noise_variance_decays():
    class Rule:
        t = 3

    hook = optimizer_hooks.GradientNoise(0.5)
    numpy.random.seed(0)
    draws = optimizer_hooks.gradient_noise.exponential_decay_noise(
        numpy, (20000,), numpy.float64, hook, Rule()
    )
    assert draws.var() == pytest.approx(0.5 / 4**0.55, rel=0.05)
