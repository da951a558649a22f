"""Classification accuracy."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class Accuracy(function_node.FunctionNode):
    """Classification accuracy (no gradient)."""

    def __init__(self, ignore_label=None):
        self.ignore_label = ignore_label

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('y', 't'))
        y_type, t_type = in_types
        type_check.expect(y_type.dtype.kind == 'f', t_type.dtype.kind == 'i')
        t_ndim = type_check.eval(t_type.ndim)
        type_check.expect(
            y_type.ndim >= t_type.ndim,
            y_type.shape[0] == t_type.shape[0],
            y_type.shape[2 : t_ndim + 1] == t_type.shape[1:],
        )
        for i in range(t_ndim + 1, type_check.eval(y_type.ndim)):
            type_check.expect(y_type.shape[i] == 1)

    def forward(self, inputs):
        y, t = inputs
        xp = backend.get_array_module(y)
        correct = y.argmax(axis=1).reshape(t.shape) == t
        if self.ignore_label is None:
            counted = t.size
        else:
            used = t != self.ignore_label
            correct &= used
            counted = int(used.sum())
        if counted == 0:
            return (xp.zeros((), y.dtype),)
        return (xp.asarray(int(correct.sum()) / counted, y.dtype),)


def accuracy(
    y: Variable | NdArray, t: Variable | NdArray, ignore_label=None
) -> Variable:
    """Computes the accuracy of a multi-class classification.

    The class predicted for a sample is the index of the largest score along
    the second axis of ``y``.

    Args:
        y (Variable or numpy.ndarray or cupy.ndarray): Scores of shape
            ``(N, C, d_1, ..., d_k)`` and a floating point dtype; trailing
            axes beyond those of ``t`` must have size one.
        t (Variable or numpy.ndarray or cupy.ndarray): Signed integer labels
            of shape ``(N, d_1, ..., d_k)``.
        ignore_label (int or None): Samples whose label is ``ignore_label``
            count neither as correct nor in the total. If every sample is
            ignored the accuracy is ``0``.

    Returns:
        Variable: A scalar holding the fraction of correct predictions, of
        the dtype of ``y``. It has no gradient.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> y = np.array([[0.1, 0.7, 0.2], [8., 1., 2.], [-8., 1., 2.],
        ...               [0., 0., 1.]], np.float32)
        >>> t = np.array([1, 0, 0, -1], np.int32)
        >>> F.accuracy(y, t).array
        array(0.5, dtype=float32)
        >>> float(F.accuracy(y, t, ignore_label=-1).array)
        0.6666666865348816

    """
    return Accuracy(ignore_label=ignore_label).apply((y, t))[0]
