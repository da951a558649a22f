import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite import testing
from chainerlite.utils import type_check


def _tolerances(test):
    if test.dtype == numpy.float16:
        test.check_forward_options = {'atol': 5e-3, 'rtol': 5e-3}
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
            'shape_axis': [
                ((), None),
                ((3, 4), None),
                ((3, 4), 1),
                ((2, 3, 4), -1),
                ((2, 3, 4), (0, 2)),
                ((2, 3), ()),
            ],
            'keepdims': [False, True],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestMean(testing.FunctionTestCase):
    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        shape, _ = self.shape_axis
        return (numpy.random.uniform(-1, 1, shape).astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        _, axis = self.shape_axis
        return (F.mean(x, axis=axis, keepdims=self.keepdims),)

    def forward_expected(self, inputs):
        (x,) = inputs
        _, axis = self.shape_axis
        y = x.astype(numpy.float64).mean(axis=axis, keepdims=self.keepdims)
        return (numpy.asarray(y, self.dtype),)


@testing.parameterize(
    *testing.product(
        {
            'shape_axis': [
                ((3, 4), None),
                ((3, 4), 1),
                ((2, 3, 4), -2),
                ((2, 3, 4), (0,)),
            ],
            'keepdims': [False, True],
            'use_weights': [False, True],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestAverage(testing.FunctionTestCase):
    def setUp(self):
        _tolerances(self)

    def _weights_shape(self):
        shape, axis = self.shape_axis
        if axis is None:
            return shape
        (axis,) = numpy.atleast_1d(axis)
        return (shape[axis],)

    def generate_inputs(self):
        shape, _ = self.shape_axis
        x = numpy.random.uniform(-1, 1, shape).astype(self.dtype)
        if not self.use_weights:
            return (x,)
        # Positive weights keep their sum away from zero.
        w = numpy.random.uniform(0.5, 1.5, self._weights_shape())
        return x, w.astype(self.dtype)

    def forward(self, inputs, device):
        _, axis = self.shape_axis
        weights = inputs[1] if self.use_weights else None
        return (
            F.average(inputs[0], axis=axis, weights=weights, keepdims=self.keepdims),
        )

    def forward_expected(self, inputs):
        _, axis = self.shape_axis
        x = inputs[0].astype(numpy.float64)
        if not self.use_weights:
            w = numpy.ones_like(x)
        elif axis is None:
            w = inputs[1].astype(numpy.float64)
        else:
            (axis,) = numpy.atleast_1d(axis)
            shape = [1] * x.ndim
            shape[axis] = x.shape[axis]
            w = inputs[1].astype(numpy.float64).reshape(shape)
        w = numpy.broadcast_to(w, x.shape)
        y = (x * w).sum(axis=axis, keepdims=self.keepdims) / w.sum(
            axis=axis, keepdims=self.keepdims
        )
        return (numpy.asarray(y, self.dtype),)


def test_weights_receive_gradients():
    x = numpy.array([[1.0, 2.0], [3.0, 5.0]])
    w = chainerlite.Variable(numpy.array([1.0, 3.0]))
    y = F.average(x, axis=1, weights=w)
    numpy.testing.assert_allclose(y.array, [1.75, 4.5])
    F.sum(y).backward()
    # d/dw_k sum_i (sum_j x_ij w_j / sum_j w_j) = sum_i (x_ik - y_i) / 4
    numpy.testing.assert_allclose(
        w.grad, [((1 - 1.75) + (3 - 4.5)) / 4, ((2 - 1.75) + (5 - 4.5)) / 4]
    )


@pytest.mark.parametrize('func', [F.mean, F.average])
@pytest.mark.parametrize('axis', [2, -3, (0, 2)])
def test_axis_out_of_range_is_invalid(func, axis):
    with pytest.raises(type_check.InvalidType, match='Mean'):
        func(numpy.zeros((2, 3), numpy.float32), axis=axis)


@pytest.mark.parametrize('func', [F.mean, F.average])
def test_integer_input_is_invalid(func):
    with pytest.raises(type_check.InvalidType, match='Mean'):
        func(numpy.zeros((2, 3), numpy.int32))


@pytest.mark.parametrize('func', [F.mean, F.average])
def test_duplicate_axis(func):
    with pytest.raises(ValueError, match='duplicate'):
        func(numpy.zeros((2, 3), numpy.float32), axis=(1, -1))


@pytest.mark.parametrize('axis', [1.0, [0, 1]])
def test_invalid_axis_type(axis):
    with pytest.raises(TypeError):
        F.mean(numpy.zeros((2, 3), numpy.float32), axis=axis)


@pytest.mark.parametrize(
    'axis, w_shape',
    [(None, (3,)), (None, (2, 1)), (None, ()), (1, (2,)), (1, (1, 2)), (0, (3,))],
)
def test_weights_of_wrong_shape_are_invalid(axis, w_shape):
    # Broadcasting them would repeat weights, which Chainer 7.8.1 counts once
    # in the divider: its answer is not a weighted average (for the (3,)
    # weights of the x below, 34 / 6 where the average is 34 / 12).
    x = numpy.zeros((2, 3), numpy.float32)
    w = numpy.ones(w_shape, numpy.float32)
    with pytest.raises(type_check.InvalidType, match='average'):
        F.average(x, axis=axis, weights=w)


def test_weights_that_do_not_broadcast_raise_a_value_error_as_in_chainer():
    x = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(ValueError, match='weights.shape') as info:
        F.average(x, weights=numpy.ones((3, 2), numpy.float32))
    assert isinstance(info.value, type_check.InvalidType)


@pytest.mark.parametrize(
    'x_shape, w_shape, keepdims',
    [((1, 1), (1,), False), ((1,), (4,), False), ((2, 3), (2, 2, 3), True)],
)
def test_weights_broadcast_where_no_weight_repeats(x_shape, w_shape, keepdims):
    # As Chainer does: the weighted average of x broadcast to the weights
    x = numpy.arange(1, 1 + numpy.prod(x_shape), dtype=numpy.float64)
    xv = chainerlite.Variable(x.reshape(x_shape))
    w = numpy.arange(2, 2 + numpy.prod(w_shape), dtype=numpy.float64)
    wv = chainerlite.Variable(w.reshape(w_shape))
    y = F.average(xv, weights=wv, keepdims=keepdims)
    xb, wb = numpy.broadcast_arrays(xv.array, wv.array)
    expected = (xb * wb).sum() / w.sum()
    ndim = xb.ndim if keepdims else 0
    assert y.shape == (1,) * ndim
    numpy.testing.assert_allclose(y.array.ravel(), [expected])
    gradient_check.check_backward(
        lambda a, b: F.average(a, weights=b, keepdims=keepdims),
        (xv.array, wv.array),
        numpy.ones(y.shape),
    )


@pytest.mark.parametrize('w_shape', [(0,), (2, 0, 3)])
def test_empty_weights_broadcast_to_nan(w_shape):
    # no weight at all: 0 / 0, as in Chainer
    x = numpy.ones((1,) * len(w_shape), numpy.float32)
    with numpy.errstate(invalid='ignore'):
        y = F.average(x, weights=numpy.ones(w_shape, numpy.float32))
    assert y.shape == () and numpy.isnan(y.array)


def test_weights_of_an_axis_may_have_any_shape_of_its_size():
    x = numpy.arange(12, dtype=numpy.float64).reshape(3, 4)
    w = numpy.array([1.0, 2.0, 3.0])
    y = F.average(x, axis=0, weights=w.reshape(3, 1))
    numpy.testing.assert_allclose(y.array, F.average(x, axis=0, weights=w).array)
    one = F.average(numpy.array([5.0]), axis=0, weights=numpy.array(2.0))
    assert one.array == 5.0


def test_weights_of_other_dtype_are_invalid():
    x = numpy.zeros((2, 3), numpy.float32)
    w = numpy.ones(3, numpy.float64)
    with pytest.raises(type_check.InvalidType, match='average'):
        F.average(x, axis=1, weights=w)


@pytest.mark.parametrize('axis', [2, -3])
def test_weighted_axis_out_of_range_is_invalid(axis):
    x = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(type_check.InvalidType, match='average'):
        F.average(x, axis=axis, weights=numpy.ones(3, numpy.float32))


def test_weights_with_several_axes_are_not_supported():
    x = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(ValueError, match='tuple axis'):
        F.average(x, axis=(0, 1), weights=numpy.ones((2, 3), numpy.float32))


@pytest.mark.parametrize('w_shape', [(1,), (1, 1), ()])
@pytest.mark.parametrize('keepdims', [False, True])
def test_empty_axis_tuple_weighs_each_element_by_itself(w_shape, keepdims):
    # Averaging over no axis: each element times the single weight, over
    # that weight, so x itself; the gradient of the weight is then zero.
    x = chainerlite.Variable(numpy.arange(6, dtype=numpy.float64).reshape(2, 3))
    w = chainerlite.Variable(numpy.full(w_shape, 2.5))
    y = F.average(x, axis=(), weights=w, keepdims=keepdims)
    numpy.testing.assert_allclose(y.array, x.array)
    F.sum(y).backward()
    numpy.testing.assert_allclose(x.grad, numpy.ones((2, 3)))
    numpy.testing.assert_allclose(w.grad, numpy.zeros(w_shape), atol=1e-12)


def test_empty_axis_tuple_needs_a_single_weight():
    x = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(type_check.InvalidType, match='weights.size == 1'):
        F.average(x, axis=(), weights=numpy.ones(3, numpy.float32))


@pytest.mark.parametrize('axis', [None, 1, (0, 1)])
def test_mean_over_no_element_raises_zero_division_as_in_chainer(axis):
    x = chainerlite.Variable(numpy.zeros((2, 0, 3), numpy.float32))
    with pytest.raises(ZeroDivisionError, match='mean: no element'):
        F.mean(x, axis=axis)
    with pytest.raises(ZeroDivisionError, match='mean: no element'):
        F.average(x, axis=axis)


def test_mean_of_an_empty_result_is_empty():
    # a reduced axis that is not empty: nothing is divided by zero
    x = chainerlite.Variable(numpy.zeros((2, 0, 3), numpy.float32))
    y = F.mean(x, axis=0)
    assert y.shape == (0, 3)
    F.sum(y).backward()
    assert x.grad.shape == (2, 0, 3)
