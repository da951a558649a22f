import numpy
import pytest

import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite import testing
from chainerlite.functions.rnn import slstm
from chainerlite.utils import type_check


def _sigmoid(x):
    return 1 / (1 + numpy.exp(-x))


def _slstm_reference(c1, c2, x1, x2):
    # Channel 4 j + k of x feeds gate k (a, i, f, o) of unit j.
    g1 = [x1[:, k::4].astype(numpy.float64) for k in range(4)]
    g2 = [x2[:, k::4].astype(numpy.float64) for k in range(4)]
    c = (
        numpy.tanh(g1[0]) * _sigmoid(g1[1])
        + numpy.tanh(g2[0]) * _sigmoid(g2[1])
        + _sigmoid(g1[2]) * c1
        + _sigmoid(g2[2]) * c2
    )
    h = _sigmoid(g1[3] + g2[3]) * numpy.tanh(c)
    return c, h


@testing.parameterize(
    *testing.product(
        {'c_shape': [(3, 2), (2, 2, 3)], 'dtype': [numpy.float32, numpy.float64]}
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSLSTM(testing.FunctionTestCase):
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
        x_shape = (self.c_shape[0], 4 * self.c_shape[1]) + self.c_shape[2:]
        return tuple(
            numpy.random.uniform(-1, 1, s).astype(self.dtype)
            for s in (self.c_shape, self.c_shape, x_shape, x_shape)
        )

    def forward(self, inputs, device):
        return F.slstm(*inputs)

    def forward_expected(self, inputs):
        c, h = _slstm_reference(*inputs)
        return c.astype(self.dtype), h.astype(self.dtype)


def test_slstm_grad_node_is_differentiable():
    shapes = [(3, 2)] * 2 + [(3, 8)] * 2 + [(3, 2)] * 3
    inputs = tuple(numpy.random.uniform(-1, 1, s) for s in shapes)
    ggs = tuple(numpy.random.uniform(-1, 1, s) for s in shapes[:4])
    gradient_check.check_backward(slstm.SLSTMGrad(), inputs, ggs)


@pytest.mark.parametrize('output', [0, 1])
def test_gradients_through_one_output(output):
    inputs = tuple(
        numpy.random.uniform(-1, 1, s) for s in [(3, 2), (3, 2), (3, 8), (3, 8)]
    )

    def f(*xs):
        return F.slstm(*xs)[output]

    gy = numpy.random.uniform(-1, 1, (3, 2))
    ggs = tuple(numpy.random.uniform(-1, 1, x.shape) for x in inputs)
    gradient_check.check_double_backward(f, inputs, gy, ggs)


@pytest.mark.parametrize(
    'c2_shape, x2_shape, dtype',
    [
        ((3, 2), (3, 6), numpy.float32),  # x.shape[1] != 4 * n
        ((2, 2), (3, 8), numpy.float32),  # children's batches differ
        ((3, 2), (3, 8), numpy.float64),  # dtypes differ
    ],
)
def test_bad_inputs_are_invalid(c2_shape, x2_shape, dtype):
    c1 = numpy.zeros((3, 2), numpy.float32)
    x1 = numpy.zeros((3, 8), numpy.float32)
    with pytest.raises(type_check.InvalidType, match='SLSTM'):
        F.slstm(
            c1, numpy.zeros(c2_shape, numpy.float32), x1, numpy.zeros(x2_shape, dtype)
        )
