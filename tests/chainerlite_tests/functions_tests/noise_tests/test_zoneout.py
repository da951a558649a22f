import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite.utils import type_check


def _inputs():
    return (
        numpy.random.uniform(-1, 1, (30, 4)).astype(numpy.float32),
        numpy.random.uniform(-1, 1, (30, 4)).astype(numpy.float32),
    )


@pytest.mark.parametrize('ratio', [0.0, 0.3, 1.0])
def test_forward_takes_each_element_from_h_or_x(ratio):
    h, x = _inputs()
    y = F.zoneout(h, x, ratio)
    flag_h = y.creator.flag_h
    numpy.testing.assert_array_equal(flag_h + y.creator.flag_x, 1)
    numpy.testing.assert_array_equal(y.array, numpy.where(flag_h, h, x))
    assert y.dtype == numpy.float32
    if ratio in (0.0, 1.0):
        assert (flag_h == ratio).all()


def test_ratio_is_the_share_of_kept_elements():
    h = numpy.zeros((200, 50), numpy.float32)
    y = F.zoneout(h, numpy.ones_like(h), 0.3)
    assert abs((y.array == 0).mean() - 0.3) < 0.02


def test_backward_follows_the_masks():
    h, x = (a.astype(numpy.float64) for a in _inputs())
    gy = numpy.random.uniform(-1, 1, h.shape)
    flags = []

    def f(h, x):
        node = F.noise.zoneout.Zoneout(0.4)
        if flags:
            node.forward = _fixed(node, flags[0])
        (y,) = node.apply((h, x))
        flags.append(node.flag_x)
        return y

    gradient_check.check_backward(f, (h, x), gy)
    gradient_check.check_double_backward(
        f, (h, x), gy, tuple(a.astype(numpy.float64) for a in _inputs())
    )


def _fixed(node, flag_x):
    # The forward of a node with the mask of the first call.
    def forward(inputs):
        h, x = inputs
        node.flag_x = flag_x.astype(x.dtype)
        node.flag_h = (1 - flag_x).astype(x.dtype)
        return (h * node.flag_h + x * node.flag_x,)

    return forward


def test_test_mode_returns_x():
    h, x = _inputs()
    with chainerlite.using_config('train', False):
        y = F.zoneout(h, x, 0.9)
    numpy.testing.assert_array_equal(y.array, x)


@pytest.mark.parametrize(
    'x_shape, dtype', [((30, 3), numpy.float32), ((30, 4), numpy.float64)]
)
def test_bad_inputs_are_invalid(x_shape, dtype):
    with pytest.raises(type_check.InvalidType, match='Zoneout'):
        F.zoneout(numpy.zeros((30, 4), numpy.float32), numpy.zeros(x_shape, dtype))


def test_mask_comes_from_numpy_random_rand():
    # As in Chainer: one call of xp.random.rand(*shape), which a test can
    # patch to fix the mask; an element keeps h where the sample < ratio.
    from unittest import mock

    h, x = _inputs()
    samples = numpy.random.uniform(0, 1, x.shape)
    with mock.patch('numpy.random.rand', return_value=samples) as rand:
        y = F.zoneout(h, x, 0.4)
    rand.assert_called_once_with(*x.shape)
    numpy.testing.assert_array_equal(y.array, numpy.where(samples < 0.4, h, x))


def test_forget_replays_the_mask():
    h, x = (chainerlite.Variable(a) for a in _inputs())
    y = F.forget(lambda h, x: F.zoneout(h, x, 0.5), h, x)
    y.grad = numpy.ones_like(y.array)
    y.backward()
    # The gradient reaches exactly the elements the output took.
    numpy.testing.assert_array_equal(h.grad + x.grad, 1)
    numpy.testing.assert_array_equal(x.grad == 1, y.array == x.array)
