"""Matrix product of two (stacks of) matrices."""

from __future__ import annotations

import typing
import warnings

import numpy

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite._kernels import onednn
from chainerlite.functions import _grad_of
from chainerlite.functions.array import cast
from chainerlite.functions.array import reshape
from chainerlite.functions.array import sum_to
from chainerlite.functions.array import swapaxes
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


def _matrix_shape_of_output(y_shape, a_ndim, b_ndim):
    # The output shape with the axes that 1-D operands drop put back.
    if a_ndim == 1 and b_ndim == 1:
        return (1, 1)
    if a_ndim == 1:
        return y_shape[:-1] + (1, y_shape[-1])
    if b_ndim == 1:
        return y_shape + (1,)
    return y_shape


class MatMul(function_node.FunctionNode):
    """Matrix product of two (stacks of) matrices."""

    def __init__(self, transa=False, transb=False, transc=False, dtype=None):
        self.transa = transa
        self.transb = transb
        # transc transposes each output matrix; dtype casts the output.
        self.transc = transc
        self.dtype = dtype

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('a', 'b'))
        a_type, b_type = in_types
        type_check.expect(
            a_type.dtype.kind == 'f',
            b_type.dtype.kind == 'f',  # a mix gives NumPy's result dtype
            a_type.ndim >= 1,
            b_type.ndim >= 1,
        )
        a_ndim = type_check.eval(a_type.ndim)
        b_ndim = type_check.eval(b_type.ndim)
        a_axis = -2 if self.transa and a_ndim > 1 else -1
        if b_ndim == 1:
            b_axis = 0
        else:
            b_axis = -1 if self.transb else -2
        type_check.expect(a_type.shape[a_axis] == b_type.shape[b_axis])
        a_batch = type_check.eval(a_type.shape)[:-2]
        b_batch = type_check.eval(b_type.shape)[:-2]
        try:
            numpy.broadcast_shapes(a_batch, b_batch)
        except ValueError:
            raise type_check.InvalidType(
                'batch shapes {} and {} broadcast'.format(a_batch, b_batch),
                'they do not',
            )

    def forward(self, inputs):
        a, b = inputs
        xp = backend.get_array_module(a, b)
        self.retain_inputs((0, 1))
        if self.transa and a.ndim > 1:
            a = a.swapaxes(-1, -2)
        if self.transb and b.ndim > 1:
            b = b.swapaxes(-1, -2)
        y = onednn.chosen_matmul(a, b)  # oneDNN's, where it is used
        if y is None:
            y = utils.force_array(xp.matmul(a, b))
        self._gy_matrix_shape = _matrix_shape_of_output(y.shape, a.ndim, b.ndim)
        if self.transc and y.ndim > 1:
            y = xp.ascontiguousarray(y.swapaxes(-1, -2))
        if self.dtype is not None:
            y = y.astype(self.dtype, copy=False)
        return (y,)

    def backward(self, indexes, grad_outputs):
        a, b = self.get_retained_inputs()
        return self._input_grads(a, b, grad_outputs[0], indexes)

    def _input_grads(self, a, b, gy, indexes):
        transa = self.transa and a.ndim > 1
        transb = self.transb and b.ndim > 1
        a2 = a if a.ndim > 1 else reshape.reshape(a, (1, a.shape[0]))
        b2 = b if b.ndim > 1 else reshape.reshape(b, (b.shape[0], 1))
        if self.transc and gy.ndim > 1:
            gy = swapaxes.swapaxes(gy, -1, -2)
        gy = reshape.reshape(gy, self._gy_matrix_shape)
        grads = []
        if 0 in indexes:
            # Against a 1-D operand, gy is first cast to its dtype (as in
            # Chainer 7.8.1, which rounds there with mixed dtypes).
            g = _cast_to(gy, b) if b.ndim == 1 else gy
            if transa:
                ga = matmul(b2, g, transa=transb, transb=True)
            else:
                ga = matmul(g, b2, transb=not transb)
            grads.append(_as_input(sum_to.sum_to(ga, a2.shape), a))
        if 1 in indexes:
            g = _cast_to(gy, a) if a.ndim == 1 else gy
            if transb:
                gb = matmul(g, a2, transa=True, transb=transa)
            else:
                gb = matmul(a2, g, transa=not transa)
            grads.append(_as_input(sum_to.sum_to(gb, b2.shape), b))
        return tuple(grads)


def _cast_to(v, x):
    return v if v.dtype == x.dtype else cast.cast(v, x.dtype)


def _as_input(grad, x):
    # The gradient in the shape and dtype of the input x (mixed dtypes and
    # MatMul's dtype argument compute it in another one).
    return _cast_to(reshape.reshape(grad, x.shape), x)


def matmul(
    a: Variable | NdArray, b: Variable | NdArray, transa=False, transb=False
) -> Variable:
    """Computes the matrix product of two arrays.

    Two 1-D arrays give their inner product; 2-D arrays give the matrix
    product. Arrays with more axes are stacks of matrices held in their last
    two axes, and the stacks are broadcast against each other. A 1-D ``a``
    is a row vector and a 1-D ``b`` a column vector; the axis they add is
    dropped from the result.

    Args:
        a (Variable or numpy.ndarray or cupy.ndarray): The left operand.
        b (Variable or numpy.ndarray or cupy.ndarray): The right operand,
            of the same floating point dtype as ``a``.
        transa (bool): If ``True``, each matrix in ``a`` is transposed first.
            Ignored when ``a`` is 1-D.
        transb (bool): If ``True``, each matrix in ``b`` is transposed first.
            Ignored when ``b`` is 1-D.

    Returns:
        Variable: The matrix product.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> a = np.array([[1, 0], [0, 1]], np.float32)
        >>> b = np.array([[4, 1], [2, 2]], np.float32)
        >>> F.matmul(a, b).array
        array([[4., 1.],
               [2., 2.]], dtype=float32)
        >>> F.matmul(a, b, transb=True).array
        array([[4., 2.],
               [1., 2.]], dtype=float32)

    """
    return MatMul(transa, transb).apply((a, b))[0]


def _batch_shape(shape):
    # A stack of column vectors (N, M) is the stack of matrices (N, M, 1).
    shape = tuple(shape)
    return shape + (1,) if len(shape) == 2 else shape


class BatchMatMul(MatMul):
    """Matrix products of two stacks of matrices (deprecated form)."""

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('a', 'b'))
        a_type, b_type = in_types
        type_check.expect(
            a_type.dtype.kind == 'f',
            a_type.dtype == b_type.dtype,
            a_type.ndim >= 2,
            a_type.ndim <= 3,
            b_type.ndim >= 2,
            b_type.ndim <= 3,
        )
        # a separate expect: the light-mode check indexes real shapes
        type_check.expect(a_type.shape[0] == b_type.shape[0])
        a_shape = _batch_shape(type_check.eval(a_type.shape))
        b_shape = _batch_shape(type_check.eval(b_type.shape))
        a_axis = 1 if self.transa else 2
        b_axis = 2 if self.transb else 1
        if a_shape[a_axis] != b_shape[b_axis]:
            raise type_check.InvalidType(
                'a.shape[{}] == b.shape[{}] (2-d operands as (N, M, 1))'.format(
                    a_axis, b_axis
                ),
                '{} != {}'.format(a_shape[a_axis], b_shape[b_axis]),
            )

    def forward(self, inputs):
        a, b = inputs
        a = a.reshape(_batch_shape(a.shape))
        b = b.reshape(_batch_shape(b.shape))
        return super().forward((a, b))

    def backward(self, indexes, grad_outputs):
        a, b = self.get_retained_inputs()
        a3 = reshape.reshape(a, _batch_shape(a.shape))
        b3 = reshape.reshape(b, _batch_shape(b.shape))
        grads = self._input_grads(a3, b3, grad_outputs[0], indexes)
        shapes = [x.shape for i, x in enumerate((a, b)) if i in indexes]
        return tuple(reshape.reshape(g, s) for g, s in zip(grads, shapes))


def batch_matmul(a, b, transa=False, transb=False):
    """Matrix products of two stacks of matrices (deprecated: use
    :func:`matmul`).

    Args:
        a (Variable or numpy.ndarray or cupy.ndarray): A stack of matrices
            ``(N, M, K)``, or of column vectors ``(N, M)`` (taken as
            ``(N, M, 1)``).
        b (Variable or numpy.ndarray or cupy.ndarray): The same for the
            right operands, with the same ``N`` and dtype.
        transa (bool): If ``True``, each matrix of ``a`` is transposed first.
        transb (bool): If ``True``, each matrix of ``b`` is transposed first.

    Returns:
        Variable: The ``N`` products, of shape ``(N, rows, cols)``.

    Warns:
        DeprecationWarning: Always.

    """
    warnings.warn('batch_matmul is deprecated. Use matmul instead.', DeprecationWarning)
    return BatchMatMul(transa, transb).apply((a, b))[0]


class BatchMatMulGrad(_grad_of.GradOf):
    """Chainer's gradient node of :class:`BatchMatMul`: applied to
    ``(a, b, gy)``, the gradients of ``a`` and ``b`` (from BatchMatMul's
    own backward, so its second order is that backward's)."""

    def __init__(self, transa=False, transb=False):
        self.transa = transa
        self.transb = transb

    def gradients(self, xs):
        def product(a, b):
            return BatchMatMul(self.transa, self.transb).apply((a, b))[0]

        return _grad_of.grads_of(product, xs[:2], xs[2])


def _as_batch_mat(x):
    """Chainer's helper: a stack of arrays as a stack of matrices, of
    shape ``(len(x), x.shape[1], rest)``."""
    return x.reshape(len(x), x.shape[1], -1)


def _get_ld(a):
    """Chainer's helper (for BLAS calls): of a stack of matrices, whether
    its last two axes are laid out transposed (the axis of the smaller
    stride, 0 or 1) and the leading dimension that layout has."""
    strides = a.strides[-2:]
    trans = int(numpy.argmin(strides))
    return trans, int(max(a.shape[trans - 2], max(strides) // a.itemsize))
