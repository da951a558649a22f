import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import testing


@testing.parameterize(
    *testing.product(
        {
            'shape': [(), (3, 2)],
            'in_type': [numpy.float16, numpy.float32, numpy.float64],
            'out_type': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestCast(testing.FunctionTestCase):
    def setUp(self):
        if numpy.float16 in (self.in_type, self.out_type):
            # Casting to float16 rounds the output: a wide step keeps the
            # finite differences of this linear function accurate.
            options = {
                'dtype': numpy.float64,
                'eps': 2.0**-2,
                'atol': 5e-3,
                'rtol': 1e-2,
            }
        else:
            options = {'dtype': numpy.float64, 'atol': 1e-4, 'rtol': 1e-3}
        self.check_backward_options = options
        self.check_double_backward_options = options

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape).astype(self.in_type)
        return (x,)

    def forward(self, inputs, device):
        (x,) = inputs
        return (F.cast(x, self.out_type),)

    def forward_expected(self, inputs):
        (x,) = inputs
        return (x.astype(self.out_type),)


def test_dtype_given_as_string():
    y = F.cast(numpy.zeros(3, numpy.float64), 'float16')
    assert y.dtype == numpy.float16


def test_gradient_has_the_input_dtype():
    x = chainerlite.Variable(numpy.ones(3, numpy.float16))
    F.sum(F.cast(x, numpy.float64)).backward()
    assert x.grad.dtype == numpy.float16
    numpy.testing.assert_array_equal(x.grad, [1, 1, 1])


def test_same_dtype_without_backprop_returns_the_input():
    x = chainerlite.Variable(numpy.zeros(3, numpy.float32))
    with chainerlite.no_backprop_mode():
        assert F.cast(x, numpy.float32) is x
    y = F.cast(x, numpy.float32)
    assert y is not x and y.creator is not None


def test_integer_input_gets_no_gradient():
    x = chainerlite.Variable(numpy.arange(3, dtype=numpy.int32))
    y = F.cast(x, numpy.float32)
    numpy.testing.assert_array_equal(y.array, [0, 1, 2])
    (gx,) = y.creator.backward(
        (0,), (chainerlite.Variable(numpy.ones(3, numpy.float32)),)
    )
    assert gx is None


def test_unknown_dtype():
    with pytest.raises(TypeError):
        F.cast(numpy.zeros(3, numpy.float32), 'no such type')
