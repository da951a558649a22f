import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


@testing.parameterize(
    *testing.product(
        {
            'shapes_axis': [
                ((2, 3, 4), (3,), 1),
                ((2, 3, 4), (3, 4), 1),
                ((2, 3, 4), (2,), 0),
                ((2, 3, 4), (4,), 2),
                ((2, 3), (2, 3), 0),
            ],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestScale(testing.FunctionTestCase):
    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-3, 'rtol': 1e-3}
            self.check_backward_options = {
                'dtype': numpy.float64,
                'atol': 5e-3,
                'rtol': 1e-2,
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
        x_shape, y_shape, _ = self.shapes_axis
        return tuple(
            numpy.random.uniform(-1, 1, shape).astype(self.dtype)
            for shape in (x_shape, y_shape)
        )

    def forward(self, inputs, device):
        x, y = inputs
        return (F.scale(x, y, axis=self.shapes_axis[2]),)

    def forward_expected(self, inputs):
        x, y = inputs
        axis = self.shapes_axis[2]
        y = y.reshape((1,) * axis + y.shape + (1,) * (x.ndim - axis - y.ndim))
        return (x * y,)


def test_axis_defaults_to_one():
    x = numpy.random.uniform(-1, 1, (2, 3, 2)).astype(numpy.float32)
    y = numpy.random.uniform(-1, 1, 3).astype(numpy.float32)
    numpy.testing.assert_array_equal(F.scale(x, y).array, x * y[:, None])


@pytest.mark.parametrize('y_shape, axis', [((4,), 1), ((3, 2), 1), ((5,), 0)])
def test_shapes_that_do_not_broadcast(y_shape, axis):
    x = numpy.zeros((2, 3, 4), numpy.float32)
    y = numpy.zeros(y_shape, numpy.float32)
    with pytest.raises(type_check.InvalidType):
        F.scale(x, y, axis=axis)


def test_debug_mode_checks_the_shapes():
    x = numpy.zeros((2, 3, 4), numpy.float32)
    y = numpy.zeros((1,), numpy.float32)
    F.scale(x, y)  # broadcasts (1,) like Chainer outside debug mode
    with chainerlite.using_config('debug', True):
        # also an AssertionError, as Chainer asserts the shapes there
        with pytest.raises(type_check.InvalidType, match='scale') as e:
            F.scale(x, y)
    assert isinstance(e.value, AssertionError)
