"""Binary classification accuracy."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class BinaryAccuracy(function_node.FunctionNode):
    """Binary classification accuracy (no gradient); labels equal to
    ``ignore_label`` are not counted."""

    ignore_label = -1

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('y', 't'))
        y_type, t_type = in_types
        type_check.expect(
            y_type.dtype.kind == 'f',
            t_type.dtype.kind == 'i',
            t_type.shape == y_type.shape,
        )

    def forward(self, inputs):
        y, t = inputs
        # Both inputs kept, as Chainer's (an old-style Function) keeps them.
        self.retain_inputs((0, 1))
        xp = backend.get_array_module(y)
        correct = int(((y >= 0) == t).sum())
        counted = max(int((t != self.ignore_label).sum()), 1)
        return (xp.asarray(correct / counted, y.dtype),)


def binary_accuracy(y: Variable | NdArray, t: Variable | NdArray) -> Variable:
    """Computes the accuracy of binary classifications.

    An element is predicted positive when its score is non-negative. Labels
    equal to ``-1`` are ignored: they count neither as correct nor in the
    total (an all-ignored input has accuracy ``0``).

    Args:
        y (Variable or numpy.ndarray or cupy.ndarray): Scores (logits) of a
            floating point dtype.
        t (Variable or numpy.ndarray or cupy.ndarray): Signed integer labels
            (``0``, ``1`` or ``-1``) of the shape of ``y``.

    Returns:
        Variable: A scalar holding the fraction of correct predictions, of
        the dtype of ``y``. It has no gradient.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> y = np.array([[-1., 2.], [0.5, -3.]], np.float32)
        >>> t = np.array([[0, 1], [0, -1]], np.int32)
        >>> float(F.binary_accuracy(y, t).array)
        0.6666666865348816

    """
    return BinaryAccuracy().apply((y, t))[0]
