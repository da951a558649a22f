import numpy
import pytest

import chainerlite
from chainerlite import optimizer_hooks
from chainerlite import optimizers


def _link(dtype):
    link = chainerlite.Link()
    with link.init_scope():
        link.w = chainerlite.Parameter(numpy.array([1.0, -2.0], dtype))
        link.v = chainerlite.Parameter(numpy.array([[0.5], [4.0]], dtype))
    return link


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_weight_decay_adds_rate_times_param(dtype):
    link = _link(dtype)
    opt = optimizers.SGD(lr=0.5).setup(link)
    opt.add_hook(optimizer_hooks.WeightDecay(0.25))
    grads = {
        'w': numpy.array([1.0, 1.0], dtype),
        'v': numpy.array([[0.0], [2.0]], dtype),
    }
    expected = {}
    for name, param in link.namedparams():
        name = name[1:]
        param.grad = grads[name].copy()
        expected[name] = param.array - 0.5 * (grads[name] + 0.25 * param.array)
    opt.update()
    for name, param in link.namedparams():
        assert param.dtype == dtype
        numpy.testing.assert_allclose(param.array, expected[name[1:]], rtol=1e-3)


def test_weight_decay_attributes_and_rule_hook():
    hook = optimizer_hooks.WeightDecay(0.1)
    assert (hook.name, hook.timing, hook.call_for_each_param) == (
        'WeightDecay',
        'pre',
        True,
    )
    assert hook.rate == 0.1
    link = _link(numpy.float64)
    optimizers.SGD(lr=1.0).setup(link)
    link.w.update_rule.add_hook(hook)
    link.w.grad = numpy.zeros(2)
    link.v.grad = numpy.zeros((2, 1))
    link.w.update()
    link.v.update()
    numpy.testing.assert_allclose(link.w.array, [0.9, -1.8])
    numpy.testing.assert_allclose(link.v.array, [[0.5], [4.0]])


def test_weight_decay_skips_missing_grad():
    param = chainerlite.Parameter(numpy.array([1.0]))
    optimizer_hooks.WeightDecay(0.1)(None, param)
    assert param.grad is None


@pytest.mark.parametrize('where', ['optimizer', 'update_rule'])
def test_weight_decay_is_the_same_with_a_loss_scale(where):
    # the loss scale multiplies the gradients that an optimizer's hook sees;
    # the decay must come out the same as without one
    def train(loss_scale):
        link = chainerlite.Link()
        with link.init_scope():
            link.w = chainerlite.Parameter(numpy.array([1.0, -2.0, 3.0], numpy.float32))
        opt = optimizers.SGD(lr=0.5).setup(link)
        hook = optimizer_hooks.WeightDecay(0.25)
        if where == 'optimizer':
            opt.add_hook(hook)
        else:
            link.w.update_rule.add_hook(hook)
        for _ in range(2):
            link.cleargrads()
            loss = chainerlite.functions.sum(link.w * link.w)
            loss.backward(loss_scale=loss_scale)
            opt.update()
        return link.w.array

    plain = train(None)
    # w <- w - 0.5 * (2 w + 0.25 w) twice
    expected = (1 - 0.5 * 2.25) ** 2 * numpy.array([1, -2, 3])
    numpy.testing.assert_allclose(plain, expected)
    numpy.testing.assert_allclose(train(128.0), plain, rtol=1e-6)
