"""Two-dimensional depthwise convolution."""

from chainerlite.functions.array import reshape
from chainerlite.functions.array import transpose
from chainerlite.functions.connection import convolution_2d
from chainerlite.utils import type_check


def depthwise_convolution_2d(x, W, b=None, stride=1, pad=0):
    """Two-dimensional depthwise convolution function.

    Each input channel is convolved separately with ``m`` filters of its
    own (``m`` is the channel multiplier), giving ``c_I * m`` output
    channels: output channel ``k * m + j`` is input channel ``k`` convolved
    with ``W[j, k]``, plus ``b[k * m + j]``. It is a grouped
    :func:`convolution_2d` with one group per input channel.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of shape
            ``(n, c_I, h, w)``.
        W (Variable or numpy.ndarray or cupy.ndarray): Filters of shape
            ``(m, c_I, kh, kw)``.
        b (Variable or numpy.ndarray or cupy.ndarray): Bias of shape
            ``(m * c_I,)``, or ``None``.
        stride (int or pair of ints): Stride of filter applications.
        pad (int or pair of ints): Zero padding on each side of the input.

    Returns:
        Variable: Output of shape ``(n, c_I * m, out_h, out_w)`` and the
        dtype of ``x``.

    Raises:
        ~chainerlite.utils.type_check.InvalidType: If ``W`` is not 4-d or
            its second axis does not match the channels of ``x``.
        ValueError: If ``stride`` is not a positive int (or a pair of
            them), or ``pad`` is not a non-negative one.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.ones((1, 2, 2, 2), np.float32)
        >>> W = np.array([1, 2, 10, 20], np.float32).reshape(2, 2, 1, 1)
        >>> F.depthwise_convolution_2d(x, W).array[0, :, 0, 0]
        array([ 1., 10.,  2., 20.], dtype=float32)

    """
    if len(W.shape) != 4 or len(x.shape) != 4 or W.shape[1] != x.shape[1]:
        error = type_check.InvalidType(
            'W.shape == (m, x.shape[1], kh, kw)',
            'depthwise_convolution_2d: x.shape {}, W.shape {}'.format(
                tuple(x.shape), tuple(W.shape)
            ),
        )
        if len(W.shape) == 4 and len(x.shape) >= 2:
            raise error
        # Chainer 7.8.1 unpacks the four axes of W (a ValueError), then its
        # convolution reads x.shape[1] (an IndexError)
        with type_check.invalid_as(ValueError if len(W.shape) != 4 else IndexError):
            raise error
    m, c_in, kh, kw = W.shape
    W = reshape.reshape(transpose.transpose(W, (1, 0, 2, 3)), (c_in * m, 1, kh, kw))
    return convolution_2d.convolution_2d(x, W, b, stride, pad, groups=c_in)
