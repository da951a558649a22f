"""Two-dimensional deformable convolution (the sampler and the product)."""

from chainerlite import backend
from chainerlite.functions.array import broadcast
from chainerlite.functions.array import reshape
from chainerlite.functions.array import spatial_transformer_sampler
from chainerlite.functions.array import transpose
from chainerlite.functions.connection import _conv_args
from chainerlite.functions.math import basic_math
from chainerlite.functions.math import tensordot
from chainerlite.utils import type_check


def _array(x):
    return getattr(x, 'array', x)


def _check_shapes(x, offset, W, b):
    four_axes = len(x.shape) == len(W.shape) == len(offset.shape) == 4
    offset_fits = four_axes and offset.shape[1] == 2 * W.shape[2] * W.shape[3]
    if (
        offset_fits
        and W.shape[1] == x.shape[1]
        and offset.shape[0] == x.shape[0]
        and (b is None or tuple(b.shape) == (W.shape[0],))
    ):
        return
    error = type_check.InvalidType(
        'x: (n, c, h, w), W: (c_O, c, kh, kw), offset: '
        '(n, 2 * kh * kw, out_h, out_w), b: (c_O,)',
        'deformable_convolution_2d_sampler: x.shape {}, offset.shape {},'
        ' W.shape {}, b.shape {}'.format(
            tuple(x.shape),
            tuple(offset.shape),
            tuple(W.shape),
            None if b is None else tuple(b.shape),
        ),
    )
    if offset_fits:
        raise error
    # Chainer 7.8.1 unpacks the four axes of each and compares the offset's
    # channels with the kernel: a ValueError
    with type_check.invalid_as(ValueError):
        raise error


def deformable_convolution_2d_sampler(x, offset, W, b=None, stride=1, pad=0):
    """Two-dimensional deformable convolution function using computed
    offsets.

    A :func:`convolution_2d` whose filter taps read the input at shifted,
    fractional positions. With ``t = j * kw + i`` the index of the tap
    ``(j, i)``, at output position ``(p, q)`` it reads ``x`` at row
    ``p * s_Y - h_P + j + offset[:, kh * kw + t, p, q]`` and column
    ``q * s_X - w_P + i + offset[:, t, p, q]``: the first ``kh * kw``
    channels of ``offset`` shift the columns, the last ``kh * kw`` the rows.
    Values between pixels are interpolated bilinearly; pixels outside the
    image are zero. With zero offsets it is the
    ordinary convolution. See `Deformable Convolutional Networks
    <https://arxiv.org/abs/1703.06211>`_.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of shape
            ``(n, c_I, h, w)``.
        offset (Variable or numpy.ndarray or cupy.ndarray): Offsets of shape
            ``(n, 2 * kh * kw, out_h, out_w)``, where ``out_h`` and
            ``out_w`` are the output size of the convolution.
        W (Variable or numpy.ndarray or cupy.ndarray): Filters of shape
            ``(c_O, c_I, kh, kw)``.
        b (Variable or numpy.ndarray or cupy.ndarray): Bias of shape
            ``(c_O,)``, or ``None``.
        stride (int or pair of ints): Stride of filter applications.
        pad (int or pair of ints): Zero padding on each side of the input.

    Returns:
        Variable: Output of shape ``(n, c_O, out_h, out_w)``.

    Raises:
        ~chainerlite.utils.type_check.InvalidType: If the shapes of the
            arguments do not fit together.
        ValueError: If ``stride`` is not a positive int (or a pair of
            them), or ``pad`` is not a non-negative one.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.arange(4, dtype=np.float32).reshape(1, 1, 1, 4)
        >>> W = np.ones((1, 1, 1, 1), np.float32)
        >>> offset = np.zeros((1, 2, 1, 4), np.float32)
        >>> offset[:, 0] = 0.5   # read half a pixel to the right
        >>> F.deformable_convolution_2d_sampler(x, offset, W).array
        array([[[[0.5, 1.5, 2.5, 1.5]]]], dtype=float32)

    """
    where = 'deformable_convolution_2d_sampler'
    sy, sx = _conv_args.int_pair(stride, 'stride', where)
    ph, pw = _conv_args.int_pair(pad, 'pad', where, minimum=0)
    _check_shapes(x, offset, W, b)
    xp = backend.get_array_module(_array(x))
    n = x.shape[0]
    c_out, _, kh, kw = W.shape
    out_h, out_w = offset.shape[2:]
    shape = (n, kh, kw, out_h, out_w)
    dtype = _array(offset).dtype
    # The positions of the taps without offsets, then with them.
    rows = (xp.arange(out_h) * sy - ph) + xp.arange(kh)[:, None]
    cols = (xp.arange(out_w) * sx - pw) + xp.arange(kw)[:, None]
    rows = xp.broadcast_to(rows[None, :, None, :, None], shape).astype(dtype)
    cols = xp.broadcast_to(cols[None, None, :, None, :], shape).astype(dtype)
    offset = reshape.reshape(offset, (n, 2) + shape[1:])
    py = reshape.reshape(offset[:, 1] + rows, (n, -1))
    px = reshape.reshape(offset[:, 0] + cols, (n, -1))
    # (n, kh*kw*out_h*out_w, c)
    col = spatial_transformer_sampler.sample_bilinear(x, py, px)
    col = reshape.reshape(col, shape + (x.shape[1],))
    y = tensordot.tensordot(col, W, axes=((5, 1, 2), (1, 2, 3)))
    y = transpose.transpose(y, (0, 3, 1, 2))  # (n, c_O, out_h, out_w)
    if b is not None:
        y = basic_math.add(
            y, broadcast.broadcast_to(reshape.reshape(b, (1, c_out, 1, 1)), y.shape)
        )
    return y
