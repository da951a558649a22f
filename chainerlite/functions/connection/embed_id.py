"""Lookup of embedding vectors by ID and the node of its gradient."""

from __future__ import annotations

import chainerlite
import numpy
import typing
from chainerlite import _array_memory
from chainerlite import backend
from chainerlite._kernels import scatter
from chainerlite import function_node
from chainerlite.functions.array import get_item
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class EmbedIDFunction(function_node.FunctionNode):
    """Lookup of the rows of an embedding matrix."""

    def __init__(self, ignore_label=None):
        self.ignore_label = ignore_label

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x', 'W'))
        x_type, w_type = in_types
        type_check.expect(x_type.dtype.kind == 'i', x_type.ndim >= 1)
        type_check.expect(w_type.dtype.kind == 'f', w_type.ndim == 2)

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, W = inputs
        self._w_shape = W.shape
        xp = backend.get_array_module(*inputs)
        if chainerlite.is_debug():
            valid = xp.logical_and(0 <= x, x < len(W))
            if self.ignore_label is not None:
                valid = xp.logical_or(valid, x == self.ignore_label)
            if not valid.all():
                raise ValueError(
                    'Each ID in `x` that is not ignored must satisfy `0 <= x < len(W)`'
                )
        if self.ignore_label is None:
            return (W[x],)
        mask = x == self.ignore_label
        y = W[xp.where(mask, 0, x)]
        return (xp.where(mask[..., None], W.dtype.type(0), y),)

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        gW = EmbedIDGrad(self._w_shape, self.ignore_label).apply((x, grad_outputs[0]))[
            0
        ]
        return None, gW


class EmbedIDGrad(function_node.FunctionNode):
    """Gradient of the embedding lookup with respect to the matrix.

    Args:
        w_shape (tuple of int): Shape of the embedding matrix.
        ignore_label (int or None): The ID whose rows get no gradient.

    """

    def __init__(self, w_shape, ignore_label=None):
        self.w_shape = w_shape
        self.ignore_label = ignore_label

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, gy = inputs
        xp = backend.get_array_module(*inputs)
        gW = _array_memory.zeros_to_add_into(xp, self.w_shape, gy.dtype)
        gy = gy.reshape(x.size, self.w_shape[1])  # (-1: ambiguous at width 0)
        x = x.ravel()
        if xp is numpy and scatter.add_rows(gW, x, gy, self.ignore_label) is not None:
            return (gW,)  # np.add.at's sums in one compiled pass
        if self.ignore_label is not None:
            keep = x != self.ignore_label
            x, gy = x[keep], gy[keep]
        get_item.add_at(gW, (x,), gy)
        return (gW,)

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        return None, embed_id(x, grad_outputs[0], self.ignore_label)


def embed_id(
    x: Variable | NdArray, W: Variable | NdArray, ignore_label=None
) -> Variable:
    """Efficient linear function for one-hot input.

    It looks up the rows of the matrix ``W`` at the IDs in ``x``; it is the
    linear function of the one-hot encoding of ``x`` with weight ``W.T``,
    without building the one-hot vectors.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Integer IDs of any
            shape (at least one dimension).
        W (Variable or numpy.ndarray or cupy.ndarray): Embedding matrix of
            shape ``(n_vocab, n_units)`` and a floating point dtype.
        ignore_label (int or None): IDs equal to it give zero vectors (and
            no gradient); ``None`` ignores nothing.

    Returns:
        Variable: Output of shape ``x.shape + (n_units,)`` and the dtype of
        ``W``.

    Raises:
        ValueError: In debug mode, if an ID that is not ignored lies outside
            ``[0, n_vocab)``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> W = np.array([[0, 0, 0], [1, 1, 1], [2, 2, 2]], np.float32)
        >>> x = np.array([2, 1], np.int32)
        >>> F.embed_id(x, W).array
        array([[2., 2., 2.],
               [1., 1., 1.]], dtype=float32)
        >>> F.embed_id(x, W, ignore_label=1).array
        array([[2., 2., 2.],
               [0., 0., 0.]], dtype=float32)

    """
    return EmbedIDFunction(ignore_label=ignore_label).apply((x, W))[0]
