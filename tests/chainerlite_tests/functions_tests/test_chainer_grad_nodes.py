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


def _check(node, inputs, outputs, weights=None, second=None, rtol=1e-5):
    """``node`` applied to ``inputs`` gives ``outputs``; with ``weights``
    on the outputs, its backward gives ``second`` (per input)."""
    xs, ys = _apply(node, *inputs)
    assert len(ys) == len(outputs)
    for y, want in zip(ys, outputs):
        assert y.dtype == inputs[-1].dtype
        np.testing.assert_allclose(y.array, want, rtol=rtol, atol=1e-6)
    if weights is not None:
        for g, want in zip(_grads(xs, ys, weights), second):
            np.testing.assert_allclose(g, want, rtol=rtol, atol=1e-6)


def test_basic_math_grads():
    from chainerlite.functions.math import basic_math as bm

    x0, gy, w0 = _values((2, 3)), _values((2, 3)), _values((2, 3))
    x1, w1 = _values(3, 1.0, 2.0), _values(3)
    # x0 / x1, x1 broadcast along axis 0
    _check(
        bm.DivGrad(False),
        [x0, x1, gy],
        [gy / x1, (-gy * x0 / x1**2).sum(axis=0)],
        [w0, w1],
        [
            -w1 * gy / x1**2,
            (-w0 * gy / x1**2 + 2 * w1 * gy * x0 / x1**3).sum(axis=0),
            w0 / x1 - w1 * x0 / x1**2,
        ],
    )
    x = _values((2, 3), 0.5, 2.0)
    _check(
        bm.DivFromConstantGrad(3.0),
        [x, gy],
        [-3.0 * gy / x**2],
        [w0],
        [6.0 * gy * w0 / x**3, -3.0 * w0 / x**2],
    )
    _check(
        bm.PowVarConstGrad(3.0),
        [x, gy],
        [3.0 * x**2 * gy],
        [w0],
        [6.0 * x * gy * w0, 3.0 * x**2 * w0],
    )
    e = _values((2, 3))
    y = x**e
    node = bm.PowVarVarGrad(True, y)
    assert node.y is y
    _check(node, [x, e, gy], [gy * e * x ** (e - 1), gy * y * np.log(x)], rtol=1e-4)
    b = np.array([1.0, -2.0, 0.0], np.float32)
    _check(bm.AbsoluteGrad(b), [gy[0]], [gy[0] * np.sign(b)])


def test_multi_add_sums_broadcast_inputs():
    from chainerlite.functions.math import basic_math as bm

    a, b, c = _values((2, 3)), _values(3), _values((2, 3))
    w = _values((2, 3))
    _check(bm.MultiAdd(), [a, b, c], [a + b + c], [w], [w, w.sum(axis=0), w])
    y = F.add(a, b, c)
    assert isinstance(y.creator, bm.MultiAdd)


def test_install_variable_arithmetics_undoes_a_replaced_operator():
    from chainerlite.functions.math import basic_math as bm

    original = chainerlite.Variable.__dict__['__add__']
    v = chainerlite.Variable(np.array([1.0, 2.0], np.float32))
    chainerlite.Variable.__add__ = lambda self, other: 'replaced'
    try:
        assert v + 1 == 'replaced'
        bm.install_variable_arithmetics()
        assert chainerlite.Variable.__dict__['__add__'] is original
        np.testing.assert_array_equal((v + 1).array, [2.0, 3.0])
    finally:
        chainerlite.Variable.__add__ = original


def test_trigonometric_grads():
    from chainerlite.functions.math import trigonometric as T

    x, gy, w = _values((2, 3), -0.9, 0.9), _values((2, 3)), _values((2, 3))
    _check(
        T.SinGrad(),
        [x, gy],
        [gy * np.cos(x)],
        [w],
        [-gy * np.sin(x) * w, np.cos(x) * w],
    )
    _check(
        T.CosGrad(),
        [x, gy],
        [-gy * np.sin(x)],
        [w],
        [-gy * np.cos(x) * w, -np.sin(x) * w],
    )
    root = np.sqrt(1 - x * x)
    _check(T.ArcsinGrad(), [x, gy], [gy / root], [w], [gy * x * w / root**3, w / root])
    _check(T.ArccosGrad(), [x, gy], [-gy / root])
    _check(
        T.ArctanGrad(),
        [x, gy],
        [gy / (1 + x * x)],
        [w],
        [-2 * x * gy * w / (1 + x * x) ** 2, w / (1 + x * x)],
    )
    x2 = _values((2, 3))
    norm = x * x + x2 * x2
    _check(T.Arctan2Grad(), [x, x2, gy], [gy * x2 / norm, -gy * x / norm])


def test_linear_interpolate_batch_l2_and_repeat_grads():
    from chainerlite.functions.array import repeat
    from chainerlite.functions.math import batch_l2_norm_squared as bl2
    from chainerlite.functions.math import linear_interpolate as li

    p, x, y, gz, w = (_values((2, 3)) for _ in range(5))
    _check(
        li.LinearInterpolateGrad(), [p, x, y, gz], [gz * (x - y), gz * p, gz * (1 - p)]
    )
    gy = _values(2)
    wx = _values((2, 3))
    _check(
        bl2.BatchL2NormSquaredGrad(),
        [x, gy],
        [2 * x * gy[:, None]],
        [wx],
        [2 * wx * gy[:, None], 2 * (x * wx).sum(axis=1)],
    )
    g = _values((2, 6))
    node = repeat.RepeatGrad((2, 1, 3), 1, (2, 3), np.dtype(np.float32))
    want = np.stack([g[:, 0:2].sum(1), g[:, 2], g[:, 3:6].sum(1)], axis=1)
    _check(node, [g], [want], [wx], [np.repeat(wx, (2, 1, 3), axis=1)])


def test_log_softmax_helpers_and_grad():
    from chainerlite.functions.activation import log_softmax as ls

    x = _values((3, 4), -3.0, 3.0).astype(np.float64)
    total = np.log(np.exp(x).sum(axis=1, keepdims=True))
    np.testing.assert_allclose(ls.logsumexp(x, 1), total, rtol=1e-12)
    np.testing.assert_allclose(ls._log_softmax(x), x - total, rtol=1e-12)
    np.testing.assert_allclose(ls._log_softmax(x, 0), x - np.log(np.exp(x).sum(0)))
    y = (x - total).astype(np.float32)
    gy, w = _values((3, 4)), _values((3, 4))
    node = ls.LogSoftmaxGrad(np, y.shape, y.dtype, 1)
    p = np.exp(y)
    gy_sum, wp_sum = gy.sum(axis=1, keepdims=True), (w * p).sum(axis=1, keepdims=True)
    _check(node, [y, gy], [gy - p * gy_sum], [w], [-w * p * gy_sum, w - wp_sum])


def test_softplus_diagonal_and_im2col_grads_take_chainers_arguments():
    from chainerlite.functions.activation import softplus
    from chainerlite.functions.array import diagonal
    from chainerlite.functions.array import im2col

    x, gy = _values((2, 3)), _values((2, 3))
    s = 1 / (1 + np.exp(-2.0 * x))
    _check(softplus.SoftplusGrad((2.0,)), [x, gy], [gy * s])
    d = _values(3)
    want = np.zeros((3, 4), np.float32)
    want[[0, 1, 2], [1, 2, 3]] = d
    _check(diagonal.DiagonalGrad((3, 4), 1, 0, 1), [d], [want])
    # 2x2 windows of stride 1 over a 3x3 image: each pixel gets the
    # columns that cover it
    col = np.arange(16, dtype=np.float32).reshape(1, 4, 2, 2)
    node = im2col.Im2ColGrad((2, 2), (1, 1), (0, 0), False, (1, 1), (1, 1, 3, 3))
    img = np.zeros((3, 3), np.float32)
    for k, (dy, dx) in enumerate(np.ndindex(2, 2)):
        img[dy : dy + 2, dx : dx + 2] += col[0, k]
    _check(node, [col], [img[None, None]])


def test_batch_normalization_nodes_keep_chainers_statistics():
    x = _values((4, 3, 2)).astype(np.float16)
    gamma, beta = np.ones(3, np.float32), np.zeros(3, np.float32)
    node = F.batch_normalization(x, gamma, beta, eps=1e-3).creator
    wide = x.astype(np.float64)
    # in the computing dtype (float32 for float16 x), gamma's shape
    assert node.mean.dtype == node.inv_std.dtype == np.float32
    np.testing.assert_allclose(node.mean, wide.mean(axis=(0, 2)), rtol=1e-5)
    np.testing.assert_allclose(
        node.inv_std, 1 / np.sqrt(wide.var(axis=(0, 2)) + 1e-3), rtol=1e-5
    )
    from chainerlite.functions.normalization import batch_normalization as bn

    fixed = bn.FixedBatchNormalization(eps=0.5)
    assert fixed.inv_std is None and fixed.inv_var is None  # before a forward
    var = np.array([0.5, 1.5, 3.5], np.float32)
    fixed.apply((x, gamma, beta, np.zeros(3, np.float32), var))
    np.testing.assert_allclose(fixed.inv_var, [1.0, 0.5, 0.25])
    np.testing.assert_allclose(fixed.inv_std, [1.0, 0.5**0.5, 0.5])
    assert fixed.inv_std.dtype == np.float32


def test_resize_images_sampling_helpers():
    from chainerlite.functions.array import resize_images as ri

    v, u, vw, uw = ri.compute_indices_and_weights((2, 3), (4, 3), 'bilinear', False, np)
    # rows at (i + 0.5) * 2 - 0.5: 0.5 and 2.5; columns at the pixels
    np.testing.assert_array_equal(v, [0.0, 2.0])
    np.testing.assert_array_equal(vw, [0.5, 0.5])
    np.testing.assert_array_equal(u, [0.0, 1.0, 2.0])
    np.testing.assert_array_equal(uw, [0.0, 0.0, 0.0])
    assert v.dtype == uw.dtype == np.float64
    v, _, vw, _ = ri.compute_indices_and_weights((2, 2), (3, 3), 'bilinear', True, np)
    np.testing.assert_array_equal(v, [0.0, 2.0])  # corners aligned
    v, u, vw, uw = ri.compute_indices_and_weights((3, 2), (4, 4), 'nearest', False, np)
    np.testing.assert_array_equal(v, [0.0, 1.0, 2.0])  # floor(i * 4 / 3)
    np.testing.assert_array_equal(u, [0.0, 2.0])
    assert not vw.any() and not uw.any()

    # the centre of a 2x2 image is the mean of its pixels; the gradient
    # gives each pixel a quarter
    x = np.array([[[[1.0, 2.0], [3.0, 5.0]]]], np.float32)
    idx = np.zeros((1, 1), np.intp)
    half = np.full((1, 1), 0.5, np.float32)
    y = ri.interpolate_bilinear_cpu(x, idx, idx, half, half)
    np.testing.assert_array_equal(y, [[[[2.75]]]])
    gy = np.full((1, 1, 1, 1), 2.0, np.float32)
    gx = ri.interpolate_grad_bilinear_cpu(gy, idx, idx, half, half, 2, 2)
    np.testing.assert_array_equal(gx, np.full((1, 1, 2, 2), 0.5, np.float32))


@pytest.mark.parametrize('mode', ['bilinear', 'nearest'])
def test_resize_images_grad_is_the_adjoint_of_the_resize(mode):
    from chainerlite.functions.array import resize_images as ri

    x, gy = _values((2, 3, 4, 5)), _values((2, 3, 6, 3))
    node = ri.ResizeImagesGrad(x.shape, (6, 3), mode, False)
    (gx,) = node.apply((gy,))
    resized = F.resize_images(x, (6, 3), mode=mode, align_corners=False).array
    # <resize(x), gy> = <x, gx> for every x: the gradient of a linear map
    np.testing.assert_allclose((resized * gy).sum(), (x * gx.array).sum(), rtol=1e-4)


def test_pooling_grads_take_the_pooling_node():
    from chainerlite.functions.pooling import average_pooling_2d as ap2
    from chainerlite.functions.pooling import max_pooling_nd as mp
    from chainerlite.functions.pooling import unpooling_2d as up2

    x = _values((1, 2, 4, 6))
    gy = _values((1, 2, 2, 3))
    # 2x2 windows, stride 2: each window's gradient spread evenly, or to
    # its maximum
    apool = F.average_pooling_2d(x, 2).creator
    (gx,) = ap2.AveragePooling2DGrad(apool2d=apool).apply((gy,))
    spread = gy.repeat(2, axis=2).repeat(2, axis=3)
    np.testing.assert_allclose(gx.array, spread / 4, rtol=1e-6)
    # the pooling's own backward applies the node of Chainer's name
    xv = chainerlite.Variable(x)
    y = F.average_pooling_2d(xv, 2)
    (g,) = chainerlite.grad([y], [xv], [gy], enable_double_backprop=True)
    assert isinstance(g.creator, ap2.AveragePooling2DGrad)

    mpool = F.max_pooling_nd(x, 2).creator
    (gx,) = mp.MaxPoolingNDGrad(func=mpool).apply((gy,))
    windows = x.reshape(1, 2, 2, 2, 3, 2).transpose(0, 1, 2, 4, 3, 5)
    is_max = windows == windows.max(axis=(4, 5), keepdims=True)
    want = (is_max * gy[..., None, None]).transpose(0, 1, 2, 4, 3, 5)
    np.testing.assert_array_equal(gx.array, want.reshape(x.shape))
    (y,) = mp.MaxPoolingNDWithIndexes(func=mpool).apply((x,))
    np.testing.assert_array_equal(y.array, windows.max(axis=(4, 5)))

    unpool = F.unpooling_2d(gy, 2).creator  # (1, 2, 4, 6) out
    (gu,) = up2.Unpooling2DGrad(unpooling2d=unpool).apply((x,))
    np.testing.assert_allclose(gu.array, windows.sum(axis=(4, 5)), rtol=1e-6)


def test_ignore_label_is_the_nodes_class_attribute():
    from chainerlite.functions.evaluation import binary_accuracy as ba
    from chainerlite.functions.loss import negative_sampling as ns
    from chainerlite.functions.loss import sigmoid_cross_entropy as sce

    for cls in (
        ba.BinaryAccuracy,
        sce.SigmoidCrossEntropy,
        ns.NegativeSamplingFunction,
    ):
        assert cls.ignore_label == -1

    class IgnoreZero(ba.BinaryAccuracy):
        ignore_label = 0

    y = np.array([1.0, -1.0, 1.0, -1.0], np.float32)
    t = np.array([1, 0, 0, 1], np.int32)
    # all four count with -1 ignored (two right); with 0 ignored, two count
    assert float(ba.BinaryAccuracy().apply((y, t))[0].array) == 0.5
    assert float(IgnoreZero().apply((y, t))[0].array) == 0.5 * 4 / 2


def test_negative_sampling_function_keeps_its_samples():
    from chainerlite.functions.loss import negative_sampling as ns

    x, W = _values((2, 3)), _values((5, 3))
    t = np.array([4, -1], np.int32)
    drawn = np.array([[9, 1, 2], [9, 3, 0]], np.int32)
    node = ns.NegativeSamplingFunction(lambda shape: drawn[:, : shape[1]], 2)
    (loss,) = node.apply((x, t, W))
    # the first column is overwritten with the labels
    np.testing.assert_array_equal(node.samples, [[4, 1, 2], [-1, 3, 0]])
    # -log sigmoid(w_t . x) - sum log sigmoid(-w_k . x), the second row
    # ignored
    s = W[[4, 1, 2]] @ x[0]
    want = np.logaddexp(0, -s[0]) + np.logaddexp(0, s[1:]).sum()
    np.testing.assert_allclose(loss.array, want, rtol=1e-5)


@pytest.mark.parametrize('reduce', ['mean', 'no'])
def test_sigmoid_cross_entropy_grad(reduce):
    from chainerlite.functions.loss import sigmoid_cross_entropy as sce

    x, w = _values((2, 3)), _values((2, 3))
    t = np.array([[1, 0, -1], [0, 1, 1]], np.int32)
    mask = t != -1
    gy = _values(()) if reduce == 'mean' else _values((2, 3))
    node = sce.SigmoidCrossEntropyGrad(reduce, 5, mask, t)
    p = 1 / (1 + np.exp(-x))
    scale = 1 / 5 if reduce == 'mean' else 1
    xs, (gx,) = _apply(node, x, gy)
    np.testing.assert_allclose(gx.array, gy * (p - t) * mask * scale, rtol=1e-5)
    g_x, g_gy = _grads(xs, [gx], [w])
    np.testing.assert_allclose(g_x, gy * p * (1 - p) * mask * scale * w, rtol=1e-5)
    want = w * (p - t) * mask * scale
    np.testing.assert_allclose(
        g_gy, want.sum() if reduce == 'mean' else want, rtol=1e-5
    )
    # the loss's own backward is its formula
    xv = chainerlite.Variable(x)
    loss = F.sigmoid_cross_entropy(xv, t, reduce=reduce)
    (g,) = chainerlite.grad([loss], [xv], [gy])
    np.testing.assert_array_equal(g.array, gx.array)


def _filter_gradient_by_loops(x, gy, ksize, stride):
    # gW[o, c, i, j] = sum over n, p, q of gy[n, o, p, q] x[n, c, s p + i, s q + j]
    gW = np.zeros((gy.shape[1], x.shape[1]) + ksize)
    for n, o, p, q in np.ndindex(*gy.shape):
        patch = x[
            n, :, stride * p : stride * p + ksize[0], stride * q : stride * q + ksize[1]
        ]
        gW[o] += gy[n, o, p, q] * patch
    return gW


def test_convolution_filter_grads_take_the_convolution_node():
    from chainerlite.functions.connection import convolution_2d as c2
    from chainerlite.functions.connection import convolution_nd as cn

    x, W, gy = _values((2, 3, 5, 5)), _values((4, 3, 3, 3)), _values((2, 4, 2, 2))
    want = _filter_gradient_by_loops(x, gy, (3, 3), 2)
    conv = F.convolution_2d(x, W, stride=2).creator
    (gW,) = c2.Convolution2DGradW(conv, W.shape, W.dtype, None).apply((x, gy))
    np.testing.assert_allclose(gW.array, want, rtol=1e-4, atol=1e-5)
    # Chainer's N-d node takes the convolution node alone
    conv = F.convolution_nd(x, W, stride=2).creator
    (gW,) = cn.ConvolutionNDGradW(conv).apply((x, gy))
    assert gW.dtype == W.dtype
    np.testing.assert_allclose(gW.array, want, rtol=1e-4, atol=1e-5)
    # the 2-D convolution's own backward applies the 2-D node
    xv, Wv = chainerlite.Variable(x), chainerlite.Variable(W)
    y = F.convolution_2d(xv, Wv, stride=2)
    (g,) = chainerlite.grad([y], [Wv], [gy], enable_double_backprop=True)
    assert isinstance(g.creator, c2.Convolution2DGradW)


def test_deconvolution_keeps_whether_its_gradient_covers_all():
    from chainerlite.functions.connection import deconvolution_nd as dn

    assert dn.DeconvolutionND(2).cover_all is None  # before a forward
    x, W = np.ones((1, 2, 3, 3), np.float32), np.ones((2, 1, 3, 3), np.float32)
    # 3 -> 7 with stride 2 and window 3 is the plain convolution's inverse;
    # 3 -> 6 needs cover_all to come back to 3
    exact = F.deconvolution_nd(x, W, stride=2, outsize=(7, 7)).creator
    covering = F.deconvolution_nd(x, W, stride=2, outsize=(6, 7)).creator
    assert exact.cover_all is False and covering.cover_all is True


def test_install_variable_get_item_undoes_a_replaced_indexing():
    from chainerlite.functions.array import get_item

    original = chainerlite.Variable.__dict__['__getitem__']
    v = chainerlite.Variable(np.arange(4.0, dtype=np.float32))
    chainerlite.Variable.__getitem__ = lambda self, index: 'replaced'
    try:
        assert v[1] == 'replaced'
        get_item.install_variable_get_item()
        assert chainerlite.Variable.__dict__['__getitem__'] is original
        assert float(v[1].array) == 1.0
    finally:
        chainerlite.Variable.__getitem__ = original


def test_select_item_assign():
    from chainerlite.functions.array import select_item

    t = np.array([2, 0, 1], np.int32)
    gy, w = _values(3), _values((3, 4))
    want = np.zeros((3, 4), np.float32)
    want[[0, 1, 2], t] = gy
    node = select_item.Assign((3, 4), np.float32, chainerlite.Variable(t))
    _check(node, [gy], [want], [w], [w[[0, 1, 2], t]])


def test_as_strided_geometry_view_and_grad():
    from chainerlite.functions.array import as_strided

    base = np.arange(24, dtype=np.float32).reshape(4, 6)
    geometry = as_strided.TensorGeometry(base[1:, ::2])
    assert geometry.shape == (3, 3) and geometry.ndim == 2
    # rows of 6 elements, every second column, starting at element 6
    assert geometry.strides == (6, 2) and geometry.storage_offset == 6
    assert geometry.itemsize == 4
    view = as_strided._stride_array(base, (2, 2), (3, 1), 4)
    np.testing.assert_array_equal(view, [[4, 5], [7, 8]])
    # a (3, 3) sliding window over 6 elements, from the second: element
    # k + 1 + j is read by every (k, j); each input element gets the sum
    # of the gradients of the outputs that read it
    node = as_strided.AsStridedGrad(
        as_strided.TensorGeometry(np.zeros(6, np.float32)), (3, 3), (1, 1), 1
    )
    gy = _values((3, 3))
    want = np.zeros(6, np.float32)
    for k, j in np.ndindex(3, 3):
        want[k + 1 + j] += gy[k, j]
    _check(node, [gy], [want])


def test_discriminative_loss_object_binds_the_parameters():
    from chainerlite.functions.loss import discriminative_loss as dl

    rng = np.random.RandomState(1)
    e = rng.randn(1, 2, 3, 3).astype(np.float32)
    labels = rng.randint(0, 3, (1, 3, 3)).astype(np.int32)
    loss = dl.DiscriminativeMarginBasedClusteringLoss(0.2, 1.0, 2, 2, 1.0, 0.5, 0.01)
    got = loss(e, labels)
    want = F.discriminative_margin_based_clustering_loss(
        e, labels, 0.2, 1.0, 2, 2, 1.0, 0.5, 0.01
    )
    assert [float(g.array) for g in got] == [float(w.array) for w in want]
    for bad in ({'max_embedding_dim': 0}, {'norm': 3}):
        with pytest.raises(ValueError):
            dl.DiscriminativeMarginBasedClusteringLoss(**bad)


def test_fixed_batch_normalization_grad_takes_chainers_arguments():
    from chainerlite.functions.normalization import batch_normalization as bn

    x, gy = _values((4, 3, 2)), _values((4, 3, 2))
    gamma, mean = _values(3), _values(3)
    var = _values(3, 0.5, 2.0)
    node = bn.FixedBatchNormalizationGrad(
        1e-3, (None, slice(None), None), (0, 2), None, None
    )
    assert node.inv_std is None and node.expander == (None, slice(None), None)
    inv_std = 1 / np.sqrt(var + 1e-3)
    e = (slice(None), None)  # a parameter on x's axis 1
    xc = x - mean[e]
    gx = gy * (gamma * inv_std)[e]
    gbeta = gy.sum(axis=(0, 2))
    ggamma = (gy * xc).sum(axis=(0, 2)) * inv_std
    gmean = -gbeta * gamma * inv_std
    gvar = -0.5 * (gy * xc).sum(axis=(0, 2)) * gamma * inv_std**3
    _check(node, [x, gamma, mean, var, gy], [gx, ggamma, gbeta, gmean, gvar], rtol=1e-4)


def test_local_response_normalization_grad():
    from chainerlite.functions.normalization import local_response_normalization as lrn

    x, gy = _values((2, 5, 3)), _values((2, 5, 3))
    n, k, alpha, beta = 3, 2.0, 0.1, 0.75
    # y_c = x_c s_c^-beta with s_c = k + alpha sum_{|d - c| <= 1} x_d^2:
    # gx_c = gy_c s_c^-beta - 2 alpha beta x_c sum_{|d - c| <= 1} gy_d y_d / s_d
    wide = [a.astype(np.float64) for a in (x, gy)]
    sq = np.pad(wide[0] ** 2, ((0, 0), (1, 1), (0, 0)))
    s = k + alpha * (sq[:, :-2] + sq[:, 1:-1] + sq[:, 2:])
    y = wide[0] * s**-beta
    t = np.pad(wide[1] * y / s, ((0, 0), (1, 1), (0, 0)))
    gx = wide[1] * s**-beta - 2 * alpha * beta * wide[0] * (
        t[:, :-2] + t[:, 1:-1] + t[:, 2:]
    )
    node = lrn.LocalResponseNormalizationGrad(n, k, alpha, beta, False)
    _check(node, [x, y.astype(np.float32), gy], [gx], rtol=1e-4)


def test_pooling_nd_base_by_chainers_name():
    from chainerlite.functions.pooling import pooling_nd

    node = pooling_nd._PoolingND(2, 3, pad=1, return_indices=True)
    assert node.ksize == (3, 3) and node.stride == (3, 3) and node.pad == (1, 1)
    assert node.cover_all is True and node.return_indices is True
    with pytest.raises(ValueError):
        pooling_nd._PoolingND(0, 3)
