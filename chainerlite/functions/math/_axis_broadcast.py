"""Caffe-style broadcasting shared by bias and scale."""

import chainerlite
from chainerlite.functions.array import broadcast
from chainerlite.functions.array import reshape
from chainerlite.utils import type_check

# More axes than any NumPy array may have (32 before NumPy 2, 64 since).
_MAX_NDIM = 64


def broadcast_along(x, y, axis, function_name):
    """Broadcasts ``y`` to the shape of ``x``, its axes starting at ``axis``.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Array whose shape
            ``y`` is broadcast to.
        y (Variable or numpy.ndarray or cupy.ndarray): Array to broadcast.
        axis (int): The axis of ``x`` that the first axis of ``y`` lines up
            with.
        function_name (str): Name of the calling function, for the error.

    Returns:
        Variable: ``y`` broadcast to ``x.shape``.

    Raises:
        chainerlite.utils.type_check.InvalidType: In debug mode, when the
            shape of ``y`` differs from ``x.shape[axis:axis + y.ndim]``;
            also an ``AssertionError``, which Chainer 7.8.1 raises there.
        ValueError: If ``axis`` would make an array of more than 64 axes.
    """
    x_shape = tuple(x.shape)
    y_shape = tuple(y.shape)
    window = x_shape[axis : axis + len(y_shape)]
    if chainerlite.is_debug() and window != y_shape:
        expect = 'x.shape[axis:axis + y.ndim] == y.shape'
        actual = '{} != {}'.format(window, y_shape)
        raise type_check.InvalidTypeAssertionError(
            expect,
            actual,
            '\nInvalid operation is performed in: {} (Forward)\n\n'
            'Expect: {}\nActual: {}'.format(function_name, expect, actual),
        )
    trailing = len(x_shape) - axis - len(y_shape)
    if max(axis, trailing) > _MAX_NDIM:
        # refused before the tuple of ones is built: an axis of 2 ** 31
        # would take minutes and gigabytes (NumPy, and so Chainer 7.8.1,
        # refuses the reshape to so many axes with a ValueError)
        raise ValueError(
            '{}: axis {} is out of range for x of {} and y of {} axes'.format(
                function_name, axis, len(x_shape), len(y_shape)
            )
        )
    y_ones = (1,) * axis + y_shape + (1,) * trailing
    return broadcast.broadcast_to(reshape.reshape(y, y_ones), x_shape)
