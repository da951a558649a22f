"""The compiled kernels refuse inconsistent arguments with a ValueError that
names them (the calls reported to crash or read past their input), or
decline where declining is their contract; valid calls are unchanged."""

import numpy
import pytest

from chainerlite._kernels import act as act_kernels
from chainerlite._kernels import conv as conv_kernels
from chainerlite._kernels import direct_conv
from chainerlite._kernels import lstm as lstm_kernels
from chainerlite._kernels import optim as optim_kernels
from chainerlite._kernels import pool as pool_kernels
from chainerlite._kernels import relu as relu_kernels
from chainerlite._kernels import sce as sce_kernels


def _misaligned(n, dtype=numpy.float64):
    raw = numpy.zeros(n * numpy.dtype(dtype).itemsize + 1, numpy.uint8)
    return raw[1:].view(dtype)


@pytest.mark.parametrize(
    'kernel, arity, scalars',
    [
        ('leaky_relu_grad', 2, (0.1,)),
        ('softplus_grad', 2, (1.0,)),
        ('gelu', 1, ()),
        ('normal_cdf', 1, ()),
        ('gelu_grad', 2, ()),
    ],
)
def test_act_kernels(kernel, arity, scalars):
    # they decline (None) what NumPy must compute: arrays of different
    # shapes or dtypes, misaligned, another dtype or array type
    fn = getattr(act_kernels, kernel)
    x = numpy.linspace(-2, 2, 1000)
    ins = [x] * arity
    if arity == 2:
        assert fn(x, x[:999], *scalars) is None
        assert fn(x, x.astype(numpy.float32), *scalars) is None
    assert fn(*ins[:-1], _misaligned(1000), *scalars) is None
    assert fn(*ins[:-1], x.astype(numpy.float16), *scalars) is None
    assert fn(*ins[:-1], list(x), *scalars) is None
    out = fn(*ins, *scalars)
    assert out.shape == x.shape and out.dtype == x.dtype
    # a strided input gives the values of its contiguous copy
    strided = numpy.linspace(-2, 2, 2000)[::2]
    numpy.testing.assert_array_equal(
        fn(*[strided] * arity, *scalars), fn(*[strided.copy()] * arity, *scalars)
    )


def test_col2im_inconsistent_arrays():
    col = numpy.ones((4, 2, 2, 2, 2, 2))
    with pytest.raises(ValueError, match='col2im_2d: batch or channels differ'):
        conv_kernels.col2im_2d(col, numpy.zeros((1, 1, 2, 2)), 1, 1, 0, 0, 1, 1)
    with pytest.raises(ValueError, match='col2im_2d: the output overlaps'):
        flat = numpy.zeros(16 + 16)
        conv_kernels.col2im_2d(
            flat[:16].reshape(1, 1, 2, 2, 2, 2),
            flat[12:28].reshape(1, 1, 4, 4),
            1,
            1,
            0,
            0,
            1,
            1,
        )


@pytest.mark.parametrize(
    'params',
    [
        (0, 1, 0, 0, 1, 1),
        (1, 1, -1, 0, 1, 1),
        (1, 1, 0, 0, 0, 1),
        (1, 1, 0, 2**31 - 1, 1, 1),
        (1, 2**31 - 1, 0, 1, 1, 1),
    ],
)
def test_im2col_window_parameters(params):
    img = numpy.ones((1, 1, 3, 3))
    col = numpy.empty((1, 1, 2, 2, 2, 2))
    with pytest.raises(ValueError, match='im2col_2d: strides and dilations'):
        conv_kernels.im2col_2d(img, col, *params, 0.0)
    with pytest.raises(ValueError, match='col2im_2d: strides and dilations'):
        conv_kernels.col2im_2d(col, img, *params)


def test_im2col_does_not_read_past_its_input():
    # more images or channels in the columns than in the input
    with pytest.raises(ValueError, match='im2col_2d: batch or channels differ'):
        conv_kernels.im2col_2d(
            numpy.ones((1, 1, 2, 2)),
            numpy.zeros((4, 1, 2, 2, 2, 2)),
            1,
            1,
            0,
            0,
            1,
            1,
            0.0,
        )
    # windows that reach past the padded images
    with pytest.raises(ValueError, match='im2col_padded_2d: the windows'):
        conv_kernels.im2col_padded_2d(
            numpy.ones((1, 1, 3, 3)), numpy.zeros((1, 1, 2, 2, 2, 3)), 1, 1, 1, 1
        )
    # columns whose (out_h, out_w) blocks are not C-contiguous
    with pytest.raises(ValueError, match='blocks of the columns'):
        conv_kernels.im2col_2d(
            numpy.ones((1, 1, 2, 2)),
            numpy.zeros((1, 1, 2, 2, 3, 2)).swapaxes(4, 5),
            1,
            1,
            0,
            0,
            1,
            1,
            0.0,
        )


def test_channels_to_batch_shapes():
    y = numpy.ones((3, 8))
    with pytest.raises(ValueError, match='channels_to_batch: shapes do not match'):
        conv_kernels.channels_to_batch(y, numpy.ones(2), numpy.empty((2, 3, 4)))
    with pytest.raises(ValueError, match='channels_to_batch: shapes do not match'):
        conv_kernels.channels_to_batch(y, None, numpy.empty((3, 3, 4)))
    with pytest.raises(ValueError, match='channels_to_batch: the output overlaps'):
        conv_kernels.channels_to_batch(y, None, y.reshape(2, 3, 4))


def test_direct_conv_overlapping_and_misaligned_inputs():
    # inputs that overlap or are misaligned are read through aligned
    # copies: the bits of separate arrays
    buf = numpy.linspace(-1, 1, 2 * 4 * 4 * 4 + 1).astype(numpy.float32)
    x = buf[:64].reshape(2, 2, 4, 4)
    W = buf[1 : 1 + 4 * 2 * 3 * 3].reshape(4, 2, 3, 3)
    odd = _misaligned(2 * 2 * 4 * 4, numpy.float32).reshape(x.shape)
    odd[...] = x
    args = ((1, 1), (1, 1), (1, 1), 1, None, True)
    y = direct_conv.conv2d(x, W, None, *args)
    apart = direct_conv.conv2d(x.copy(), W.copy(), None, *args)
    numpy.testing.assert_array_equal(y, apart)
    numpy.testing.assert_array_equal(y, direct_conv.conv2d(odd, W.copy(), None, *args))
    gy = buf[: y.size].reshape(y.shape)
    gW = direct_conv.conv2d_grad_weight(odd, gy, (3, 3), *args)
    numpy.testing.assert_array_equal(
        gW, direct_conv.conv2d_grad_weight(x.copy(), gy.copy(), (3, 3), *args)
    )


def test_lstm_outputs():
    c = numpy.ones((2, 3))
    x = numpy.ones((2, 12))
    h = numpy.empty((2, 3))
    with pytest.raises(ValueError, match='c_next is read-only'):
        ro = numpy.empty((2, 3))
        ro.flags.writeable = False
        lstm_kernels.lstm_forward(c, x, ro, h)
    with pytest.raises(ValueError, match='lstm_forward: an output overlaps'):
        lstm_kernels.lstm_forward(c, x, c, h)
    with pytest.raises(ValueError, match='lstm_forward: an output overlaps'):
        lstm_kernels.lstm_forward(c, x, h, h)
    # a misaligned input is copied, and gives the same results
    c_next, c_next2 = numpy.empty((2, 3)), numpy.empty((2, 3))
    lstm_kernels.lstm_forward(c, x, c_next, h)
    odd = _misaligned(6).reshape(2, 3)
    odd[...] = c
    lstm_kernels.lstm_forward(odd, x, c_next2, numpy.empty((2, 3)))
    numpy.testing.assert_array_equal(c_next, c_next2)


def test_sce_backward_declines_foreign_stats():
    x = numpy.random.randn(4, 3)
    t = numpy.array([0, 1, 2, 1], numpy.int32)
    loss, stats, coeff = sce_kernels.sce_forward(x, t, -1, 1)
    g = numpy.ones((), x.dtype)
    expected = sce_kernels.sce_backward(x, stats, g, coeff)
    assert expected is not None
    k, m, s = stats
    for bad in [
        None,
        (k, m),
        [k, m, s],
        (k.astype(numpy.int32), m, s),
        (k + 5, m, s),
        (k, m[:2], s),
        (k, m, s.astype(numpy.float32)),
    ]:
        assert sce_kernels.sce_backward(x, bad, g, coeff) is None


def test_relu_declines_misaligned():
    assert relu_kernels.relu(_misaligned(10)) is None
    assert relu_kernels.relu_grad(numpy.ones(10), _misaligned(10)) is None


def test_adam_declines_read_only_and_misaligned():
    arrays = [numpy.ones(10) for _ in range(4)]
    args = (0.1, 0.001, 0.01, 1e-8, 1.0, 0.0)
    read_only = numpy.ones(10)
    read_only.flags.writeable = False
    for position in (0, 2, 3):
        bad = list(arrays)
        bad[position] = read_only
        assert optim_kernels.adam(*bad, *args) is None
        bad[position] = _misaligned(10)
        assert optim_kernels.adam(*bad, *args) is None
    assert (read_only == 1).all()


def test_max_pooling_overlap():
    x = numpy.ones((1, 1, 4, 4))
    idx = numpy.empty((1, 1, 2, 2), numpy.intp)
    with pytest.raises(ValueError, match='max_pooling_2d: arrays overlap'):
        pool_kernels.max_pooling_2d(
            x, x.reshape(-1)[:4].reshape(1, 1, 2, 2), idx, 2, 2, 2, 2, 0, 0
        )
