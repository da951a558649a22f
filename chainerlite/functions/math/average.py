"""Mean and weighted average of array elements over given axes."""

from __future__ import annotations

import typing

import numpy

import chainerlite
from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite.functions.array import broadcast
from chainerlite.functions.array import reshape
from chainerlite.functions.math import sum as sum_mod
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class Mean(function_node.FunctionNode):
    """Mean of array elements over given axes."""

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
        self._in_shape = x.shape
        count = (
            x.size
            if self.axis is None
            else utils.size_of_shape([x.shape[a] for a in self.axis])
        )
        if count == 0:
            # Chainer 7.8.1 raises this (NumPy would give NaN)
            raise ZeroDivisionError(
                'mean: no element to average over axis {} of an array of '
                'shape {}'.format(self.axis, x.shape)
            )
        self.multiplier = 1.0 / count  # Chainer's attribute name
        y = xp.mean(x, axis=self.axis, keepdims=self.keepdims)
        return (utils.force_array(y, x.dtype),)

    def backward(self, indexes, grad_outputs):
        (gy,) = grad_outputs
        gx = sum_mod._unreduce(gy, self.axis, self._in_shape, self.keepdims)
        return (gx * self.multiplier,)


def mean(x: Variable | NdArray, axis=None, keepdims=False) -> Variable:
    """Arithmetic mean of array elements over given axes.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.
        axis (None, int or tuple of int): Axes along which the mean is
            taken. ``None`` takes the mean of all the elements.
        keepdims (bool): If ``True``, the reduced axes are kept with size
            one.

    Returns:
        Variable: Output variable with the dtype of ``x``.

    Raises:
        ZeroDivisionError: If the axes averaged over have no element (as in
            Chainer 7.8.1, where NumPy would give NaN).

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.arange(6, dtype=np.float32).reshape(2, 3)
        >>> F.mean(x).array
        array(2.5, dtype=float32)
        >>> F.mean(x, axis=1).array
        array([1., 4.], dtype=float32)

    """
    return Mean(axis, keepdims).apply((x,))[0]


def _weights_error(expect, actual, cls=type_check.InvalidType):
    return cls(
        expect,
        actual,
        '\nInvalid operation is performed in: average (Forward)\n\n'
        'Expect: {}\nActual: {}'.format(expect, actual),
    )


def _check_weights(x, weights, axis):
    if weights.dtype != x.dtype:
        raise _weights_error(
            'weights.dtype == x.dtype', '{} != {}'.format(weights.dtype, x.dtype)
        )
    if axis is None:
        # Weights of another shape broadcast with x, as in Chainer, where the
        # result is still their weighted average: where no weight is
        # repeated (x may be). Repeated weights would be counted once in the
        # divider but several times in the sum.
        try:
            shape = numpy.broadcast_shapes(x.shape, weights.shape)
        except ValueError:
            shape = None
        if shape is None or utils.size_of_shape(shape) != weights.size:
            raise _weights_error(
                'weights.shape == x.shape',
                '{} != {}'.format(weights.shape, x.shape),
                # NumPy's ValueError in Chainer where they do not broadcast
                type_check.InvalidTypeValueError
                if shape is None
                else type_check.InvalidType,
            )
        return
    if axis == ():
        # Averaging over no axis weighs each element by the one weight.
        if weights.size != 1:
            raise _weights_error('weights.size == 1', '{} != 1'.format(weights.size))
        return
    (axis,) = axis
    if not -x.ndim <= axis < x.ndim:
        raise _weights_error(
            '-x.ndim <= axis < x.ndim',
            '{} not in [{}, {})'.format(axis, -x.ndim, x.ndim),
        )
    # any shape of that many weights (Chainer reshapes them)
    if weights.size != x.shape[axis]:
        raise _weights_error(
            'weights.size == x.shape[axis]',
            '{} != {}'.format(weights.size, x.shape[axis]),
        )


def average(x: Variable | NdArray, axis=None, weights=None, keepdims=False) -> Variable:
    """Weighted average of array elements over given axes.

    .. math::
        y = \\frac{\\sum_i w_i x_i}{\\sum_i w_i}

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.
        axis (None, int or tuple of int): Axes along which the average is
            taken. ``None`` averages all the elements. With ``weights``, a
            tuple may name one axis at most; the empty tuple averages over
            no axis, scaling each element by the one weight over itself.
        weights (None or Variable or numpy.ndarray or cupy.ndarray): The
            weights, of the dtype of ``x``. ``None`` weighs every element
            by one (the plain mean). With ``axis=None`` they have the shape
            of ``x``, or one it broadcasts to (``x`` is then repeated, as
            in Chainer; weights that would be repeated are refused); with
            an int ``axis`` they are ``x.shape[axis]`` weights, of any shape
            of that size; with ``axis=()``, a single weight of any shape.
            Gradients flow into them too.
        keepdims (bool): If ``True``, the reduced axes are kept with size
            one.

    Returns:
        Variable: Output variable with the dtype of ``x``.

    Raises:
        ValueError: If ``axis`` has duplicates, or names several axes while
            ``weights`` is given.
        ~chainerlite.utils.type_check.InvalidType: If ``weights`` has the
            wrong shape or dtype (also a ``ValueError`` where the shapes do
            not broadcast).
        ZeroDivisionError: If there is no weight and the axes averaged over
            have no element (as :func:`mean`).

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[1, 2], [3, 4]], np.float32)
        >>> F.average(x, axis=1).array
        array([1.5, 3.5], dtype=float32)
        >>> w = np.array([3, 1], np.float32)
        >>> F.average(x, axis=1, weights=w).array
        array([1.25, 3.25], dtype=float32)

    """
    if weights is None:
        return mean(x, axis, keepdims)
    axis = sum_mod._normalize_axis(axis)
    if axis is not None and len(axis) > 1:
        raise ValueError('tuple axis is not supported when weights is given')
    _check_weights(x, weights, axis)
    divider = sum_mod.sum(weights)
    if axis is not None:
        shape = [1] * x.ndim
        for a in axis:
            shape[a % x.ndim] = x.shape[a]
        weights = broadcast.broadcast_to(
            reshape.reshape(weights, tuple(shape)), x.shape
        )
    total = sum_mod.sum(chainerlite.as_variable(x) * weights, axis, keepdims)
    return total / broadcast.broadcast_to(divider, total.shape)
