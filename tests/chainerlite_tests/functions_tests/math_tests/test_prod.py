import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


@testing.parameterize(
    *testing.product(
        {
            'shape_axis': [
                ((), None),
                ((3, 4), None),
                ((3, 4), 0),
                ((2, 3, 2), -1),
                ((2, 3, 2), (0, 2)),
                ((2, 3), ()),
            ],
            'keepdims': [False, True],
            'zeros': [0, 1, 2],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestProd(testing.FunctionTestCase):
    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-3, 'rtol': 1e-2}
            self.check_backward_options = {
                'dtype': numpy.float64,
                'atol': 1e-2,
                'rtol': 5e-2,
            }
            self.check_double_backward_options = {
                'dtype': numpy.float64,
                'atol': 1e-2,
                'rtol': 5e-2,
            }
        elif self.dtype == numpy.float32:
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
        shape, _ = self.shape_axis
        x = numpy.random.uniform(0.5, 1.5, shape)
        x *= numpy.random.choice([-1, 1], shape)
        # Zeros at the first flat positions: with several reduced axes or
        # the last one, two zeros share a slice.
        x.ravel()[: min(self.zeros, x.size)] = 0
        return (x.astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        _, axis = self.shape_axis
        return (F.prod(x, axis=axis, keepdims=self.keepdims),)

    def forward_expected(self, inputs):
        (x,) = inputs
        _, axis = self.shape_axis
        y = x.astype(numpy.float64).prod(axis=axis, keepdims=self.keepdims)
        return (numpy.asarray(y, self.dtype),)


def test_gradient_with_zeros_is_exact():
    x = chainerlite.Variable(numpy.array([[2.0, 0.0, 3.0], [0.0, 0.0, 5.0]]))
    y = F.prod(x, axis=1)
    F.sum(y).backward()
    numpy.testing.assert_array_equal(x.grad, [[0.0, 6.0, 0.0], [0.0, 0.0, 0.0]])


@pytest.mark.parametrize('axis', [None, (0, 1), (1, 2)])
def test_gradient_of_empty_array_over_several_axes(axis):
    x = chainerlite.Variable(numpy.ones((3, 1, 0), numpy.float32))
    y = F.prod(x, axis=axis)
    numpy.testing.assert_array_equal(y.array, numpy.prod(x.array, axis=axis))
    F.sum(y).backward()
    assert x.grad.shape == (3, 1, 0)


def test_third_order_gradient():
    x = chainerlite.Variable(numpy.array([2.0, 3.0, 0.0, 5.0]))
    (g1,) = chainerlite.grad([F.prod(x)], [x], enable_double_backprop=True)
    numpy.testing.assert_array_equal(g1.array, [0.0, 0.0, 30.0, 0.0])
    (g2,) = chainerlite.grad([g1[0]], [x], enable_double_backprop=True)
    numpy.testing.assert_array_equal(g2.array, [0.0, 0.0, 15.0, 0.0])
    (g3,) = chainerlite.grad([g2[2]], [x])
    numpy.testing.assert_array_equal(g3.array, [0.0, 5.0, 0.0, 3.0])


@pytest.mark.parametrize('axis', [2, -3, (0, 2)])
def test_axis_out_of_range_is_invalid(axis):
    with pytest.raises(type_check.InvalidType, match='Prod'):
        F.prod(numpy.ones((2, 3), numpy.float32), axis=axis)


def test_integer_input_is_invalid():
    with pytest.raises(type_check.InvalidType, match='Prod'):
        F.prod(numpy.ones((2, 3), numpy.int32))


def test_duplicate_axis():
    with pytest.raises(ValueError, match='duplicate'):
        F.prod(numpy.ones((2, 3), numpy.float32), axis=(0, -2))


@pytest.mark.parametrize('axis', [1.0, [0, 1]])
def test_invalid_axis_type(axis):
    with pytest.raises(TypeError):
        F.prod(numpy.ones((2, 3), numpy.float32), axis=axis)


def test_second_order_keeps_infinite_products_infinite():
    # the products of the others are selected, not masked by multiplying
    # with 0 and 1: a slice holding infinities gives infinite second-order
    # terms, as Chainer's cumulative products do, instead of NaN (inf * 0)
    x = chainerlite.Variable(numpy.array([[numpy.inf, numpy.inf, 1.0, 2.0]]))
    (gx,) = chainerlite.grad([F.prod(x, axis=1)], [x], enable_double_backprop=True)
    (ggx,) = chainerlite.grad([F.sum(gx)], [x])
    numpy.testing.assert_array_equal(ggx.array, numpy.full((1, 4), numpy.inf))
    # finite slices are unchanged: d2/dxi dxj of x0 x1 x2 summed over j != i
    x = chainerlite.Variable(numpy.array([[2.0, 3.0, 5.0]]))
    (gx,) = chainerlite.grad([F.prod(x, axis=1)], [x], enable_double_backprop=True)
    (ggx,) = chainerlite.grad([F.sum(gx)], [x])
    numpy.testing.assert_array_equal(ggx.array, [[8.0, 7.0, 5.0]])


@pytest.mark.parametrize(
    'row, expected',
    [
        # where infinities and a zero share a slice, the NaN and infinities of
        # the second order are Chainer 7.8.1's (its derivatives of the
        # cumulative products from both ends), not the pairwise products'
        (
            [numpy.inf, -numpy.inf, 0.0, 1.0],
            [-numpy.inf, numpy.inf, numpy.nan, numpy.nan],
        ),
        ([numpy.inf, 2.0, 0.0, 3.0], [18.0, numpy.inf, numpy.inf, numpy.nan]),
        ([0.0, 0.0, numpy.inf, 2.0], [numpy.nan, numpy.nan, 0.0, numpy.nan]),
    ],
)
def test_second_order_with_infinities_and_zeros_is_chainers(row, expected):
    x = chainerlite.Variable(numpy.array([row]))
    (gx,) = chainerlite.grad([F.prod(x, axis=1)], [x], enable_double_backprop=True)
    weights = numpy.array([[1.0, 2.0, 3.0, 4.0]])
    (ggx,) = chainerlite.grad([F.sum(gx * weights)], [x])
    numpy.testing.assert_array_equal(ggx.array, [expected])


def test_several_axes_multiply_in_the_order_given():
    # float16 products round in the order of the merged axes: (1, 0) takes
    # the columns' elements first, as Chainer 7.8.1 does
    x = numpy.array([[3.1, 0.7, 1.9], [2.3, 0.3, 1.7]], numpy.float16)
    grads = []
    for axis in ((0, 1), (1, 0)):
        v = chainerlite.Variable(x)
        F.prod(v, axis=axis).backward()
        grads.append(v.grad)
    flat = {(0, 1): x.ravel(), (1, 0): x.T.ravel()}
    for (axis, values), grad in zip(flat.items(), grads):
        before = numpy.concatenate([[1], numpy.cumprod(values)[:-1]]).astype(
            numpy.float16
        )
        after = numpy.cumprod(values[::-1])[::-1]
        after = numpy.concatenate([after[1:], [1]]).astype(numpy.float16)
        expected = (before * after).reshape(x.shape if axis == (0, 1) else x.T.shape)
        expected = expected if axis == (0, 1) else expected.T
        numpy.testing.assert_array_equal(grad, expected)
