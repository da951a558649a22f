import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


@testing.parameterize(
    *testing.product(
        {
            # e1 shape, e2 shape (J = 4, K = 3 after flattening), L = 2
            'shapes': [((5, 4), (5, 3)), ((5, 2, 2), (5, 3, 1))],
            'nobias': [False, True],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestBilinear(testing.FunctionTestCase):
    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_backward_options = {
                'dtype': numpy.float64,
                'atol': 5e-2,
                'rtol': 5e-2,
            }
            self.check_double_backward_options = {
                'dtype': numpy.float64,
                'atol': 5e-2,
                'rtol': 5e-2,
            }
        elif self.dtype == numpy.float32:
            self.check_forward_options = {'atol': 1e-5, 'rtol': 1e-4}
            self.check_backward_options = {
                'dtype': numpy.float64,
                'atol': 1e-4,
                'rtol': 1e-3,
            }
            self.check_double_backward_options = {
                'dtype': numpy.float64,
                'atol': 1e-3,
                'rtol': 1e-2,
            }

    def generate_inputs(self):
        e1_shape, e2_shape = self.shapes
        shapes = [e1_shape, e2_shape, (4, 3, 2)]
        if not self.nobias:
            shapes += [(4, 2), (3, 2), (2,)]
        return tuple(numpy.random.uniform(-1, 1, s).astype(self.dtype) for s in shapes)

    def forward(self, inputs, device):
        return (F.bilinear(*inputs),)

    def forward_expected(self, inputs):
        e1, e2, W = (a.astype(numpy.float64) for a in inputs[:3])
        e1 = e1.reshape(len(e1), -1)
        e2 = e2.reshape(len(e2), -1)
        y = numpy.zeros((len(e1), W.shape[2]))
        for i, j, k in numpy.ndindex(len(e1), *W.shape[:2]):
            y[i] += e1[i, j] * e2[i, k] * W[j, k]
        if not self.nobias:
            V1, V2, b = inputs[3:]
            y += e1.dot(V1) + e2.dot(V2) + b
        return (y.astype(self.dtype),)


@pytest.mark.parametrize('missing', [(3,), (4,), (5,), (3, 5)])
def test_linear_terms_are_all_or_nothing(missing):
    args = [
        numpy.zeros(s, numpy.float32)
        for s in [(2, 4), (2, 3), (4, 3, 2), (4, 2), (3, 2), (2,)]
    ]
    for i in missing:
        args[i] = None
    with pytest.raises(ValueError):
        F.bilinear(*args)


@pytest.mark.parametrize(
    'shapes, dtypes',
    [
        ([(2, 4), (3, 3), (4, 3, 2)], None),
        ([(2, 5), (2, 3), (4, 3, 2)], None),
        ([(2, 4), (2, 3), (4, 3)], None),
        ([(4,), (2, 3), (4, 3, 2)], None),
        ([(2, 4), (2, 3), (4, 3, 2)], [numpy.float32, numpy.float64, numpy.float32]),
        ([(2, 4), (2, 3), (4, 3, 2)], [numpy.int32] * 3),
        ([(2, 4), (2, 3), (4, 3, 2), (4, 3), (3, 2), (2,)], None),
        ([(2, 4), (2, 3), (4, 3, 2), (4, 2), (3, 2), (3,)], None),
    ],
)
def test_invalid_inputs(shapes, dtypes):
    dtypes = dtypes or [numpy.float32] * len(shapes)
    args = [numpy.zeros(s, d) for s, d in zip(shapes, dtypes)]
    with pytest.raises(type_check.InvalidType, match='BilinearFunction'):
        F.bilinear(*args)


def _gradients_by_loops(e1, e2, W, gy, V1=None, V2=None):
    # y_il = sum_jk e1_ij e2_ik W_jkl (+ e1 V1 + e2 V2 + b): each gradient
    # summed entry by entry in float64
    e1, e2, W, gy = (numpy.asarray(a, numpy.float64) for a in (e1, e2, W, gy))
    ge1, ge2, gW = numpy.zeros(e1.shape), numpy.zeros(e2.shape), numpy.zeros(W.shape)
    for i, j, k, l_ in numpy.ndindex(len(e1), *W.shape):
        ge1[i, j] += e2[i, k] * W[j, k, l_] * gy[i, l_]
        ge2[i, k] += e1[i, j] * W[j, k, l_] * gy[i, l_]
        gW[j, k, l_] += e1[i, j] * e2[i, k] * gy[i, l_]
    if V1 is None:
        return ge1, ge2, gW
    ge1 += gy @ numpy.asarray(V1, numpy.float64).T
    ge2 += gy @ numpy.asarray(V2, numpy.float64).T
    return ge1, ge2, gW, e1.T @ gy, e2.T @ gy, gy.sum(axis=0)


@pytest.mark.parametrize('linear', [False, True])
def test_gradient_node_gives_every_gradient(linear):
    from chainerlite.functions.connection.bilinear import BilinearFunctionGrad

    rng = numpy.random.RandomState(3)
    e1, e2, W, gy = (
        rng.uniform(-1, 1, s).astype(numpy.float32)
        for s in [(4, 3), (4, 2), (3, 2, 5), (4, 5)]
    )
    V = (rng.uniform(-1, 1, (3, 5)), rng.uniform(-1, 1, (2, 5))) if linear else ()
    V = tuple(v.astype(numpy.float32) for v in V)
    got = BilinearFunctionGrad().apply((e1, e2, W) + V + (gy,))
    want = _gradients_by_loops(e1, e2, W, gy, *V)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.dtype == numpy.float32
        numpy.testing.assert_allclose(g.array, w, rtol=1e-5, atol=1e-6)


def _second_order_of_gW(e1_values, weights):
    import chainerlite

    e1 = chainerlite.Variable(numpy.array(e1_values, numpy.float32))
    e2 = chainerlite.Variable(numpy.array([[0.5]], numpy.float32))
    W = chainerlite.Variable(numpy.ones((2, 1, 2), numpy.float32))
    y = F.bilinear(e1, e2, W)
    gy = chainerlite.Variable(numpy.array([[1.0, 2.0]], numpy.float32))
    (gW,) = chainerlite.grad([y], [W], [gy], enable_double_backprop=True)
    (g2,) = chainerlite.grad([F.sum(gW * numpy.array(weights, numpy.float32))], [e2])
    return g2.array


def test_second_order_forms_each_product_before_summing():
    # d/de2 of sum(gW * w) is sum_jl e1_j gy_l w_jl: with e1_0 infinite the
    # products inf * 1 * 1 and inf * 2 * -1 meet in one sum, NaN (Chainer's
    # grouping; summing gy_l w_jl first would give inf * -1)
    got = _second_order_of_gW([[numpy.inf, 1.0]], [[[1.0, -1.0]], [[0.0, 0.0]]])
    assert numpy.isnan(got).all()


def test_second_order_through_one_gradient_alone():
    # only gW feeds the second order (the other gradients' upstream
    # gradients are None): sum_jl e1_j gy_l w_jl with gy = (1, 2)
    got = _second_order_of_gW([[0.5, -1.5]], [[[1.0, -1.0]], [[3.0, 0.25]]])
    e1, gy = numpy.array([0.5, -1.5]), numpy.array([1.0, 2.0])
    w = numpy.array([[1.0, -1.0], [3.0, 0.25]])
    want = sum(e1[j] * gy[k] * w[j, k] for j in range(2) for k in range(2))
    numpy.testing.assert_allclose(got, [[want]], rtol=1e-6)


@pytest.mark.parametrize(
    'shapes',
    [
        [(0, 2), (0, 3), (2, 3, 4)],  # no rows: Chainer's double backprop fails
        [(0, 2, 1), (0, 3), (2, 3, 4)],
        [(0, 2), (0, 3), (2, 3, 4), (2, 4), (3, 4), (4,)],
        [(2, 2), (2, 3), (2, 3, 0)],  # no outputs: Chainer's forward fails
    ],
)
def test_empty_batches_and_outputs(shapes):
    # the flattening of e1 and e2 read a width of -1, which is ambiguous
    # where the array has no elements
    xs = [chainerlite.Variable(numpy.ones(s, numpy.float32)) for s in shapes]
    y = F.bilinear(*xs)
    assert y.shape == (shapes[0][0], shapes[2][2])
    grads = chainerlite.grad([F.sum(y * y)], xs, enable_double_backprop=True)
    assert [g.shape for g in grads] == shapes
    F.sum(F.concat([F.flatten(g) for g in grads], 0) ** 2).backward()
    assert [x.grad.shape for x in xs] == shapes
