"""Determinant of a square matrix and of a batch of square matrices."""

from __future__ import annotations

import numpy
import typing

from chainerlite import backend
from chainerlite import utils
from chainerlite.functions.array import broadcast
from chainerlite.functions.array import reshape
from chainerlite.functions.math import inv

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class BatchDet(inv.SquareMatrices):
    """Determinants of a batch of square matrices."""

    @property
    def label(self):
        return 'det'  # Chainer's label

    _ndim = 3

    def forward(self, inputs):
        (a,) = inputs
        xp = backend.get_array_module(a)
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        # LAPACK has no half precision: float16 is factorised in float32.
        work = a.astype(numpy.float32) if a.dtype == numpy.float16 else a
        return (utils.force_array(xp.linalg.det(work), a.dtype),)

    def backward(self, indexes, grad_outputs):
        # d det(A) = det(A) tr(A^-1 dA), so gA = gy det(A) A^-T; a singular
        # A has no such form and raises ValueError from the inverse.
        (a,) = self.get_retained_inputs()
        (y,) = self.get_retained_outputs()
        (gy,) = grad_outputs
        # the nodes of Chainer's backward, which hooks see
        a_inv_t = inv.batch_inv(inv.matrix_transpose(a))
        gy = broadcast.broadcast_to(gy[:, None, None], a.shape)
        y = broadcast.broadcast_to(y[:, None, None], a.shape)
        return (gy * y * a_inv_t,)


def det(a: Variable | NdArray) -> Variable:
    """Computes the determinant of a square matrix.

    Args:
        a (Variable or numpy.ndarray or cupy.ndarray): Input of shape
            ``(n, n)`` and a floating point dtype.

    Returns:
        Variable: The determinant, a 0-dimensional array of ``a``'s dtype.
        Its gradient does not exist where the determinant is zero: the
        backward pass raises ``ValueError`` there.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> a = np.array([[1, 2], [3, 4]], np.float32)
        >>> float(F.det(a).array)
        -2.0

    """
    # As Chainer: a batch of one matrix through BatchDet, between two
    # reshapes (so the last node, a reshape, retains nothing).
    batched = reshape.reshape(a, (1, a.shape[0], a.shape[1]))
    return reshape.reshape(BatchDet().apply((batched,))[0], ())


def batch_det(a: Variable | NdArray) -> Variable:
    """Computes the determinants of a batch of square matrices.

    Args:
        a (Variable or numpy.ndarray or cupy.ndarray): Input of shape
            ``(batch, n, n)`` and a floating point dtype.

    Returns:
        Variable: The determinants, of shape ``(batch,)`` and ``a``'s dtype.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> a = np.array([[[1, 2], [3, 4]], [[2, 0], [0, 3]]], np.float32)
        >>> F.batch_det(a).array
        array([-2.,  6.], dtype=float32)

    """
    return BatchDet().apply((a,))[0]
