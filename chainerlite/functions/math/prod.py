"""Product of array elements over given axes."""

from __future__ import annotations

import math
import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite.functions.array import broadcast
from chainerlite.functions.array import reshape
from chainerlite.functions.array import transpose
from chainerlite.functions.array import where
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
        gy = sum_mod._unreduce(grad_outputs[0], self.axis, x.shape, self.keepdims)
        if self.axis is None:
            axes = tuple(range(x.ndim))
        else:
            axes = tuple(sorted(a % x.ndim for a in self.axis))
        return (gy * _product_of_others(x, axes),)


def _product_of_others(x, axes):
    # For each element, the product of the other elements of its slice along
    # ``axes`` (sorted, non-negative): the reduced axes are moved to the end
    # and merged into one.
    if len(axes) == 1:
        return ProductOfOthers(axes[0]).apply((x,))[0]
    kept = tuple(a for a in range(x.ndim) if a not in axes)
    order = kept + axes
    moved = transpose.transpose(x, order)
    # The merged length is spelled out: -1 cannot be inferred with a zero.
    merged_shape = moved.shape[: len(kept)] + (math.prod(moved.shape[len(kept) :]),)
    others = ProductOfOthers(len(kept)).apply((reshape.reshape(moved, merged_shape),))[
        0
    ]
    others = reshape.reshape(others, moved.shape)
    inverse = tuple(order.index(a) for a in range(x.ndim))
    return transpose.transpose(others, inverse)


class ProductOfOthers(function_node.FunctionNode):
    """Product of the other elements along an axis, for each element.

    ``y[..., i, ...]`` is the product of ``x[..., k, ...]`` over ``k != i``
    along ``axis``, computed without division, so zeros are exact. It is the
    gradient of :class:`Prod`.

    Args:
        axis (int): The non-negative axis.

    """

    def __init__(self, axis):
        self.axis = axis

    def forward(self, inputs):
        (x,) = inputs
        xp = backend.get_array_module(x)
        self.retain_inputs((0,))
        axis = self.axis
        head = (slice(None),) * axis
        before = xp.ones_like(x)
        before[head + (slice(1, None),)] = xp.cumprod(x, axis=axis)[
            head + (slice(None, -1),)
        ]
        after = xp.ones_like(x)
        after[head + (slice(None, -1),)] = xp.flip(
            xp.cumprod(xp.flip(x, axis), axis=axis), axis
        )[head + (slice(1, None),)]
        return (before * after,)

    def backward(self, indexes, grad_outputs):
        # d y_i / d x_j (j != i) is the product over k not in {i, j}. With
        # z[j, i] = x_i for i != j and 1 for i == j along a new axis, that is
        # the product of the others of z[j] at i.
        (x,) = self.get_retained_inputs()
        (g,) = grad_outputs
        xp = backend.get_array_module(x)
        axis = self.axis
        n = x.shape[axis]
        pair_shape = x.shape[:axis] + (n,) + x.shape[axis:]
        diagonal = xp.broadcast_to(
            xp.eye(n, dtype=bool).reshape(
                (1,) * axis + (n, n) + (1,) * (x.ndim - axis - 1)
            ),
            pair_shape,
        )
        spread = broadcast.broadcast_to(
            reshape.reshape(x, x.shape[:axis] + (1,) + x.shape[axis:]), pair_shape
        )
        # selected, not multiplied by 0 and 1: an infinite x stays infinite
        # there (inf * 0 would be NaN), as Chainer's cumulative products keep it
        ones = xp.ones(pair_shape, x.dtype)
        z = where.where(diagonal, ones, spread)
        others = ProductOfOthers(axis + 1).apply((z,))[0]
        g = reshape.reshape(g, x.shape[:axis] + (1,) + x.shape[axis:])
        terms = where.where(diagonal, ones * 0, others * g)
        return (sum_mod.sum(terms, axis=axis + 1),)


def prod(x: Variable | NdArray, axis=None, keepdims=False) -> Variable:
    """Product of array elements over given axes.

    Zeros in ``x`` are handled exactly: the gradient of an element is the
    product of the other elements of its slice, computed without division.
    Gradients of second and higher order take memory that grows with the
    square of the number of elements reduced into each output element.

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
