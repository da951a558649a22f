import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite.functions.activation import lstm as activation_lstm
from chainerlite.functions.rnn import lstm as lstm_module
from chainerlite import testing
from chainerlite.utils import type_check


def _tolerances(test):
    if test.dtype == numpy.float16:
        test.check_forward_options = {'atol': 1e-3, 'rtol': 1e-3}
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
        # Finite differences in float64: float32 ones are too noisy.
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


def _sigmoid(x):
    return 1 / (1 + numpy.exp(-x))


def _lstm_reference(c_prev, x):
    # Channel 4 j + k of x feeds gate k (a, i, f, o) of unit j.
    c_prev = c_prev.astype(numpy.float64)
    x = x.astype(numpy.float64)
    a, i, f, o = (x[:, k::4] for k in range(4))
    batch = len(x)
    c = c_prev.copy()
    c[:batch] = numpy.tanh(a) * _sigmoid(i) + _sigmoid(f) * c_prev[:batch]
    h = _sigmoid(o) * numpy.tanh(c[:batch])
    return c, h


@testing.parameterize(
    *testing.product(
        {
            'shapes': [
                ((3, 2), (3, 8)),  # c_prev, x
                ((4, 2), (2, 8)),  # x has fewer rows than c_prev
                ((2, 2, 3), (2, 8, 3)),  # trailing axes
                # cells of 37 elements: the vector kernels of float32, with
                # blocks of 16 cells and a tail
                ((4, 2, 37), (3, 8, 37)),
            ],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestLSTM(testing.FunctionTestCase):
    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        c_shape, x_shape = self.shapes
        c_prev = numpy.random.uniform(-1, 1, c_shape)
        x = numpy.random.uniform(-1, 1, x_shape)
        return c_prev.astype(self.dtype), x.astype(self.dtype)

    def forward(self, inputs, device):
        c_prev, x = inputs
        return F.lstm(c_prev, x)

    def forward_expected(self, inputs):
        c, h = _lstm_reference(*inputs)
        return c.astype(self.dtype), h.astype(self.dtype)


@pytest.mark.parametrize('output', [0, 1])
@pytest.mark.parametrize('c_rows', [3, 5])
def test_gradients_through_one_output(output, c_rows):
    # Only c or only h is used: the other output gets no gradient.
    c_prev = numpy.random.uniform(-1, 1, (c_rows, 2))
    x = numpy.random.uniform(-1, 1, (3, 8))

    def f(c_prev, x):
        return F.lstm(c_prev, x)[output]

    y_shape = (c_rows, 2) if output == 0 else (3, 2)
    gy = numpy.random.uniform(-1, 1, y_shape)
    ggs = (
        numpy.random.uniform(-1, 1, c_prev.shape),
        numpy.random.uniform(-1, 1, x.shape),
    )
    gradient_check.check_backward(f, (c_prev, x), gy)
    gradient_check.check_double_backward(f, (c_prev, x), gy, ggs)


def test_rows_beyond_x_keep_the_previous_state():
    c_prev = numpy.random.uniform(-1, 1, (4, 3)).astype(numpy.float32)
    c, h = F.lstm(c_prev, numpy.zeros((1, 12), numpy.float32))
    assert h.shape == (1, 3)
    numpy.testing.assert_array_equal(c.array[1:], c_prev[1:])


@pytest.mark.parametrize(
    'c_shape, x_shape, x_dtype',
    [
        ((3, 2), (3, 6), numpy.float32),  # x.shape[1] != 4 * n
        ((2, 2), (3, 8), numpy.float32),  # more rows in x than in c_prev
        ((3, 2), (3, 8), numpy.float64),  # dtypes differ
        ((3, 2), (3, 8, 1), numpy.float32),  # ndims differ
        ((3, 2, 2), (3, 8, 3), numpy.float32),  # trailing axes differ
        ((3,), (3,), numpy.float32),  # no unit axis
    ],
)
def test_bad_inputs_are_invalid(c_shape, x_shape, x_dtype):
    c_prev = numpy.zeros(c_shape, numpy.float32)
    if len(c_shape) < 2 and len(x_shape) < 2:
        # the check reads shape[1]: IndexError, as in Chainer 7.8.1
        with pytest.raises(IndexError):
            F.lstm(c_prev, numpy.zeros(x_shape, x_dtype))
        return
    with pytest.raises(type_check.InvalidType, match='LSTM'):
        F.lstm(c_prev, numpy.zeros(x_shape, x_dtype))


def test_integer_inputs_are_invalid():
    with pytest.raises(type_check.InvalidType, match='LSTM'):
        F.lstm(numpy.zeros((3, 2), numpy.int32), numpy.zeros((3, 8), numpy.int32))


def test_lstm_grad_node_is_differentiable():
    # LSTMGrad: (c_prev, x, c_next, gc, gh) -> (gc_prev, gx); c_next is an
    # input of its own, not recomputed from c_prev and x.
    shapes = [(4, 2), (3, 8), (4, 2), (4, 2), (3, 2)]
    inputs = tuple(numpy.random.uniform(-1, 1, s) for s in shapes)
    ggs = (numpy.random.uniform(-1, 1, (4, 2)), numpy.random.uniform(-1, 1, (3, 8)))
    gradient_check.check_backward(lstm_module.LSTMGrad(), inputs, ggs)


def test_lstm_grad_matches_the_backward_of_lstm():
    c_prev = numpy.random.uniform(-1, 1, (4, 2))
    x = numpy.random.uniform(-1, 1, (3, 8))
    gc = numpy.random.uniform(-1, 1, (4, 2))
    gh = numpy.random.uniform(-1, 1, (3, 2))
    c_var, x_var = chainerlite.Variable(c_prev), chainerlite.Variable(x)
    c, h = F.lstm(c_var, x_var)
    chainerlite.backward([c, h], [chainerlite.Variable(gc), chainerlite.Variable(gh)])
    gc_prev, gx = lstm_module.LSTMGrad()(c_prev, x, c.array, gc, gh)
    numpy.testing.assert_allclose(gc_prev.array, c_var.grad)
    numpy.testing.assert_allclose(gx.array, x_var.grad)


def test_old_module_path_is_the_same_function():
    assert activation_lstm.lstm is F.lstm
    assert activation_lstm.LSTM is lstm_module.LSTM
