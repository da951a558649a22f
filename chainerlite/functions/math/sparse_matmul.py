"""Product of a sparse (COO) matrix and a dense matrix."""

from __future__ import annotations

import numpy
import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite.functions.array import cast
from chainerlite.functions.array import get_item
from chainerlite.functions.array import swapaxes
from chainerlite.functions.array import where
from chainerlite.functions.math import matmul
from chainerlite.functions.math import sum as sum_mod
from chainerlite.functions.rnn import _formula
from chainerlite.utils import sparse
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.variable import Variable


def _last_two_swapped(x, swap):
    return swapaxes.swapaxes(x, -1, -2) if swap else x


def _keep_pattern(
    node, sp_row, sp_col, sp_shape, sp_order, transa, transb, transc, dtype
):
    # The sparse pattern and product options a COO node keeps; dtype: of the
    # output (None: NumPy's result type of the two operands).
    node.sp_row, node.sp_col, node.sp_shape = sp_row, sp_col, sp_shape
    node.sp_order = sp_order
    node.transa, node.transb, node.transc = transa, transb, transc
    node.dtype = dtype


class CooMatMul(function_node.FunctionNode):
    """``op(A) @ op(B)`` for a sparse ``A`` (given by its values) and a
    dense ``B``; the output is transposed if ``transc``."""

    def __init__(
        self,
        sp_row,
        sp_col,
        sp_shape,
        sp_order='other',
        transa=False,
        transb=False,
        transc=False,
        dtype=None,
    ):
        if sp_row.ndim != sp_col.ndim or sp_row.shape != sp_col.shape:
            raise ValueError('CooMatMul: sp_row and sp_col must have the same shape')
        _keep_pattern(
            self,
            sp_row,
            sp_col,
            tuple(sp_shape),
            sp_order,
            transa,
            transb,
            transc,
            dtype,
        )

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('sp', 'dn'))
        sp_type, dn_type = in_types
        type_check.expect(
            sp_type.dtype.kind == 'f',
            dn_type.dtype.kind == 'f',
            sp_type.ndim == self.sp_row.ndim,
            sp_type.shape[-1] == self.sp_row.shape[-1],
            # A batch of sparse matrices goes with a batch of dense ones.
            dn_type.ndim == sp_type.ndim + 1,
        )
        inner = self.sp_shape[0] if self.transa else self.sp_shape[1]
        dn_axis = -1 if self.transb else -2
        type_check.expect(dn_type.shape[dn_axis] == inner)
        if type_check.eval(sp_type.ndim) == 2:
            type_check.expect(sp_type.shape[0] == dn_type.shape[0])

    def _rows_cols(self):
        if self.transa:
            return self.sp_col, self.sp_row, self.sp_shape[1]
        return self.sp_row, self.sp_col, self.sp_shape[0]

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        data, dn = inputs
        xp = backend.get_array_module(data, dn)
        rows, cols, n_rows = self._rows_cols()
        dn = dn.swapaxes(-1, -2) if self.transb else dn
        batched = data.ndim == 2
        # one row of nonzeros per batch; the count explicit, as a matrix
        # without nonzeros has rows of length 0
        n_batch = len(data) if batched else 1
        data2, rows2, cols2 = [
            a.reshape(n_batch, a.shape[-1]) for a in (data, rows, cols)
        ]
        dn3 = dn.reshape((n_batch,) + dn.shape[-2:])
        dtype = numpy.result_type(data.dtype, dn.dtype)
        used = rows2 >= 0
        batch = xp.broadcast_to(xp.arange(n_batch)[:, None], rows2.shape)
        terms = data2[used][:, None].astype(dtype) * dn3[
            batch[used], cols2[used]
        ].astype(dtype)
        out = xp.zeros((n_batch, n_rows, dn.shape[-1]), dtype)
        get_item.add_at(out, (batch[used], rows2[used]), terms)
        if not batched:
            out = out[0]
        if self.transc:
            out = out.swapaxes(-1, -2)
        return (utils.force_array(out, self.dtype),)

    def backward(self, indexes, grad_outputs):
        data, dn = self.get_retained_inputs()
        gc = _last_two_swapped(grad_outputs[0], self.transc)
        rows, cols, _ = self._rows_cols()
        grads = []
        if 0 in indexes:
            # g[e] = gc[row_e, :] . op(B)[col_e, :], padding entries 0.
            op_b = _last_two_swapped(dn, self.transb)
            xp = backend.get_array_module(rows)
            used = (rows >= 0).astype(gc.dtype)
            r, c = xp.maximum(rows, 0), xp.maximum(cols, 0)
            if gc.ndim == 3:
                batch = xp.arange(gc.shape[0])[:, None]
                gc_rows = get_item.get_item(gc, (batch, r))
                b_rows = get_item.get_item(op_b, (batch, c))
            else:
                gc_rows = get_item.get_item(gc, r)
                b_rows = get_item.get_item(op_b, c)
            g = sum_mod.sum(gc_rows * cast.cast(b_rows, gc.dtype), axis=-1)
            g = g * used
            grads.append(cast.cast(g, data.dtype))
        if 1 in indexes:
            # op(B)^T-side gradient: op(A)^T @ gc, transposed back if transb.
            node = CooMatMul(
                self.sp_row,
                self.sp_col,
                self.sp_shape,
                self.sp_order,
                transa=not self.transa,
                transb=False,
                transc=self.transb,
            )
            (gb,) = node.apply((data, gc))
            grads.append(cast.cast(gb, dn.dtype))
        return tuple(grads)


def sparse_matmul(a, b, transa=False, transb=False) -> Variable:
    """Computes the product of a sparse and a dense matrix.

    One of ``a`` and ``b`` is a :class:`chainerlite.utils.CooMatrix` (made
    for instance by :func:`chainerlite.utils.to_coo`), the other a dense
    2-D matrix or 3-D batch of matrices. The gradient flows to the values
    of the sparse matrix (its ``data`` Variable) and to the dense one.

    Args:
        a (CooMatrix or Variable or numpy.ndarray or cupy.ndarray): The
            left operand.
        b (CooMatrix or Variable or numpy.ndarray or cupy.ndarray): The
            right operand.
        transa (bool): Use the transpose of ``a``.
        transb (bool): Use the transpose of ``b``.

    Returns:
        Variable: ``op(a) @ op(b)``, of the dtype that NumPy gives for the
        two dtypes.

    Raises:
        ValueError: Neither or both operands are sparse.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> from chainerlite import utils
        >>> a = utils.to_coo(np.array([[0, 2], [1, 0]], np.float32))
        >>> b = np.array([[1, 2], [3, 4]], np.float32)
        >>> F.sparse_matmul(a, b).array
        array([[6., 8.],
               [1., 2.]], dtype=float32)

    """
    a_sparse = isinstance(a, sparse.CooMatrix)
    b_sparse = isinstance(b, sparse.CooMatrix)
    if a_sparse == b_sparse:
        raise ValueError('sparse_matmul: exactly one of a and b must be a CooMatrix')
    if a_sparse:
        node = CooMatMul(
            a.row, a.col, a.shape, a.order, transa=transa, transb=transb, transc=False
        )
        return node.apply((a.data, b))[0]
    # a @ b == (b^T @ a^T)^T: the sparse operand goes first.
    node = CooMatMul(
        b.row,
        b.col,
        b.shape,
        b.order,
        transa=not transb,
        transb=not transa,
        transc=True,
    )
    return node.apply((b.data, a))[0]


class CooMatMulGradSP(_formula.FormulaNode):
    """Chainer's node of the product of two dense matrices taken at the
    entries of a sparse (COO) pattern: applied to ``(a, b)``, the values
    ``C[sp_row[e], sp_col[e]]`` of ``C = op(a) @ op(b)`` (``C`` transposed
    if ``transc``; 0 at padding entries, whose row is negative), of dtype
    ``dtype`` (None: NumPy's result type of the two). It is the gradient of
    :class:`CooMatMul` with respect to the sparse values; its gradients, to
    any order, are those of that formula."""

    def __init__(
        self,
        sp_row,
        sp_col,
        sp_shape,
        sp_order='other',
        transa=False,
        transb=False,
        transc=False,
        dtype=None,
    ):
        if sp_row.ndim not in (1, 2) or sp_row.shape != sp_col.shape:
            raise ValueError(
                'CooMatMulGradSP: sp_row and sp_col must have one shape of one '
                'or two axes; got {} and {}'.format(sp_row.shape, sp_col.shape)
            )
        if len(sp_shape) != 2:
            raise ValueError('CooMatMulGradSP: len(sp_shape) must be two.')
        _keep_pattern(
            self, sp_row, sp_col, sp_shape, sp_order, transa, transb, transc, dtype
        )

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('a', 'b'))
        a_type, b_type = in_types
        type_check.expect(
            a_type.dtype.kind == 'f',
            b_type.dtype.kind == 'f',
            a_type.ndim >= 2,
            a_type.ndim <= 3,
            a_type.ndim == b_type.ndim,
        )
        m, k = (-1, -2) if self.transa else (-2, -1)
        b_k, n = (-1, -2) if self.transb else (-2, -1)
        c_m, c_n = (-1, -2) if self.transc else (-2, -1)
        type_check.expect(
            a_type.shape[m] == self.sp_shape[c_m],
            b_type.shape[n] == self.sp_shape[c_n],
            a_type.shape[k] == b_type.shape[b_k],
        )
        if type_check.eval(a_type.ndim) == 3:
            type_check.expect(
                a_type.shape[0] == self.sp_row.shape[0],
                b_type.shape[0] == self.sp_row.shape[0],
            )

    def formula(self, a, b):
        dtype = self.dtype or numpy.result_type(a.dtype, b.dtype)
        a = _last_two_swapped(cast.cast(a, dtype), self.transa)
        b = _last_two_swapped(cast.cast(b, dtype), self.transb)
        product = matmul.matmul(a, b)
        rows, cols = self.sp_row, self.sp_col
        if self.transc:
            rows, cols = cols, rows
        xp = backend.get_array_module(a.array)
        used = xp.asarray(rows >= 0)
        at = (xp.maximum(rows, 0), xp.maximum(cols, 0))
        if product.ndim == 3:
            at = (xp.arange(product.shape[0])[:, None],) + at
        values = get_item.get_item(product, at)
        return (where.where(used, values, xp.zeros(values.shape, dtype)),)
