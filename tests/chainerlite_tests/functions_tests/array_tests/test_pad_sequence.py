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
            'lengths_tail': [((3, 1, 2), ()), ((2, 0, 3), (2,)), ((2,), (2, 1))],
            'length_padding': [(None, 0), (4, -1.5)],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestPadSequence(testing.FunctionTestCase):
    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        lengths, tail = self.lengths_tail
        return tuple(
            numpy.random.uniform(-1, 1, (n,) + tail).astype(self.dtype) for n in lengths
        )

    def forward(self, inputs, device):
        length, padding = self.length_padding
        return (F.pad_sequence(inputs, length, padding),)

    def forward_expected(self, inputs):
        length, padding = self.length_padding
        if length is None:
            length = max(len(x) for x in inputs)
        y = numpy.full(
            (len(inputs), length) + inputs[0].shape[1:], padding, inputs[0].dtype
        )
        for i, x in enumerate(inputs):
            y[i, : len(x)] = x
        return (y,)


def test_integer_sequences():
    xs = [numpy.array([1, 2], numpy.int32), numpy.array([3], numpy.int32)]
    y = F.pad_sequence(xs, padding=-1)
    assert y.dtype == numpy.int32
    numpy.testing.assert_array_equal(y.array, [[1, 2], [3, -1]])


def test_gradients_go_to_each_sequence():
    xs = [
        chainerlite.Variable(numpy.zeros(2, numpy.float32)),
        chainerlite.Variable(numpy.zeros(1, numpy.float32)),
    ]
    y = F.pad_sequence(xs, length=3)
    y.grad = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    y.backward()
    numpy.testing.assert_array_equal(xs[0].grad, [0, 1])
    numpy.testing.assert_array_equal(xs[1].grad, [3])


@pytest.mark.parametrize(
    'shapes, dtypes, length',
    [
        (((3, 2), (3, 3)), (numpy.float32, numpy.float32), None),
        (((3,), (3,)), (numpy.float32, numpy.float64), None),
        (((3,), (2, 1)), (numpy.float32, numpy.float32), None),
        (((),), (numpy.float32,), None),
        (((3,), (2,)), (numpy.float32, numpy.float32), 2),
        ((), (), None),
    ],
)
def test_invalid_inputs(shapes, dtypes, length):
    xs = [numpy.zeros(s, d) for s, d in zip(shapes, dtypes)]
    with pytest.raises(type_check.InvalidType, match='PadSequence'):
        F.pad_sequence(xs, length)
