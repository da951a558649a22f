"""One-dimensional discrete Fourier transform of (real, imag) pairs."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class FFT(function_node.FunctionNode):
    """DFT (``method='fft'``) or its inverse (``'ifft'``) on the last axis."""

    def __init__(self, method):
        self._method = method

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('real', 'imag'))
        r_type, i_type = in_types
        type_check.expect(
            r_type.dtype.kind == 'f',
            r_type.dtype == i_type.dtype,
            r_type.shape == i_type.shape,
            r_type.ndim > 0,
        )

    def forward(self, inputs):
        real, imag = inputs
        xp = backend.get_array_module(real)
        y = getattr(xp.fft, self._method)(real + imag * 1j)
        dtype = real.dtype
        return (y.real.astype(dtype, copy=False), y.imag.astype(dtype, copy=False))

    def backward(self, indexes, grad_outputs):
        # The transform is linear and its matrix W symmetric, so the
        # gradient is conj(W) g (scaled by 1 / n for the inverse):
        # conj(W g') with g' = conj(g), which the same transform gives on
        # the parts swapped (swapping real and imaginary parts conjugates
        # up to a factor i that the second swap undoes). One node, as
        # Chainer's (hooks see an FFT).
        g_real, g_imag = grad_outputs
        like = g_real if g_real is not None else g_imag
        xp = backend.get_array_module(like)
        if g_real is None:
            g_real = xp.zeros(like.shape, like.dtype)
        if g_imag is None:
            g_imag = xp.zeros(like.shape, like.dtype)
        gx_imag, gx_real = FFT(self._method).apply((g_imag, g_real))
        return gx_real, gx_imag


def _transform(x, method):
    # anything that unpacks into two (a list, an array or Variable of two
    # rows), as in Chainer 7.8.1, with its exception type otherwise
    try:
        real, imag = x
    except (TypeError, ValueError) as e:
        raise type(e)(
            '{}: x must be a pair (real, imag) of arrays, but a {} is given '
            '({})'.format(method, type(x).__name__, e)
        ) from None
    return FFT(method).apply((real, imag))


def fft(x: Variable | NdArray):
    """One-dimensional discrete Fourier transform along the last axis.

    A complex array is given as its real and imaginary parts. With
    :math:`z = \\mathrm{real} + i\\,\\mathrm{imag}` of length :math:`n`,

    .. math::
        Z_k = \\sum_{j=0}^{n-1} z_j e^{-2\\pi i jk/n}

    Args:
        x (tuple): ``(real, imag)``, two variables or arrays of the same
            shape (at least one dimension) and floating point dtype, or
            anything that unpacks into two (such as an array of two rows).

    Returns:
        tuple of Variable: ``(real, imag)`` of the transform, with the shape
        and dtype of the input.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> r, i = F.fft((np.array([1., 2., 3.]), np.zeros(3)))
        >>> r.array.round(4), i.array.round(4)
        (array([ 6. , -1.5, -1.5]), array([ 0.   ,  0.866, -0.866]))

    """
    return _transform(x, 'fft')


def ifft(x: Variable | NdArray):
    """One-dimensional inverse discrete Fourier transform along the last axis.

    .. math::
        z_j = \\frac{1}{n} \\sum_{k=0}^{n-1} Z_k e^{2\\pi i jk/n}

    Args:
        x (tuple): ``(real, imag)``, two variables or arrays of the same
            shape (at least one dimension) and floating point dtype, or
            anything that unpacks into two (such as an array of two rows).

    Returns:
        tuple of Variable: ``(real, imag)`` of the inverse transform, with the
        shape and dtype of the input.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> r, i = F.ifft((np.array([6., -1.5, -1.5]),
        ...                np.array([0., 0.8660254, -0.8660254])))
        >>> r.array.round(4), i.array.round(4)
        (array([1., 2., 3.]), array([0., 0., 0.]))

    """
    return _transform(x, 'ifft')
