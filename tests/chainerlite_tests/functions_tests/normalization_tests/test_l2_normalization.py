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
                ((3, 4), 1),
                ((2, 3, 4), 1),
                ((2, 3, 4), (1, 2)),
                ((2, 3, 4), -1),
                ((3, 4), 0),
            ],
            'eps': [1e-5, 0.5],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestNormalize(testing.FunctionTestCase):
    def setUp(self):
        self.shape, self.axis = self.shape_axis
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 5e-3, 'rtol': 5e-3}
            self.check_backward_options = {
                'dtype': numpy.float64,
                'atol': 2e-2,
                'rtol': 2e-2,
            }
            self.check_double_backward_options = {
                'dtype': numpy.float64,
                'atol': 5e-2,
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
        x = numpy.random.uniform(-1, 1, self.shape)
        return (x.astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        return (F.normalize(x, eps=self.eps, axis=self.axis),)

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        norm = numpy.sqrt((x * x).sum(axis=self.axis, keepdims=True))
        return ((x / (norm + self.eps)).astype(self.dtype),)


def test_default_axis_is_one():
    x = numpy.array([[3.0, 4.0], [0.0, 2.0]])
    numpy.testing.assert_allclose(
        F.normalize(x).array, [[0.6, 0.8], [0.0, 1.0]], rtol=1e-4
    )


def test_zero_vector_stays_zero_with_gradient_over_eps():
    x = numpy.array([[0.0, 0.0, 0.0], [1.0, 2.0, 2.0]])
    xv = chainerlite.Variable(x)
    y = F.normalize(xv, eps=0.5)
    numpy.testing.assert_array_equal(y.array[0], [0, 0, 0])
    y.grad = numpy.ones((2, 3))
    y.backward()
    numpy.testing.assert_allclose(xv.grad[0], [2, 2, 2])
    assert numpy.isfinite(xv.grad).all()


@pytest.mark.parametrize(
    'shape, dtype, axis',
    [
        ((2, 3), numpy.int32, 1),
        ((2, 3), numpy.float32, 2),
        ((2, 3), numpy.float32, (0, -3)),
    ],
)
def test_invalid_inputs(shape, dtype, axis):
    with pytest.raises(type_check.InvalidType, match='NormalizeL2'):
        F.normalize(numpy.ones(shape, dtype), axis=axis)


def test_axis_none_normalizes_over_every_axis():
    # Chainer 7.8.1 accepts axis=None (found by the differential harness,
    # tools/diff_chainer); values and gradient recorded from Chainer.
    x = chainerlite.Variable(numpy.arange(6, dtype=numpy.float32).reshape(2, 3) - 2)
    y = F.normalize(x, axis=None)
    (gx,) = chainerlite.grad([F.sum(y * y[::-1])], [x])
    numpy.testing.assert_allclose(
        y.array,
        [[-0.45883039, -0.22941519, 0.0], [0.22941519, 0.45883039, 0.68824559]],
        rtol=1e-6,
    )
    numpy.testing.assert_allclose(
        gx.array,
        [[0.01662063, 0.1662043, 0.31578797], [-0.1662043, -0.01662063, 0.13296305]],
        rtol=1e-5,
    )


@pytest.mark.parametrize('shape, axis', [((3,), 1), ((3, 2), -3), ((3, 2), (0, 5))])
def test_axis_out_of_range_is_axis_error(shape, axis):
    x = numpy.ones(shape, numpy.float32)
    with pytest.raises(numpy.exceptions.AxisError) as info:
        F.normalize(x, axis=axis)
    assert isinstance(info.value, type_check.InvalidType)
    assert 'NormalizeL2' in str(info.value)
