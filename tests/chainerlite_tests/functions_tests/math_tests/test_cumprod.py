import numpy
import pytest

import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


def _cumprod_by_loop(x, axis):
    if axis is None:
        x, axis = x.ravel(), 0
    x = numpy.moveaxis(x.astype(numpy.float64), axis, 0)
    y = numpy.empty_like(x)
    running = numpy.ones(x.shape[1:])
    for i in range(len(x)):
        running = running * x[i]
        y[i] = running
    return numpy.moveaxis(y, 0, axis)


@testing.parameterize(
    *testing.product(
        {
            'shape_axis': [
                ((1,), 0),
                ((2, 3, 4), 1),
                ((2, 3, 4), -1),
                ((2, 3), None),
                ((0, 3), 0),
            ],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
            'contain_zero': [False, True],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestCumprod(testing.FunctionTestCase):
    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_backward_options = {
                'dtype': numpy.float64,
                'atol': 1e-2,
                'rtol': 1e-2,
            }
            self.check_double_backward_options = {
                'dtype': numpy.float64,
                'atol': 1e-2,
                'rtol': 1e-2,
            }
        elif self.dtype == numpy.float32:
            self.check_double_backward_options = {'atol': 1e-3, 'rtol': 1e-3}

    def generate_inputs(self):
        shape, _ = self.shape_axis
        x = numpy.random.uniform(-2, 2, shape).astype(self.dtype)
        if self.contain_zero and x.size:
            x.ravel()[x.size // 2] = 0
        return (x,)

    def forward(self, inputs, device):
        (x,) = inputs
        return (F.cumprod(x, axis=self.shape_axis[1]),)

    def forward_expected(self, inputs):
        (x,) = inputs
        return (_cumprod_by_loop(x, self.shape_axis[1]).astype(self.dtype),)


@pytest.mark.parametrize('axis', [3, -4])
def test_axis_out_of_range_is_invalid(axis):
    with pytest.raises(type_check.InvalidType, match='Cumprod'):
        F.cumprod(numpy.ones((2, 3, 4), numpy.float32), axis)


@pytest.mark.parametrize('axis', [[0], (0,)])
def test_axis_must_be_int_or_none(axis):
    with pytest.raises(TypeError, match='int or None'):
        F.cumprod(numpy.ones((2, 3), numpy.float32), axis)
