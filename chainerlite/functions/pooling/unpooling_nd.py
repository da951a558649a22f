"""N-dimensional unpooling and the node of its gradient."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite.functions.connection import convolution_nd
from chainerlite.functions.pooling import pooling_nd
from chainerlite.utils import _windows
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


def set_outsize(pooling, outsize):
    """Sets ``pooling.outs`` (one length or ``None`` per axis).

    Raises:
        ValueError: If ``outsize`` does not have ``pooling.ndim`` values;
            an :class:`~chainerlite.utils.type_check.InvalidType` too, the
            type of Chainer 7.8.1's N-d check (its 2-D one unpacks it).

    """
    pooling.outs = (None,) * pooling.ndim if outsize is None else tuple(outsize)
    if len(pooling.outs) != pooling.ndim:
        raise type_check.InvalidTypeValueError(
            'len(outsize) == {}'.format(pooling.ndim),
            repr(outsize),
            '{}: outsize must have {} values, but {!r} is given'.format(
                pooling.function_name, pooling.ndim, outsize
            ),
        )


def check_outsize(pooling, x_type):
    """Checks that pooling an output of lengths ``pooling.outs`` gives the
    lengths of ``x``."""
    for axis, out in enumerate(pooling.outs):
        if out is not None:
            type_check.expect(
                x_type.shape[axis + 2]
                == _windows.get_conv_outsize(
                    out,
                    pooling.ksize[axis],
                    pooling.stride[axis],
                    pooling.pad[axis],
                    cover_all=pooling.cover_all,
                )
            )


def default_outsize(pooling, dims):
    """Sets the unset lengths of ``pooling.outs`` from the input lengths."""
    pooling.outs = tuple(
        _windows.get_deconv_outsize(d, k, s, p, cover_all=pooling.cover_all)
        if out is None
        else out
        for out, d, k, s, p in zip(
            pooling.outs, dims, pooling.ksize, pooling.stride, pooling.pad
        )
    )
    if min(pooling.outs) < 0:
        raise ValueError(
            '{}: ksize {}, stride {} and pad {} give the output negative lengths '
            '{} on an input of lengths {}'.format(
                pooling.function_name,
                pooling.ksize,
                pooling.stride,
                pooling.pad,
                pooling.outs,
                tuple(dims),
            )
        )


class UnpoolingND(pooling_nd.PoolingND):
    """Unpooling: copies each element over its window of the output.

    Args:
        ndim (int): Number of spatial axes.
        ksize, stride, pad, outsize, cover_all: As in :func:`unpooling_nd`.

    """

    function_name = 'unpooling_nd'
    # Chainer's N-d node declares an empty retained set, its 2-d one none
    declares_no_retained = True

    def __init__(self, ndim, ksize, stride=None, pad=0, outsize=None, cover_all=True):
        super().__init__(ndim, ksize, stride, pad, cover_all)
        set_outsize(self, outsize)

    def check_type_forward(self, in_types):
        super().check_type_forward(in_types)
        check_outsize(self, in_types[0])

    def forward(self, inputs):
        if self.declares_no_retained:
            self.retain_inputs(())
        (x,) = inputs
        xp = backend.get_array_module(x)
        default_outsize(self, x.shape[2:])
        col = xp.broadcast_to(
            x.reshape(x.shape[:2] + (1,) * self.ndim + x.shape[2:]),
            x.shape[:2] + self.ksize + x.shape[2:],
        )
        return (self.col2im(col, self.outs),)

    def backward(self, indexes, grad_outputs):
        return UnpoolingNDGrad(self).apply(grad_outputs)


class UnpoolingNDGrad(pooling_nd.PoolingND):
    """Gradient of unpooling: sums the gradient over each window.

    Args:
        unpoolingnd (UnpoolingND): The unpooling node (after its forward).

    """

    function_name = 'unpooling_nd'

    def __init__(self, unpoolingnd):
        super().__init__(**unpoolingnd.window_params())
        self.outsize = unpoolingnd.outs

    def forward(self, inputs):
        (gy,) = inputs
        return (self.im2col(gy).sum(axis=self.window_axes()),)

    def backward(self, indexes, grad_outputs):
        func = UnpoolingND(outsize=self.outsize, **self.window_params())
        return func.apply(grad_outputs)


def unpooling_nd(
    x: Variable | NdArray, ksize, stride=None, pad=0, outsize=None, cover_all=True
) -> Variable:
    """Inverse operation of N-dimensional spatial pooling.

    The N-d generalisation of :func:`unpooling_2d`: each input element is
    copied to every position of its ``ksize`` window of the output; values
    of overlapping windows are summed.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of shape
            ``(n, c, d_1, ..., d_N)``.
        ksize (int or tuple of ints): Window size; ``k`` means
            ``(k,) * N``.
        stride (int or tuple of ints or None): Stride; ``None`` means
            ``ksize``.
        pad (int or tuple of ints): Padding cut from each side of the
            output.
        outsize (None or tuple of ints): Output lengths. ``None`` picks the
            lengths whose pooling gives the input's; given lengths must pool
            to them.
        cover_all (bool): Whether the pooling this inverts covered all of
            its input.

    Returns:
        Variable: Output of shape ``(n, c, out_1, ..., out_N)`` and the
        dtype of ``x``.

    Raises:
        ValueError: If ``ksize`` or ``stride`` is not a positive int (or
            ``N`` of them), or ``pad`` is not a non-negative one.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[[1, 2]]], np.float32)
        >>> F.unpooling_nd(x, 2, cover_all=False).array
        array([[[1., 1., 2., 2.]]], dtype=float32)

    """
    func = UnpoolingND(len(x.shape) - 2, ksize, stride, pad, outsize, cover_all)
    return func.apply((x,))[0]


def unpooling_1d(
    x: Variable | NdArray, ksize, stride=None, pad=0, outsize=None, cover_all=True
) -> Variable:
    """1-dimensional unpooling: :func:`unpooling_nd` of 3-d inputs.

    Raises:
        ValueError: If ``x`` is not of shape ``(n, c, d)``.

    """
    convolution_nd.check_spatial_ndim(x, 1, 'unpooling_1d')
    return unpooling_nd(x, ksize, stride, pad, outsize, cover_all)


def unpooling_3d(
    x: Variable | NdArray, ksize, stride=None, pad=0, outsize=None, cover_all=True
) -> Variable:
    """3-dimensional unpooling: :func:`unpooling_nd` of 5-d inputs.

    Raises:
        ValueError: If ``x`` is not of shape ``(n, c, d_1, d_2, d_3)``.

    """
    convolution_nd.check_spatial_ndim(x, 3, 'unpooling_3d')
    return unpooling_nd(x, ksize, stride, pad, outsize, cover_all)
