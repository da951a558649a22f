import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


def _tolerances(test):
    if test.dtype == numpy.float16:
        test.check_forward_options = {'atol': 1e-3, 'rtol': 1e-3}
        test.check_backward_options = {
            'dtype': numpy.float64,
            'atol': 5e-3,
            'rtol': 1e-2,
        }
        test.check_double_backward_options = {
            'dtype': numpy.float64,
            'atol': 1e-2,
            'rtol': 5e-2,
        }
    elif test.dtype == numpy.float32:
        # Finite differences in float64: float32 ones are too noisy.
        test.check_backward_options = {
            'dtype': numpy.float64,
            'atol': 1e-4,
            'rtol': 1e-3,
        }
        test.check_double_backward_options = {
            'dtype': numpy.float64,
            'atol': 1e-3,
            'rtol': 1e-2,
        }


@testing.parameterize(
    *testing.product(
        {
            'shape_pool_axis': [
                ((2, 6), 2, 1),
                ((2, 6), 3, 1),
                ((3, 2, 4), 2, -1),
                ((4, 2), 2, 0),
                ((2, 4, 2), 4, 1),
            ],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestMaxout(testing.FunctionTestCase):
    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        # Distinct values 0.1 apart: no ties, so maxout is differentiable.
        shape, _, _ = self.shape_pool_axis
        size = int(numpy.prod(shape))
        x = (numpy.random.permutation(size) - size / 2) * 0.1
        return (x.reshape(shape).astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        _, pool_size, axis = self.shape_pool_axis
        return (F.maxout(x, pool_size, axis=axis),)

    def forward_expected(self, inputs):
        (x,) = inputs
        _, pool_size, axis = self.shape_pool_axis
        axis %= x.ndim
        # Move the pooled axis last, group it, take the max, move it back.
        moved = numpy.moveaxis(x, axis, -1)
        groups = moved.reshape(moved.shape[:-1] + (-1, pool_size))
        return (numpy.moveaxis(groups.max(axis=-1), -1, axis),)


def test_default_axis_is_1():
    x = numpy.arange(8, dtype=numpy.float32).reshape(1, 4, 2)
    y = F.maxout(x, 2)
    assert y.shape == (1, 2, 2)
    numpy.testing.assert_array_equal(y.array, [[[2, 3], [6, 7]]])


def test_tied_maxima_all_receive_the_gradient():
    x = chainerlite.Variable(numpy.array([[1.0, 1.0, 0.0, 2.0]]))
    y = F.maxout(x, 2)
    y.grad = numpy.array([[3.0, 5.0]])
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [[3.0, 3.0, 0.0, 5.0]])


@pytest.mark.parametrize('pool_size', [0, -2])
def test_pool_size_must_be_positive(pool_size):
    with pytest.raises(ValueError, match='pool_size'):
        F.maxout(numpy.ones((2, 4), numpy.float32), pool_size)


def test_axis_size_must_be_a_multiple_of_pool_size():
    with pytest.raises(type_check.InvalidType, match='Maxout'):
        F.maxout(numpy.ones((2, 5), numpy.float32), 2)


@pytest.mark.parametrize('axis', [2, -3])
def test_axis_out_of_range_is_invalid(axis):
    with pytest.raises(type_check.InvalidType, match='Maxout'):
        F.maxout(numpy.ones((2, 4), numpy.float32), 2, axis=axis)


def test_integer_input_is_invalid():
    with pytest.raises(type_check.InvalidType, match='Maxout'):
        F.maxout(numpy.ones((2, 4), numpy.int32), 2)


@pytest.mark.parametrize('shape, axis', [((2,), 1), ((2,), -2), ((2, 6), 2)])
def test_axis_out_of_range_is_index_error(shape, axis):
    # Chainer 7.8.1 reads x.shape[axis] before anything else
    x = numpy.zeros(shape, numpy.int32)
    with pytest.raises(IndexError, match='Maxout') as info:
        F.maxout(x, 2, axis=axis)
    assert isinstance(info.value, type_check.InvalidType)
