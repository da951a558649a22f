"""Product of array elements over given axes."""

from __future__ import annotations

import math
import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite.functions.array import concat
from chainerlite.functions.array import expand_dims
from chainerlite.functions.array import flip
from chainerlite.functions.array import reshape
from chainerlite.functions.array import split_axis
from chainerlite.functions.array import transpose
from chainerlite.functions.math import cumprod
from chainerlite.functions.math import sum as sum_mod
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class Prod(function_node.FunctionNode):
    """Product of array elements over given axes."""

    def __init__(self, axis=None, keepdims=False):
        self.axis = sum_mod._normalize_axis(axis)
        self.keepdims = keepdims

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        (x_type,) = in_types
        type_check.expect(x_type.dtype.kind == 'f')
        sum_mod._check_axis(x_type, self.axis)

    def forward(self, inputs):
        (x,) = inputs
        xp = backend.get_array_module(x)
        self.retain_inputs((0,))
        y = xp.prod(x, axis=self.axis, keepdims=self.keepdims)
        return (utils.force_array(y, x.dtype),)

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        # the reduced axes in the order given: it orders the products
        axes = tuple(range(x.ndim)) if self.axis is None else self.axis
        axes = tuple(a % x.ndim for a in axes)
        (gy,) = grad_outputs
        if not self.keepdims:
            for axis in sorted(axes):
                gy = expand_dims.expand_dims(gy, axis)
        # the product broadcasts gy, as Chainer's nodes (which hooks see) do
        return (_product_of_others(x, axes) * gy,)


def _product_of_others(x, axes):
    # For each element, the product of the other elements of its slice along
    # ``axes``: the reduced axes are moved to the front, in their order, and
    # merged into one, along which the products before and after each
    # element are cumulative products (no division, so zeros are exact; the
    # graph is differentiable, its derivatives those of the cumulative
    # products, NaN and infinity included, as Chainer 7.8.1's).
    kept = tuple(a for a in range(x.ndim) if a not in axes)
    order = axes + kept
    moved = transpose.transpose(x, order)
    n = math.prod(moved.shape[: len(axes)])
    merged = reshape.reshape(moved, (n,) + moved.shape[len(axes) :])
    before = _products_before(merged)
    after = flip.flip(_products_before(flip.flip(merged, 0)), 0)
    others = reshape.reshape(before * after, moved.shape)
    inverse = tuple(order.index(a) for a in range(x.ndim))
    return transpose.transpose(others, inverse)


def _products_before(x):
    # Along axis 0, the product of the elements before each one (1 for the
    # first): the cumulative product of 1 and all elements but the last.
    xp = backend.get_array_module(x)
    ones = xp.ones((1,) + x.shape[1:], x.dtype)
    # all but the last row by SplitAxis, the node of Chainer's (hooks see it)
    shifted = split_axis.split_axis(concat.concat((ones, x), 0), (-1,), 0)[0]
    return cumprod.cumprod(shifted, 0)


def prod(x: Variable | NdArray, axis=None, keepdims=False) -> Variable:
    """Product of array elements over given axes.

    Zeros in ``x`` are handled exactly: the gradient of an element is the
    product of the other elements of its slice, computed without division
    (cumulative products from both ends, differentiable to any order).

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.
        axis (None, int or tuple of int): Axes along which the product is
            taken. ``None`` multiplies all the elements.
        keepdims (bool): If ``True``, the reduced axes are kept with size
            one.

    Returns:
        Variable: Output variable with the dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[1, 2, 3], [4, 5, 6]], np.float32)
        >>> F.prod(x).array
        array(720., dtype=float32)
        >>> F.prod(x, axis=0).array
        array([ 4., 10., 18.], dtype=float32)

    """
    return Prod(axis, keepdims).apply((x,))[0]
