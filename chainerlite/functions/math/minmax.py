"""Maximum and minimum of array elements, and their indices."""

from __future__ import annotations

import numpy
import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite.functions.math import sum as sum_mod
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class SelectorBase(function_node.FunctionNode):
    """Selection of one value of array elements over given axes.

    The gradient flows to every element equal to the selected value, so
    each of several tied elements receives the whole output gradient.
    """

    def __init__(self, axis=None, keepdims=False):
        self.axis = sum_mod._normalize_axis(axis)
        self.keepdims = keepdims

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        (x_type,) = in_types
        type_check.expect(x_type.dtype.kind == 'f')
        sum_mod._check_axis(x_type, self.axis)

    def _select(self, xp, x):
        raise NotImplementedError

    def forward(self, inputs):
        (x,) = inputs
        xp = backend.get_array_module(x)
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        y = self._select(xp, x)
        return (utils.force_array(y, x.dtype),)

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        y = self.get_retained_outputs()[0].array
        if self.axis is not None and not self.keepdims:
            shape = list(x.shape)
            for a in self.axis:
                shape[a] = 1
            y = y.reshape(shape)
        selected = (x.array == y).astype(x.dtype)
        gy = sum_mod._unreduce(grad_outputs[0], self.axis, x.shape, self.keepdims)
        return (gy * selected,)


class Max(SelectorBase):
    """Maximum of array elements over given axes."""

    def _select(self, xp, x):
        return xp.amax(x, axis=self.axis, keepdims=self.keepdims)


class Min(SelectorBase):
    """Minimum of array elements over given axes."""

    def _select(self, xp, x):
        return xp.amin(x, axis=self.axis, keepdims=self.keepdims)


class IndexSelectorBase(function_node.FunctionNode):
    """Index of a selected element over an axis; not differentiable."""

    def __init__(self, axis=None):
        if axis is not None and not isinstance(axis, int):
            raise TypeError('None or int are required')
        self.axis = axis

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        (x_type,) = in_types
        type_check.expect(x_type.dtype.kind == 'f')
        if self.axis is not None:
            sum_mod._check_axis(x_type, (self.axis,))

    def _select(self, xp, x):
        raise NotImplementedError

    def forward(self, inputs):
        (x,) = inputs
        xp = backend.get_array_module(x)
        return (utils.force_array(self._select(xp, x), numpy.int32),)

    def backward(self, indexes, grad_outputs):
        return (None,)


class ArgMax(IndexSelectorBase):
    """Index of the maximum of array elements over an axis."""

    def _select(self, xp, x):
        return xp.argmax(x, axis=self.axis)


class ArgMin(IndexSelectorBase):
    """Index of the minimum of array elements over an axis."""

    def _select(self, xp, x):
        return xp.argmin(x, axis=self.axis)


def max(x: Variable | NdArray, axis=None, keepdims=False) -> Variable:
    """Maximum of array elements over given axes.

    Where several elements are equal to the maximum, each of them receives
    the whole gradient of the output.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.
        axis (None, int or tuple of int): Axes along which the maximum is
            taken. ``None`` takes it over all the elements.
        keepdims (bool): If ``True``, the reduced axes are kept with size
            one.

    Returns:
        Variable: Output variable with the dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[1, 5, 2], [4, 0, 3]], np.float32)
        >>> F.max(x).array
        array(5., dtype=float32)
        >>> F.max(x, axis=1).array
        array([5., 4.], dtype=float32)

    """
    return Max(axis, keepdims).apply((x,))[0]


def min(x: Variable | NdArray, axis=None, keepdims=False) -> Variable:
    """Minimum of array elements over given axes.

    Where several elements are equal to the minimum, each of them receives
    the whole gradient of the output.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.
        axis (None, int or tuple of int): Axes along which the minimum is
            taken. ``None`` takes it over all the elements.
        keepdims (bool): If ``True``, the reduced axes are kept with size
            one.

    Returns:
        Variable: Output variable with the dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[1, 5, 2], [4, 0, 3]], np.float32)
        >>> F.min(x, axis=0, keepdims=True).array
        array([[1., 0., 2.]], dtype=float32)

    """
    return Min(axis, keepdims).apply((x,))[0]


def argmax(x: Variable | NdArray, axis=None) -> Variable:
    """Index of the maximum of array elements over an axis.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.
        axis (None or int): The axis to search. ``None`` searches the
            flattened array.

    Returns:
        Variable: Indices of dtype ``int32`` (the first one where the
        maximum occurs several times). No gradient flows through it.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[1, 5, 2], [4, 0, 3]], np.float32)
        >>> F.argmax(x).array
        array(1, dtype=int32)
        >>> F.argmax(x, axis=1).array
        array([1, 0], dtype=int32)

    """
    return ArgMax(axis).apply((x,))[0]


def argmin(x: Variable | NdArray, axis=None) -> Variable:
    """Index of the minimum of array elements over an axis.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.
        axis (None or int): The axis to search. ``None`` searches the
            flattened array.

    Returns:
        Variable: Indices of dtype ``int32`` (the first one where the
        minimum occurs several times). No gradient flows through it.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[1, 5, 2], [4, 0, 3]], np.float32)
        >>> F.argmin(x, axis=0).array
        array([0, 1, 0], dtype=int32)

    """
    return ArgMin(axis).apply((x,))[0]
