"""Padding of an array."""

from __future__ import annotations

import numpy
import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite.functions.array import get_item
from chainerlite.functions.array import reshape
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable

# Modes whose padded values are copies of input elements; the gradient of
# such a value goes back to the element it copies.
_COPY_MODES = ('edge', 'reflect', 'symmetric', 'wrap')


class Pad(function_node.FunctionNode):
    """Padding of an array."""

    def __init__(self, pad_width, mode='constant', **keywords):
        if mode != 'constant' and mode not in _COPY_MODES:
            raise NotImplementedError(
                'pad: mode={!r} is not supported (use constant, {})'.format(
                    mode, ', '.join(_COPY_MODES)
                )
            )
        if keywords.get('reflect_type', 'even') != 'even':
            raise NotImplementedError(
                "pad: reflect_type={!r} is not supported (only 'even')".format(
                    keywords['reflect_type']
                )
            )
        self.pad_width = pad_width
        self.mode = mode
        self.keywords = keywords

    check_type_forward = type_check.declare_kinds(x='f')

    def forward(self, inputs):
        (x,) = inputs
        xp = backend.get_array_module(x)
        self._in_shape = x.shape
        if self.mode == 'constant' or xp is numpy:
            return (xp.pad(x, self.pad_width, mode=self.mode, **self.keywords),)
        # cupy.pad departs from numpy.pad in places (wrap mode with a width
        # larger than the axis); gathering by NumPy's positions does not.
        return (x.ravel()[xp.asarray(self._copied_positions())],)

    def _copied_positions(self):
        # The flat input position that every output element copies.
        size = utils.size_of_shape(self._in_shape)
        return numpy.pad(
            numpy.arange(size).reshape(self._in_shape),
            self.pad_width,
            mode=self.mode,
            **self.keywords,
        )

    def backward(self, indexes, grad_outputs):
        (gy,) = grad_outputs
        if self.mode == 'constant':
            widths = numpy.broadcast_to(
                numpy.asarray(self.pad_width), (len(self._in_shape), 2)
            )
            inside = tuple(
                slice(int(before), int(before) + size)
                for (before, _), size in zip(widths, self._in_shape)
            )
            return (get_item.get_item(gy, inside),)
        size = utils.size_of_shape(self._in_shape)
        positions = self._copied_positions().ravel()
        xp = backend.get_array_module(gy)
        gy_flat = reshape.reshape(gy, (utils.size_of_shape(gy.shape),))
        gx = get_item.GetItemGrad((xp.asarray(positions),), (size,)).apply((gy_flat,))[
            0
        ]
        return (reshape.reshape(gx, self._in_shape),)


def pad(x: Variable | NdArray, pad_width, mode='constant', **keywords) -> Variable:
    """Pads an array.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.
        pad_width (int or array-like): Number of values padded before and
            after each axis, as in :func:`numpy.pad`: an int, a
            ``(before, after)`` pair, or one pair per axis.
        mode (str): How the border is filled: ``'constant'`` (the default)
            fills with ``constant_values``; ``'edge'``, ``'reflect'``,
            ``'symmetric'`` and ``'wrap'`` copy input elements as
            :func:`numpy.pad` does, and their gradients flow back to the
            copied elements.
        **keywords: Passed to :func:`numpy.pad` / :func:`cupy.pad`:
            ``constant_values`` (int or array-like) in the constant mode;
            ``reflect_type`` may only be ``'even'``.

    Returns:
        Variable: The padded output variable.

    Raises:
        NotImplementedError: For another ``mode``, or for
            ``reflect_type='odd'``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[1, 2], [3, 4]], np.float32)
        >>> F.pad(x, 1).array
        array([[0., 0., 0., 0.],
               [0., 1., 2., 0.],
               [0., 3., 4., 0.],
               [0., 0., 0., 0.]], dtype=float32)
        >>> F.pad(x, ((0, 0), (1, 2)), 'constant', constant_values=-1).array
        array([[-1.,  1.,  2., -1., -1.],
               [-1.,  3.,  4., -1., -1.]], dtype=float32)
        >>> F.pad(x, (0, 1), 'edge').array
        array([[1., 2., 2.],
               [3., 4., 4.],
               [3., 4., 4.]], dtype=float32)

    """
    return Pad(pad_width, mode, **keywords).apply((x,))[0]
