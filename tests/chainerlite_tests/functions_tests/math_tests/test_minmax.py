import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


def _distinct(shape, dtype):
    # Integers one apart: no ties, and far from ties for finite differences.
    x = numpy.random.permutation(int(numpy.prod(shape))) - 5
    return x.reshape(shape).astype(dtype)


@testing.parameterize(
    *testing.product(
        {
            'func_ref': [(F.max, numpy.amax), (F.min, numpy.amin)],
            'shape_axis': [
                ((), None),
                ((3, 4), None),
                ((3, 4), 0),
                ((2, 3, 4), -1),
                ((2, 3, 4), (0, 2)),
            ],
            'keepdims': [False, True],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestMinMax(testing.FunctionTestCase):
    def setUp(self):
        if self.dtype != numpy.float64:
            self.check_backward_options = {'dtype': numpy.float64}
            self.check_double_backward_options = {'dtype': numpy.float64}

    def generate_inputs(self):
        shape, _ = self.shape_axis
        return (_distinct(shape, self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        _, axis = self.shape_axis
        return (self.func_ref[0](x, axis=axis, keepdims=self.keepdims),)

    def forward_expected(self, inputs):
        (x,) = inputs
        _, axis = self.shape_axis
        y = self.func_ref[1](x, axis=axis, keepdims=self.keepdims)
        return (numpy.asarray(y),)


@testing.parameterize(
    *testing.product(
        {
            'func_ref': [(F.argmax, numpy.argmax), (F.argmin, numpy.argmin)],
            'shape_axis': [((), None), ((3, 4), None), ((3, 4), 0), ((2, 3, 4), -1)],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestArgMinMax(testing.FunctionTestCase):
    skip_backward_test = True
    skip_double_backward_test = True

    def generate_inputs(self):
        shape, _ = self.shape_axis
        return (_distinct(shape, self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        _, axis = self.shape_axis
        return (self.func_ref[0](x, axis=axis),)

    def forward_expected(self, inputs):
        (x,) = inputs
        _, axis = self.shape_axis
        return (numpy.asarray(self.func_ref[1](x, axis=axis), numpy.int32),)


@pytest.mark.parametrize('func, tied', [(F.max, 3.0), (F.min, -1.0)])
def test_ties_all_receive_the_gradient(func, tied):
    x = chainerlite.Variable(
        numpy.array([[tied, 1.0, tied], [2.0, 2.0, 2.0]], numpy.float32)
    )
    y = func(x, axis=1)
    y.grad = numpy.array([1.0, 10.0], numpy.float32)
    y.backward()
    expected_first = [1.0 if v == tied else 0.0 for v in x.array[0]]
    numpy.testing.assert_array_equal(x.grad, [expected_first, [10.0] * 3])


@pytest.mark.parametrize('func, expected', [(F.argmax, 1), (F.argmin, 0)])
def test_arg_of_ties_is_the_first(func, expected):
    y = func(numpy.array([1.0, 3.0, 3.0, 1.0], numpy.float32))
    assert y.array == expected


@pytest.mark.parametrize('func', [F.argmax, F.argmin])
def test_indices_have_no_gradient(func):
    x = chainerlite.Variable(numpy.ones((2, 3), numpy.float32))
    y = func(x, axis=1)
    assert y.dtype == numpy.int32
    y.grad = numpy.ones(2, numpy.int32)
    y.backward()
    assert x.grad is None


@pytest.mark.parametrize(
    'func, label',
    [(F.max, 'Max'), (F.min, 'Min'), (F.argmax, 'ArgMax'), (F.argmin, 'ArgMin')],
)
@pytest.mark.parametrize('axis', [2, -3])
def test_axis_out_of_range_is_invalid(func, label, axis):
    with pytest.raises(type_check.InvalidType, match=label):
        func(numpy.ones((2, 3), numpy.float32), axis=axis)


@pytest.mark.parametrize(
    'func, label',
    [(F.max, 'Max'), (F.min, 'Min'), (F.argmax, 'ArgMax'), (F.argmin, 'ArgMin')],
)
def test_integer_input_is_invalid(func, label):
    with pytest.raises(type_check.InvalidType, match=label):
        func(numpy.ones((2, 3), numpy.int32))


@pytest.mark.parametrize('func', [F.max, F.min])
def test_duplicate_axis(func):
    with pytest.raises(ValueError, match='duplicate'):
        func(numpy.ones((2, 3), numpy.float32), axis=(1, -1))


@pytest.mark.parametrize('func', [F.argmax, F.argmin])
def test_arg_axis_must_be_int_or_none(func):
    with pytest.raises(TypeError, match='None or int'):
        func(numpy.ones((2, 3), numpy.float32), axis=(0,))
