import numpy
import pytest

import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


@testing.parameterize(
    *(
        testing.product(
            {
                'shape': [(4, 3), (3,)],
                'reduce': ['mean'],
                'normalize': [True, False],
                'ignore_all': [False, True],
                'dtype': [numpy.float16, numpy.float32, numpy.float64],
            }
        )
        + testing.product(
            {
                'shape': [(4, 3)],
                'reduce': ['no'],
                'normalize': [True],
                'ignore_all': [False],
                'dtype': [numpy.float16, numpy.float32, numpy.float64],
            }
        )
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSigmoidCrossEntropy(testing.FunctionTestCase):
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
        x = numpy.random.uniform(-3, 3, self.shape).astype(self.dtype)
        if self.ignore_all:
            t = numpy.full(self.shape, -1, numpy.int32)
        else:
            t = numpy.random.randint(-1, 2, self.shape).astype(numpy.int32)
        return x, t

    def forward(self, inputs, device):
        x, t = inputs
        return (F.sigmoid_cross_entropy(x, t, self.normalize, self.reduce),)

    def forward_expected(self, inputs):
        x, t = inputs
        x = x.astype(numpy.float64)
        p = 1 / (1 + numpy.exp(-x))
        loss = -(t * numpy.log(p) + (1 - t) * numpy.log(1 - p)) * (t != -1)
        if self.reduce == 'mean':
            count = (t != -1).sum() if self.normalize else len(x)
            loss = loss.sum() / max(count, 1)
        return (numpy.asarray(loss, self.dtype),)


def test_large_logits_do_not_overflow():
    x = numpy.array([-200.0, 200.0], numpy.float32)
    t = numpy.array([1, 0], numpy.int32)
    y = F.sigmoid_cross_entropy(x, t, reduce='no')
    numpy.testing.assert_allclose(y.array, [200.0, 200.0])


def test_invalid_reduce():
    x = numpy.zeros(3, numpy.float32)
    with pytest.raises(ValueError, match="'mean' and 'no'"):
        F.sigmoid_cross_entropy(x, numpy.zeros(3, numpy.int32), reduce='sum')


@pytest.mark.parametrize(
    'x, t',
    [
        (numpy.zeros(3, numpy.int32), numpy.zeros(3, numpy.int32)),
        (numpy.zeros(3, numpy.float32), numpy.zeros(3, numpy.float32)),
        (numpy.zeros(3, numpy.float32), numpy.zeros(2, numpy.int32)),
    ],
)
def test_invalid_inputs(x, t):
    with pytest.raises(type_check.InvalidType, match='SigmoidCrossEntropy'):
        F.sigmoid_cross_entropy(x, t)
