"""Elementwise product with a variable broadcast along given axes."""

from __future__ import annotations

import typing

from chainerlite.functions.math import _axis_broadcast

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


def scale(x: Variable | NdArray, y: Variable | NdArray, axis=1) -> Variable:
    """Elementwise product with broadcasting.

    ``x`` is multiplied by ``y`` after ``y`` is broadcast to the shape of
    ``x``: the axes of ``y`` line up with the axes of ``x`` starting at
    ``axis`` (this is the broadcasting of Caffe's scale layer, which differs
    from NumPy's). For example::

           x : 100 x 3 x 40 x 5 x 6
           y : 3 x 40
        axis : 1

    is the NumPy broadcasting of::

        x : 100 x 3 x 40 x 5 x 6
        y :   1 x 3 x 40 x 1 x 1

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input variable.
        y (Variable or numpy.ndarray or cupy.ndarray): Variable multiplied
            with ``x``; its shape must equal
            ``x.shape[axis:axis + y.ndim]``.
        axis (int): The first axis of ``x`` along which ``y`` is applied.

    Returns:
        Variable: Output variable with the shape of ``x``.

    Raises:
        chainerlite.utils.type_check.InvalidType: If ``y`` cannot be
            broadcast to ``x``; in debug mode (:func:`chainerlite.is_debug`)
            also if its shape differs from ``x.shape[axis:axis + y.ndim]``
            even though broadcasting would succeed.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.ones((2, 3, 2), np.float32)
        >>> y = np.array([1., 2., 3.], np.float32)
        >>> F.scale(x, y).array[0]
        array([[1., 1.],
               [2., 2.],
               [3., 3.]], dtype=float32)

    """
    return x * _axis_broadcast.broadcast_along(x, y, axis, 'scale')
