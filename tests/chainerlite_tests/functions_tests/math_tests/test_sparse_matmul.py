import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite import testing
from chainerlite import utils
from chainerlite.utils import type_check
from chainerlite.functions.math.sparse_matmul import CooMatMul


def _sparse(shape, dtype):
    x = numpy.random.uniform(0.5, 1, shape).astype(dtype)
    x[x < 0.75] = 0
    return x


def _product_by_loops(a, b):
    # Sum over k of a[.., i, k] * b[.., k, j], written out in float64.
    a, b = a.astype(numpy.float64), b.astype(numpy.float64)
    a3, b3 = (a if a.ndim == 3 else a[None]), (b if b.ndim == 3 else b[None])
    n = max(len(a3), len(b3))
    a3 = numpy.broadcast_to(a3, (n,) + a3.shape[1:])
    b3 = numpy.broadcast_to(b3, (n,) + b3.shape[1:])
    out = numpy.zeros((n, a3.shape[1], b3.shape[2]))
    for t in range(n):
        for i in range(a3.shape[1]):
            for j in range(b3.shape[2]):
                out[t, i, j] = sum(
                    a3[t, i, k] * b3[t, k, j] for k in range(a3.shape[2])
                )
    return out if a.ndim == 3 or b.ndim == 3 else out[0]


def _shape(shape, trans, nbatch):
    shape = shape[::-1] if trans else shape
    return ((nbatch,) if nbatch else ()) + shape


@testing.parameterize(
    *testing.product(
        {
            'transa': [False, True],
            'transb': [False, True],
            'nbatch': [0, 3],
            'dtypes': [(numpy.float32, numpy.float32), (numpy.float16, numpy.float64)],
            'sparse_side': ['a', 'b'],
        }
    )
)
class TestSparseMatmul:
    def setup_method(self):
        m, k, n = 2, 4, 3
        a_dtype, b_dtype = self.dtypes
        self.a = _sparse(_shape((m, k), self.transa, self.nbatch), a_dtype)
        self.b = _sparse(_shape((k, n), self.transb, self.nbatch), b_dtype)
        self.c_dtype = numpy.result_type(a_dtype, b_dtype)

    def _op(self, x, trans):
        return x.swapaxes(-1, -2) if trans else x

    def test_forward(self):
        if self.sparse_side == 'a':
            c = F.sparse_matmul(
                utils.to_coo(self.a), self.b, transa=self.transa, transb=self.transb
            )
        else:
            c = F.sparse_matmul(
                self.a, utils.to_coo(self.b), transa=self.transa, transb=self.transb
            )
        expected = _product_by_loops(
            self._op(self.a, self.transa), self._op(self.b, self.transb)
        )
        assert c.dtype == self.c_dtype
        testing.assert_allclose(c.array, expected, atol=1e-3, rtol=1e-3)

    def test_backward(self):
        sparse, dense = (
            (self.a, self.b) if self.sparse_side == 'a' else (self.b, self.a)
        )
        sp = utils.to_coo(sparse)
        if self.sparse_side == 'a':
            node_args = dict(transa=self.transa, transb=self.transb, transc=False)
        else:
            node_args = dict(
                transa=not self.transb, transb=not self.transa, transc=True
            )

        def op(data, dense):
            node = CooMatMul(sp.row, sp.col, sp.shape, sp.order, **node_args)
            return node.apply((data, dense))[0]

        out_shape = op(sp.data.array, dense).shape
        gc = numpy.random.uniform(-1, 1, out_shape).astype(self.c_dtype)
        gg_data = numpy.random.uniform(-1, 1, sp.data.shape)
        gg_dense = numpy.random.uniform(-1, 1, dense.shape)
        opts = {'atol': 1e-2, 'rtol': 1e-2, 'dtype': numpy.float64}
        gradient_check.check_backward(op, (sp.data.array, dense), gc, **opts)
        gradient_check.check_double_backward(
            op,
            (sp.data.array, dense),
            gc,
            (gg_data.astype(sp.data.dtype), gg_dense.astype(dense.dtype)),
            **opts,
        )


def test_batches_of_sparse_and_dense_go_together():
    batch = numpy.ones((2, 3, 3), numpy.float32)
    single = numpy.ones((3, 3), numpy.float32)
    with pytest.raises(type_check.InvalidType, match='CooMatMul'):
        F.sparse_matmul(utils.to_coo(batch), single)
    with pytest.raises(type_check.InvalidType, match='CooMatMul'):
        F.sparse_matmul(utils.to_coo(single), batch)
    with pytest.raises(type_check.InvalidType, match='CooMatMul'):
        F.sparse_matmul(utils.to_coo(batch), numpy.ones((4, 3, 3), numpy.float32))


def test_exactly_one_operand_is_sparse():
    a = numpy.ones((2, 2), numpy.float32)
    with pytest.raises(ValueError, match='sparse_matmul'):
        F.sparse_matmul(a, a)
    with pytest.raises(ValueError, match='sparse_matmul'):
        F.sparse_matmul(utils.to_coo(a), utils.to_coo(a))


def test_node_dtype_casts_the_output():
    # Chainer 7.8.1's CooMatMul(..., transc, dtype): the output in dtype,
    # the gradients in the dtypes of the sparse values and the dense input.
    dense = numpy.array([[0, 2], [1, 0]], numpy.float64)
    a = utils.to_coo(dense)
    b = numpy.array([[1, 2], [3, 4]], numpy.float64)
    node = CooMatMul(a.row, a.col, a.shape, a.order, dtype=numpy.float32)
    assert node.dtype == numpy.float32
    data = chainerlite.Variable(getattr(a.data, 'array', a.data))
    (y,) = node.apply((data, b))
    assert y.dtype == numpy.float32
    numpy.testing.assert_array_equal(y.array, dense @ b)
    y.grad = numpy.ones((2, 2), numpy.float32)
    y.backward()
    assert data.grad.dtype == numpy.float64


@pytest.mark.parametrize('shape', [(3, 4), (2, 3, 4)])
def test_a_sparse_matrix_without_nonzeros(shape):
    # its COO arrays have rows of length 0 (a random sparse test matrix
    # can come out empty)
    sp = utils.to_coo(numpy.zeros(shape, numpy.float32))
    b = numpy.ones(shape[:-2] + (4, 2), numpy.float32)
    node = CooMatMul(sp.row, sp.col, sp.shape, sp.order, False, False, False)
    numpy.testing.assert_array_equal(
        node.apply((sp.data.data, b))[0].array, numpy.zeros(shape[:-1] + (2,))
    )
    gradient_check.check_backward(
        lambda data, dense: CooMatMul(
            sp.row, sp.col, sp.shape, sp.order, False, False, False
        ).apply((data, dense))[0],
        (sp.data.data, b),
        numpy.ones(shape[:-1] + (2,), numpy.float32),
        dtype=numpy.float64,
    )
