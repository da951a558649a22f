import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


@testing.parameterize(
    *testing.product(
        {
            'shape': [(10,), (4, 3)],
            'ignored': ['none', 'some', 'all'],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestBinaryAccuracy(testing.FunctionTestCase):
    skip_backward_test = True
    skip_double_backward_test = True

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-3, 'rtol': 1e-3}

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        t = numpy.random.randint(0, 2, self.shape).astype(numpy.int32)
        if self.ignored == 'some':
            t.ravel()[::3] = -1
        elif self.ignored == 'all':
            t[...] = -1
        return x, t

    def forward(self, inputs, device):
        return (F.binary_accuracy(*inputs),)

    def forward_expected(self, inputs):
        x, t = inputs
        used = t != -1
        correct = (((x >= 0) == t) & used).sum()
        return (numpy.asarray(correct / max(used.sum(), 1), self.dtype),)


def test_no_gradient():
    x = chainerlite.Variable(numpy.random.uniform(-1, 1, (4, 3)))
    t = numpy.zeros((4, 3), numpy.int32)
    F.binary_accuracy(x, t).backward()
    assert x.grad is None


def test_zero_score_counts_as_positive():
    x = numpy.array([0.0, -0.5], numpy.float32)
    t = numpy.array([1, 0], numpy.int32)
    assert float(F.binary_accuracy(x, t).array) == 1


@pytest.mark.parametrize(
    'x, t',
    [
        (numpy.zeros(3, numpy.int32), numpy.zeros(3, numpy.int32)),
        (numpy.zeros(3, numpy.float32), numpy.zeros(3, numpy.float32)),
        (numpy.zeros(3, numpy.float32), numpy.zeros(4, numpy.int32)),
    ],
)
def test_invalid_inputs(x, t):
    with pytest.raises(type_check.InvalidType, match='BinaryAccuracy'):
        F.binary_accuracy(x, t)
