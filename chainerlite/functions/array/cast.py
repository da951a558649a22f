"""Conversion of an array to another dtype."""

from __future__ import annotations

import numpy
import typing

import chainerlite
from chainerlite import function_node
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class Cast(function_node.FunctionNode):
    """Conversion of an array to another dtype."""

    def __init__(self, typ):
        self.type = numpy.dtype(typ)

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))

    def forward(self, inputs):
        (x,) = inputs
        self._in_type = x.dtype
        return (x.astype(self.type, copy=False),)

    def backward(self, indexes, grad_outputs):
        if self._in_type.kind != 'f':
            return (None,)
        return (cast(grad_outputs[0], self._in_type),)


def cast(x: Variable | NdArray, typ) -> Variable:
    """Converts an array to another dtype.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input variable.
        typ (str or numpy.dtype): The dtype to convert to.

    Returns:
        Variable: Output variable of dtype ``typ``. When ``x`` already has
        that dtype and backprop is disabled, ``x`` itself is returned as a
        variable. The gradient is converted back to the dtype of ``x``;
        inputs that are not floating point get no gradient.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.arange(3, dtype=np.float64)
        >>> F.cast(x, np.float32).dtype
        dtype('float32')
        >>> F.cast(x, 'float16').dtype
        dtype('float16')

    """
    if x.dtype == typ and not chainerlite.config.enable_backprop:
        return chainerlite.as_variable(x)
    return Cast(typ).apply((x,))[0]


def as_dtype(x, dtype):
    """``x`` itself where it already has ``dtype``, else :func:`cast` to it
    (so a gradient through it comes back in the dtype of ``x``)."""
    return x if x.dtype == dtype else cast(x, dtype)
