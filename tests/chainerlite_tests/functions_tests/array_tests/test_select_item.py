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
            'shape': [(4, 3), (1, 5), (0, 3)],
            't_dtype': [numpy.int32, numpy.int64],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSelectItem(testing.FunctionTestCase):
    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        t = numpy.random.randint(0, self.shape[1], self.shape[0])
        return x, t.astype(self.t_dtype)

    def forward(self, inputs, device):
        return (F.select_item(*inputs),)

    def forward_expected(self, inputs):
        x, t = inputs
        return (x[numpy.arange(len(t)), t],)


def test_index_gets_no_gradient():
    x = chainerlite.Variable(numpy.ones((2, 3), numpy.float32))
    t = chainerlite.Variable(numpy.array([2, 0], numpy.int32))
    F.sum(F.select_item(x, t)).backward()
    assert t.grad is None
    numpy.testing.assert_array_equal(x.grad, [[0, 0, 1], [1, 0, 0]])


@pytest.mark.parametrize(
    'x_shape, t',
    [
        ((2, 3), numpy.array([0, 1], numpy.float32)),
        ((2, 3), numpy.array([0, 1, 2], numpy.int32)),
        ((2, 3), numpy.array([[0], [1]], numpy.int32)),
        ((6,), numpy.array([0], numpy.int32)),
        ((2, 3), numpy.array([0, 1], numpy.uint8)),
    ],
)
def test_invalid_inputs(x_shape, t):
    with pytest.raises(type_check.InvalidType, match='SelectItem'):
        F.select_item(numpy.zeros(x_shape, numpy.float32), t)


@pytest.mark.parametrize('t', [[0, 3], [-4, 0]])
def test_out_of_bounds_index(t):
    with pytest.raises(IndexError, match='select_item'):
        F.select_item(numpy.zeros((2, 3), numpy.float32), numpy.array(t, numpy.int32))


def test_negative_label_counts_from_the_end():
    # as Chainer 7.8.1's NumPy indexing (outside debug mode)
    x = chainerlite.Variable(numpy.arange(6, dtype=numpy.float32).reshape(2, 3))
    y = F.select_item(x, numpy.array([-1, -3], numpy.int32))
    numpy.testing.assert_array_equal(y.array, [2, 3])
    y.grad = numpy.array([10, 20], numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [[0, 0, 10], [20, 0, 0]])


def test_negative_label_is_refused_in_debug_mode():
    x = numpy.zeros((2, 3), numpy.float32)
    with chainerlite.using_config('debug', True):
        with pytest.raises(ValueError, match='select_item: each label'):
            F.select_item(x, numpy.array([-1, 0], numpy.int32))


def test_label_past_the_end_is_value_and_index_error():
    # Chainer 7.8.1 indexes with it: an IndexError there
    x = numpy.zeros((1, 1), numpy.float32)
    with pytest.raises(ValueError, match='select_item: out of bounds') as info:
        F.select_item(x, numpy.array([1], numpy.int32))
    assert isinstance(info.value, IndexError)
