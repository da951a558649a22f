"""The gradient nodes and helpers of Chainer 7.8.1's function modules, by
Chainer's names and constructors: each applies to Chainer's inputs and
gives the gradient it stands for, and its backward gives that gradient's
derivative (the second order). Expected values are written out here."""

import numpy as np
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite.functions.activation import clipped_relu
from chainerlite.functions.activation import relu
from chainerlite.functions.activation import tanh

RNG = np.random.RandomState(0)


def _values(shape, low=-2.0, high=2.0, dtype=np.float32):
    return RNG.uniform(low, high, shape).astype(dtype)


def _apply(node, *arrays):
    """The node's outputs on Variables of ``arrays``, the Variables, and
    the gradients of ``sum(outputs * weights)`` for given weights."""
    xs = [chainerlite.Variable(a) for a in arrays]
    ys = node.apply(xs)
    return xs, ys


def _grads(xs, ys, weights):
    loss = sum(F.sum(y * w) for y, w in zip(ys, weights) if y is not None)
    return [g.array if g is not None else None for g in chainerlite.grad([loss], xs)]


def test_relu_grad2_passes_gy_where_b_is_positive():
    b = np.array([-1.0, 0.0, 2.0, 3.0], np.float32)
    gy, w = _values(4), _values(4)
    node = relu.ReLUGrad2(b)
    assert node.b is b
    xs, (gx,) = _apply(node, gy)
    np.testing.assert_array_equal(gx.array, gy * (b > 0))
    (ggy,) = _grads(xs, [gx], [w])
    np.testing.assert_array_equal(ggy, w * (b > 0))
    np.testing.assert_array_equal(node.forward_cpu((gy,))[0], gy * (b > 0))


def test_tanh_grad_from_the_output():
    y, gy, w = np.tanh(_values(5)), _values(5), _values(5)
    node = tanh.TanhGrad(None)
    assert node.x is None
    xs, (gx,) = _apply(node, y, gy)
    np.testing.assert_allclose(gx.array, gy * (1 - y * y), rtol=1e-6)
    g_y, g_gy = _grads(xs, [gx], [w])
    np.testing.assert_allclose(g_y, -2 * gy * y * w, rtol=1e-5)
    np.testing.assert_allclose(g_gy, w * (1 - y * y), rtol=1e-6)


@pytest.mark.parametrize('cudnn_form', [False, True])
def test_clipped_relu_grads_pass_gy_strictly_inside(cudnn_form):
    x = np.array([-1.0, 0.0, 0.5, 1.5, 2.0], np.float32)
    gy, w = _values(5), _values(5)
    if cudnn_form:
        node = clipped_relu.ClippedReLUGrad3(x, np.clip(x, 0, 1.5), 1.5)
    else:
        node = clipped_relu.ClippedReLUGrad2(x, 1.5)
    inside = np.array([0, 0, 1, 0, 0], np.float32)
    xs, (gx,) = _apply(node, gy)
    np.testing.assert_array_equal(gx.array, gy * inside)
    np.testing.assert_array_equal(_grads(xs, [gx], [w])[0], w * inside)


def test_clip_grad_passes_gy_inside_the_closed_interval():
    from chainerlite.functions.math import clip

    x = np.array([-2.0, -1.0, 0.0, 1.0, np.nan], np.float32)
    gy, w = _values(5), _values(5)
    for bounds, inside in (
        ((-1.0, 1.0), [0, 1, 1, 1, 0]),
        ((None, 0.0), [1, 1, 1, 0, 0]),
        ((0.0, None), [0, 0, 1, 1, 0]),
    ):
        xs, (gx,) = _apply(clip.ClipGrad(x, *bounds), gy)
        mask = np.array(inside, np.float32)
        np.testing.assert_array_equal(gx.array, gy * mask)
        np.testing.assert_array_equal(_grads(xs, [gx], [w])[0], w * mask)
    with pytest.raises(ValueError):
        clip.ClipGrad(x, None, None)


@pytest.mark.parametrize('which', ['maximum', 'minimum'])
def test_maximum_minimum_grads_split_gy_and_sum_to_each_input(which):
    from chainerlite.functions.math import maximum
    from chainerlite.functions.math import minimum

    x1 = np.array([[1.0, 2.0, np.nan], [0.5, -1.0, 3.0]], np.float32)
    x2 = np.array([1.0, 0.0, 0.0], np.float32)  # broadcast along axis 0
    gy = _values((2, 3))
    w1, w2 = _values((2, 3)), _values(3)
    if which == 'maximum':
        node = maximum.MaximumGrad(x1, x2)
        to_x1 = np.array([[1, 1, 0], [0, 0, 1]], np.float32)  # ties to x1
        to_x2 = 1 - to_x1  # NaN: to x2
    else:
        node = minimum.MinimumGrad(x1, x2)
        to_x1 = np.array([[1, 0, 0], [1, 1, 0]], np.float32)
        to_x2 = np.array([[0, 1, 0], [0, 0, 1]], np.float32)  # NaN: neither
    xs, (g1, g2) = _apply(node, gy)
    np.testing.assert_array_equal(g1.array, gy * to_x1)
    np.testing.assert_allclose(g2.array, (gy * to_x2).sum(axis=0), rtol=1e-6)
    # second order: x1's upstream gradient where x1 wins, x2's elsewhere
    (ggy,) = _grads(xs, [g1, g2], [w1, w2])
    np.testing.assert_array_equal(ggy, np.where(to_x1 == 1, w1, w2 + 0 * w1))
