"""Cholesky decomposition of a symmetric positive definite matrix."""

from __future__ import annotations

import numpy
import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite.functions.math import inv
from chainerlite.functions.math import matmul
from chainerlite.utils import _chainer_errors
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class NotSquareError(type_check.InvalidType, numpy.linalg.LinAlgError):
    """The type check's error for a matrix that is not square, also
    NumPy's (and so Chainer 7.8.1's) ``LinAlgError``."""


class Cholesky(function_node.FunctionNode):
    """Cholesky decomposition of a symmetric positive definite matrix."""

    @property
    def label(self):
        return 'cholesky'  # Chainer's label

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('a',))
        (a_type,) = in_types
        type_check.expect(a_type.dtype.kind == 'f', a_type.ndim == 2)
        # a separate expect: the light-mode check indexes real shapes.
        # Chainer 7.8.1 does not check it; NumPy's factorisation refuses it
        # with a LinAlgError, which this InvalidType is too
        try:
            type_check.expect(a_type.shape[0] == a_type.shape[1])
        except type_check.InvalidType as e:
            raise NotSquareError(e.expect, e.actual, e.args[0]) from None

    def forward(self, inputs):
        (a,) = inputs
        xp = backend.get_array_module(a)
        self.retain_outputs((0,))
        work = a.astype(numpy.float32) if a.dtype == numpy.float16 else a
        try:
            lower = xp.linalg.cholesky(work)
        except numpy.linalg.LinAlgError as e:
            # Chainer 7.8.1 refuses a float16 one first (NumPy's TypeError)
            error = (
                _chainer_errors.LinAlgTypeError
                if a.dtype == numpy.float16
                else numpy.linalg.LinAlgError
            )
            raise error('cholesky: the input is not positive definite ({})'.format(e))
        return (utils.force_array(lower, a.dtype),)

    def backward(self, indexes, grad_outputs):
        # With A = L L^T and P = L^T gL restricted to its lower triangle with
        # the diagonal halved, the gradient with respect to the symmetric A
        # is the symmetric part of L^-T P L^-1.
        (lower,) = self.get_retained_outputs()
        (gl,) = grad_outputs
        xp = backend.get_array_module(lower)
        n = lower.shape[0]
        phi = (
            xp.tril(xp.ones((n, n), lower.dtype), -1)
            + xp.eye(n, dtype=lower.dtype) * 0.5
        )
        p = matmul.matmul(lower, gl, transa=True) * phi
        lower_inv = inv.inv(lower)
        s = matmul.matmul(matmul.matmul(lower_inv, p, transa=True), lower_inv)
        return ((s + inv.matrix_transpose(s)) * 0.5,)


def cholesky(a: Variable | NdArray) -> Variable:
    """Cholesky decomposition.

    Finds the lower triangular matrix :math:`L` with :math:`A = L L^T` for a
    symmetric positive definite :math:`A`. Only the lower triangle of ``a``
    is read; the gradient is taken with respect to a symmetric ``a``.

    Args:
        a (Variable or numpy.ndarray or cupy.ndarray): Symmetric positive
            definite input of shape ``(n, n)`` and a floating point dtype.

    Returns:
        Variable: The lower triangular factor, of the shape and dtype of
        ``a``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> a = np.array([[4, 2], [2, 5]], np.float32)
        >>> F.cholesky(a).array
        array([[2., 0.],
               [1., 2.]], dtype=float32)

    """
    return Cholesky().apply((a,))[0]
