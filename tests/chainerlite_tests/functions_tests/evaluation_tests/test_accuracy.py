import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


@testing.parameterize(
    *testing.product_dict(
        [
            {'x_shape': (10, 3), 't_shape': (10,)},
            {'x_shape': (10, 3, 1), 't_shape': (10,)},
            {'x_shape': (10, 3, 2), 't_shape': (10, 2)},
            {'x_shape': (10, 3, 2, 1), 't_shape': (10, 2)},
        ],
        [
            {'ignore_label': None, 'ignored': 'none'},
            {'ignore_label': -1, 'ignored': 'some'},
            {'ignore_label': 0, 'ignored': 'some'},
            {'ignore_label': -1, 'ignored': 'all'},
        ],
        testing.product({'dtype': [numpy.float16, numpy.float32, numpy.float64]}),
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestAccuracy(testing.FunctionTestCase):
    skip_backward_test = True
    skip_double_backward_test = True

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-3, 'rtol': 1e-3}

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.x_shape).astype(self.dtype)
        t = numpy.random.randint(0, 3, self.t_shape).astype(numpy.int32)
        if self.ignored == 'some':
            t.ravel()[::3] = self.ignore_label
        elif self.ignored == 'all':
            t[...] = self.ignore_label
        return x, t

    def forward(self, inputs, device):
        x, t = inputs
        return (F.accuracy(x, t, self.ignore_label),)

    def forward_expected(self, inputs):
        x, t = inputs
        pred = x.reshape(x.shape[:2] + t.shape[1:]).argmax(axis=1)
        used = numpy.ones(t.shape, bool)
        if self.ignore_label is not None:
            used = t != self.ignore_label
        total = used.sum()
        correct = ((pred == t) & used).sum()
        return (numpy.asarray(correct / total if total else 0, self.dtype),)


def test_no_gradient():
    x = chainerlite.Variable(numpy.random.uniform(-1, 1, (4, 3)))
    t = numpy.array([0, 1, 2, 0], numpy.int32)
    F.accuracy(x, t).backward()
    assert x.grad is None


def test_ignore_label_is_not_counted():
    x = numpy.array([[0.0, 1.0], [1.0, 0.0], [1.0, 0.0]], numpy.float32)
    t = numpy.array([1, 1, 0], numpy.int32)
    # The third sample is predicted right, but its label is ignored.
    assert float(F.accuracy(x, t, ignore_label=0).array) == 0.5
    assert float(F.accuracy(x, t).array) == pytest.approx(2 / 3)


@pytest.mark.parametrize(
    'x, t',
    [
        (numpy.zeros((2, 3), numpy.int32), numpy.zeros(2, numpy.int32)),
        (numpy.zeros((2, 3), numpy.float32), numpy.zeros(2, numpy.float32)),
        (numpy.zeros((2, 3), numpy.float32), numpy.zeros(3, numpy.int32)),
        (numpy.zeros((2, 3, 4), numpy.float32), numpy.zeros((2, 3), numpy.int32)),
        (numpy.zeros((2, 3, 2), numpy.float32), numpy.zeros(2, numpy.int32)),
        (numpy.zeros(2, numpy.float32), numpy.zeros((2, 1), numpy.int32)),
    ],
)
def test_invalid_inputs(x, t):
    with pytest.raises(type_check.InvalidType, match='Accuracy'):
        F.accuracy(x, t)
