"""Two-dimensional dilated convolution."""

from chainerlite.functions.connection import convolution_2d


def dilated_convolution_2d(x, W, b=None, stride=1, pad=0, dilate=1, cover_all=False):
    """Two-dimensional dilated convolution function.

    A :func:`convolution_2d` whose filter taps are ``dilate`` pixels apart
    (an "atrous" convolution): a ``kh x kw`` filter covers
    ``(kh - 1) * dy + 1`` rows and ``(kw - 1) * dx + 1`` columns. The output
    height is

    .. math::
        h_O = (h_I + 2 h_P - (h_K - 1) d_Y - 1) / s_Y + 1

    rounded down, or up with ``cover_all`` (likewise for the width).

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of shape
            ``(n, c_I, h_I, w_I)``.
        W (Variable or numpy.ndarray or cupy.ndarray): Filters of shape
            ``(c_O, c_I, h_K, w_K)``.
        b (Variable or numpy.ndarray or cupy.ndarray): Bias of shape
            ``(c_O,)``, or ``None``.
        stride (int or pair of ints): Stride of filter applications.
        pad (int or pair of ints): Zero padding on each side of the input.
        dilate (int or pair of ints): Spacing of the filter taps.
        cover_all (bool): Use all input pixels (the last windows may run
            past the padded input).

    Returns:
        Variable: Output of shape ``(n, c_O, h_O, w_O)`` and the dtype of
        ``x``.

    Raises:
        RuntimeError: If the output height or width is not positive.
        ValueError: If ``stride`` or ``dilate`` is not a positive int (or a
            pair of them), or ``pad`` is not a non-negative one.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.arange(5, dtype=np.float32).reshape(1, 1, 1, 5)
        >>> W = np.ones((1, 1, 1, 2), np.float32)
        >>> F.dilated_convolution_2d(x, W, dilate=2).array
        array([[[[2., 4., 6.]]]], dtype=float32)

    """
    return convolution_2d.convolution_2d(x, W, b, stride, pad, cover_all, dilate=dilate)
