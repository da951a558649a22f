"""Out-of-place scatter-add of values into an array."""

from __future__ import annotations

import numpy
import typing

from chainerlite import function_node
from chainerlite.functions.array import cast
from chainerlite.functions.array import get_item
from chainerlite.functions.array import sum_to
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class ScatterAdd(function_node.FunctionNode):
    """Addition of values into indexed positions of a copy of an array."""

    def __init__(self, slices):
        self.slices = get_item._normalize_slices(slices)

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('a', 'b'))
        a_type, b_type = in_types
        # b may have another dtype of the same kind (as in Chainer, it is
        # added in and the output has a's dtype)
        type_check.expect(a_type.dtype.kind == b_type.dtype.kind)
        # Each index other than None and Ellipsis takes one axis (a boolean
        # mask as many as it has).
        n_axes = sum(
            numpy.ndim(s) if getattr(s, 'dtype', None) == numpy.bool_ else 1
            for s in self.slices
            if s is not None and s is not Ellipsis
        )
        type_check.expect(
            a_type.ndim >= type_check.make_variable(n_axes, 'number of indexed axes')
        )

    def forward(self, inputs):
        a, b = inputs
        self._b_shape = b.shape
        y = a.copy()
        get_item.add_at(y, self.slices, b)
        return (y,)

    def backward(self, indexes, grad_outputs):
        (gy,) = grad_outputs
        gb = sum_to.sum_to(get_item.get_item(gy, self.slices), self._b_shape)
        return gy, cast.as_dtype(gb, self.inputs[1].dtype)


def scatter_add(a: Variable | NdArray, slices, b: Variable | NdArray) -> Variable:
    """Adds values into the indexed positions of a copy of an array.

    The output is ``a`` with ``b`` added at ``a[slices]``; positions that
    ``slices`` selects several times (integer array indices) get each of
    their values added, as :func:`numpy.add.at` does. ``a`` is left
    unchanged.

    Args:
        a (Variable or numpy.ndarray or cupy.ndarray): The base array.
        slices (int, slice, Ellipsis, None, integer array-like, boolean
            array-like or tuple of them): The positions, as in
            :func:`get_item`.
        b (Variable or numpy.ndarray or cupy.ndarray): The values to add,
            of the dtype of ``a`` and broadcastable to the shape of
            ``a[slices]``.

    Returns:
        Variable: Output variable of the shape and dtype of ``a``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> a = np.zeros((2, 3), np.float32)
        >>> b = np.array([1, 2, 3], np.float32)
        >>> F.scatter_add(a, ([0, 1, 1], [0, 2, 2]), b).array
        array([[1., 0., 0.],
               [0., 0., 5.]], dtype=float32)

    """
    return ScatterAdd(slices).apply((a, b))[0]
