import numpy
import pytest

import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite import testing
from chainerlite.utils import type_check


def _sigmoid(x):
    return 1 / (1 + numpy.exp(-x))


def _tree_lstm_reference(*inputs):
    # x is 3 + N blocks of n channels: a, i, o, f_1, ..., f_N.
    cs, x = inputs[:-1], inputs[-1].astype(numpy.float64)
    n = x.shape[1] // (3 + len(cs))
    block = [x[:, k * n : (k + 1) * n] for k in range(3 + len(cs))]
    c = numpy.tanh(block[0]) * _sigmoid(block[1])
    for f, c_child in zip(block[3:], cs):
        c = c + _sigmoid(f) * c_child
    return c, _sigmoid(block[2]) * numpy.tanh(c)


@testing.parameterize(
    *testing.product({'n_children': [0, 1, 3], 'dtype': [numpy.float32, numpy.float64]})
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestTreeLSTM(testing.FunctionTestCase):
    def setUp(self):
        if self.dtype == numpy.float32:
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
        cs = [
            numpy.random.uniform(-1, 1, (3, 2)).astype(self.dtype)
            for _ in range(self.n_children)
        ]
        x = numpy.random.uniform(-1, 1, (3, 2 * (3 + self.n_children)))
        return tuple(cs) + (x.astype(self.dtype),)

    def forward(self, inputs, device):
        return F.tree_lstm(*inputs)

    def forward_expected(self, inputs):
        c, h = _tree_lstm_reference(*inputs)
        return c.astype(self.dtype), h.astype(self.dtype)


def test_gradients_of_the_output_only():
    inputs = (numpy.random.uniform(-1, 1, (2, 3)), numpy.random.uniform(-1, 1, (2, 12)))
    gradient_check.check_backward(
        lambda c, x: F.tree_lstm(c, x)[1], inputs, numpy.random.uniform(-1, 1, (2, 3))
    )


@pytest.mark.parametrize(
    'c_shape, x_shape, dtype',
    [
        ((3, 2), (3, 10), numpy.float32),  # x.shape[1] != (3 + N) n
        ((2, 2), (3, 8), numpy.float32),  # batches differ
        ((3, 2), (3, 8), numpy.float64),  # dtypes differ
    ],
)
def test_bad_inputs_are_invalid(c_shape, x_shape, dtype):
    with pytest.raises(type_check.InvalidType, match='TreeLSTM'):
        F.tree_lstm(numpy.zeros(c_shape, numpy.float32), numpy.zeros(x_shape, dtype))
