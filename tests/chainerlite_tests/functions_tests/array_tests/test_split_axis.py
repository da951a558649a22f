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
            'shape_ios_axis': [
                ((2, 6), 3, 1),
                ((6, 2), 2, 0),
                ((2, 7, 3), [2, 5], 1),
                ((2, 7, 3), (2, 2, 6), -2),
                ((2, 7), numpy.array([1, 3]), 1),
                ((2, 7), [], 1),
                ((2, 3), [0, 3], 1),
                ((4,), 1, 0),
            ],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSplitAxis(testing.FunctionTestCase):
    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        shape = self.shape_ios_axis[0]
        return (numpy.random.uniform(-1, 1, shape).astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        return F.split_axis(x, *self.shape_ios_axis[1:])

    def forward_expected(self, inputs):
        (x,) = inputs
        return tuple(numpy.split(x, *self.shape_ios_axis[1:]))


def test_force_tuple():
    x = numpy.zeros((2, 3), numpy.float32)
    ys = F.split_axis(x, 1, 0)
    assert isinstance(ys, tuple) and len(ys) == 1
    y = F.split_axis(x, 1, 0, force_tuple=False)
    assert isinstance(y, chainerlite.Variable) and y.shape == (2, 3)
    ys = F.split_axis(x, 2, 0, force_tuple=False)
    assert isinstance(ys, tuple) and len(ys) == 2


def test_gradient_of_unused_outputs_is_zero():
    x = chainerlite.Variable(numpy.ones((2, 4), numpy.float32))
    ys = F.split_axis(x, [1, 3], axis=1)
    F.sum(ys[1]).backward()
    numpy.testing.assert_array_equal(x.grad, [[0, 1, 1, 0], [0, 1, 1, 0]])


@pytest.mark.parametrize('ios, axis', [(4, 1), (2, 2), (2, -3)])
def test_invalid_inputs(ios, axis):
    with pytest.raises(type_check.InvalidType, match='SplitAxis'):
        F.split_axis(numpy.zeros((2, 3), numpy.float32), ios, axis)


@pytest.mark.parametrize('ios', [1.5, [1.5], numpy.array([[1]]), None])
def test_bad_indices_type(ios):
    with pytest.raises(TypeError, match='split_axis'):
        F.split_axis(numpy.zeros((2, 3), numpy.float32), ios, 1)


@pytest.mark.parametrize('ios', [[2, 1], 0, -1])
def test_bad_indices_value(ios):
    with pytest.raises(ValueError, match='split_axis'):
        F.split_axis(numpy.zeros((2, 3), numpy.float32), ios, 1)


def test_an_index_past_the_end_of_the_axis_is_refused():
    x = numpy.ones((2, 6), numpy.float32)
    with pytest.raises(type_check.InvalidType):
        F.split_axis(x, [2, 7], 1)
    # the last index may be the axis length (an empty last piece)
    pieces = F.split_axis(x, [2, 6], 1)
    assert [p.shape for p in pieces] == [(2, 2), (2, 4), (2, 0)]
