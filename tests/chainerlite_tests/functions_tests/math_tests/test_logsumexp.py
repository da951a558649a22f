import warnings

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
                ((2, 3, 4), -1),
                ((2, 3, 4), (0, 2)),
                ((2, 3), ()),
            ],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestLogSumExp(testing.FunctionTestCase):
    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 5e-3, 'rtol': 5e-3}
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
        shape, _ = self.shape_axis
        return (numpy.random.uniform(-2, 2, shape).astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        _, axis = self.shape_axis
        return (F.logsumexp(x, axis=axis),)

    def forward_expected(self, inputs):
        (x,) = inputs
        _, axis = self.shape_axis
        y = numpy.log(numpy.exp(x.astype(numpy.float64)).sum(axis=axis))
        return (numpy.asarray(y, self.dtype),)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_large_inputs_do_not_overflow(dtype):
    x = chainerlite.Variable(numpy.array([[1000.0, 1000.0], [-1000.0, 0.0]], dtype))
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        y = F.logsumexp(x, axis=1)
        F.sum(y).backward()
    numpy.testing.assert_allclose(y.array, [1000 + numpy.log(2), 0.0], rtol=1e-3)
    numpy.testing.assert_allclose(x.grad, [[0.5, 0.5], [0.0, 1.0]])


def test_infinite_maximum_gives_nan_as_chainer():
    # Chainer shifts every slice by its maximum, so inf - inf makes the
    # slice NaN, its gradient too; the finite slice is unaffected.
    x = chainerlite.Variable(
        numpy.array([[-numpy.inf, -numpy.inf], [numpy.inf, 0.0], [0.0, 0.0]])
    )
    with numpy.errstate(invalid='ignore'):
        y = F.logsumexp(x, axis=1)
        F.sum(y).backward()
    numpy.testing.assert_array_equal(y.array, [numpy.nan, numpy.nan, numpy.log(2)])
    numpy.testing.assert_array_equal(
        x.grad, [[numpy.nan, numpy.nan], [numpy.nan, numpy.nan], [0.5, 0.5]]
    )


@pytest.mark.parametrize('axis', [2, -3, (0, 2)])
def test_axis_out_of_range_is_invalid(axis):
    with pytest.raises(type_check.InvalidType, match='LogSumExp'):
        F.logsumexp(numpy.ones((2, 3), numpy.float32), axis=axis)


def test_integer_input_is_invalid():
    with pytest.raises(type_check.InvalidType, match='LogSumExp'):
        F.logsumexp(numpy.ones((2, 3), numpy.int32))


def test_duplicate_axis():
    with pytest.raises(ValueError, match='duplicate'):
        F.logsumexp(numpy.ones((2, 3), numpy.float32), axis=(0, -2))
