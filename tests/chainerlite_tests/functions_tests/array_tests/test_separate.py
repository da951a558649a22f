import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


def _tolerances(test):
    if test.dtype == numpy.float16:
        test.check_backward_options = {
            'dtype': numpy.float64,
            'atol': 5e-3,
            'rtol': 1e-2,
        }
        test.check_double_backward_options = {
            'dtype': numpy.float64,
            'atol': 5e-3,
            'rtol': 1e-2,
        }
    elif test.dtype == numpy.float32:
        test.check_backward_options = {
            'dtype': numpy.float64,
            'atol': 1e-4,
            'rtol': 1e-3,
        }
        test.check_double_backward_options = {
            'dtype': numpy.float64,
            'atol': 1e-4,
            'rtol': 1e-3,
        }


@testing.parameterize(
    *testing.product(
        {
            'shape_axis': [((3, 2), 0), ((2, 3), 1), ((2, 3, 2), -1), ((3,), 0)],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSeparate(testing.FunctionTestCase):
    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        shape, _ = self.shape_axis
        return (numpy.random.uniform(-1, 1, shape).astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        return F.separate(x, self.shape_axis[1])

    def forward_expected(self, inputs):
        (x,) = inputs
        axis = self.shape_axis[1]
        return tuple(numpy.take(x, i, axis) for i in range(x.shape[axis]))


def test_default_axis_is_zero():
    ys = F.separate(numpy.zeros((2, 3), numpy.float32))
    assert [y.shape for y in ys] == [(3,), (3,)]


@pytest.mark.parametrize('shape, axis', [((0,), 0), ((0, 3), 0), ((2, 0), 1)])
def test_empty_axis_separates_into_nothing(shape, axis):
    # Chainer 7.8.1 divides by zero here; chainerlite returns no variable,
    # as the split of an empty axis (docs/differences.rst).
    assert F.separate(numpy.zeros(shape, numpy.float32), axis=axis) == ()


def test_gradient_of_unused_outputs_is_zero():
    x = chainerlite.Variable(numpy.ones((3, 2), numpy.float32))
    ys = F.separate(x, axis=0)
    F.sum(ys[1]).backward()
    numpy.testing.assert_array_equal(x.grad, [[0, 0], [1, 1], [0, 0]])


@pytest.mark.parametrize('shape, axis', [((2, 3), 2), ((2, 3), -3), ((), 0)])
def test_axis_out_of_range_is_invalid(shape, axis):
    with pytest.raises(type_check.InvalidType, match='Separate'):
        F.separate(numpy.zeros(shape, numpy.float32), axis)
