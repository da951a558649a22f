"""Inverse of a square matrix and of a batch of square matrices."""

from __future__ import annotations

import numpy
import typing

from chainerlite import backend
from chainerlite import configuration
from chainerlite import function_node
from chainerlite import utils
from chainerlite.functions.array import transpose
from chainerlite.functions.math import matmul
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


def _invert(x, name):
    # LAPACK has no half precision: float16 is inverted in float32. A
    # singular input raises LinAlgError (a ValueError) on the CPU; on the GPU
    # the check costs a synchronisation, so it runs only in debug mode.
    xp = backend.get_array_module(x)
    work = x.astype(numpy.float32) if x.dtype == numpy.float16 else x
    try:
        y = xp.linalg.inv(work)
    except numpy.linalg.LinAlgError as e:
        raise numpy.linalg.LinAlgError(
            '{}: the input matrix is singular ({})'.format(name, e)
        )
    if xp is not numpy and configuration.config.debug:
        if not bool(xp.isfinite(y).all()):
            raise ValueError('{}: the input matrix is singular'.format(name))
    return utils.force_array(y, x.dtype)


def matrix_transpose(y):
    """Swaps the last two axes of ``y`` (differentiable)."""
    axes = tuple(range(y.ndim - 2)) + (y.ndim - 1, y.ndim - 2)
    return transpose.transpose(y, axes)


class SquareMatrices(function_node.FunctionNode):
    """Base of the functions of one square matrix (``_ndim == 2``) or of a
    batch of them (``_ndim == 3``)."""

    _ndim = None

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('a',))
        (a_type,) = in_types
        type_check.expect(a_type.dtype.kind == 'f', a_type.ndim == self._ndim)
        # a separate expect: the light-mode check indexes real shapes
        type_check.expect(a_type.shape[-1] == a_type.shape[-2])


class _InverseBase(SquareMatrices):
    _name = None

    def forward(self, inputs):
        (a,) = inputs
        self.retain_outputs((0,))
        return (_invert(a, self._name),)

    def backward(self, indexes, grad_outputs):
        # d(A^-1) = -A^-1 dA A^-1, so gA = -A^-T gY A^-T.
        (y,) = self.get_retained_outputs()
        (gy,) = grad_outputs
        # Chainer's nodes, which hooks see: a Transpose for one matrix,
        # the products' transa/transb for a batch
        if self._ndim == 3:
            return (matmul.matmul(matmul.matmul(-y, gy, transa=True), y, transb=True),)
        yt = matrix_transpose(y)
        return (-matmul.matmul(matmul.matmul(yt, gy), yt),)


class Inv(_InverseBase):
    """Inverse of a square matrix."""

    _ndim = 2
    _name = 'inv'


class BatchInv(_InverseBase):
    """Inverses of a batch of square matrices."""

    _ndim = 3
    _name = 'batch_inv'


def inv(a: Variable | NdArray) -> Variable:
    """Computes the inverse of a square matrix.

    Args:
        a (Variable or numpy.ndarray or cupy.ndarray): Input of shape
            ``(n, n)`` and a floating point dtype.

    Returns:
        Variable: The inverse, of the shape and dtype of ``a``.

    Raises:
        ValueError: ``a`` is singular (on the GPU only in debug mode).

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> a = np.array([[2, 0], [0, 4]], np.float32)
        >>> F.inv(a).array
        array([[0.5 , 0.  ],
               [0.  , 0.25]], dtype=float32)

    """
    return Inv().apply((a,))[0]


def batch_inv(a: Variable | NdArray) -> Variable:
    """Computes the inverses of a batch of square matrices.

    Args:
        a (Variable or numpy.ndarray or cupy.ndarray): Input of shape
            ``(batch, n, n)`` and a floating point dtype.

    Returns:
        Variable: The inverses, of the shape and dtype of ``a``.

    Raises:
        ValueError: A matrix in ``a`` is singular (on the GPU only in debug
            mode).

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> a = np.array([[[2, 0], [0, 4]], [[1, 1], [0, 1]]], np.float32)
        >>> F.batch_inv(a).array
        array([[[ 0.5 ,  0.  ],
                [ 0.  ,  0.25]],
        <BLANKLINE>
               [[ 1.  , -1.  ],
                [ 0.  ,  1.  ]]], dtype=float32)

    """
    return BatchInv().apply((a,))[0]
