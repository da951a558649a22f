import numpy

import chainerlite
import chainerlite.functions as F
from chainerlite import gradient_check


def test_single_input_returns_variable():
    x = numpy.random.uniform(-1, 1, (2, 3)).astype(numpy.float32)
    y = F.identity(x)
    assert isinstance(y, chainerlite.Variable)
    numpy.testing.assert_array_equal(y.array, x)


def test_several_inputs_return_tuple():
    x0 = numpy.zeros(2, numpy.float32)
    x1 = numpy.ones((3, 1), numpy.float64)
    y0, y1 = F.identity(x0, x1)
    numpy.testing.assert_array_equal(y0.array, x0)
    numpy.testing.assert_array_equal(y1.array, x1)
    assert y1.dtype == numpy.float64


def test_output_is_new_node():
    x = chainerlite.Variable(numpy.zeros(3, numpy.float32))
    y = F.identity(x)
    assert y is not x
    assert y.creator is not None


def test_backward_and_double_backward():
    xs = (numpy.random.uniform(-1, 1, (2, 3)), numpy.random.uniform(-1, 1, 4))
    gys = (numpy.random.uniform(-1, 1, (2, 3)), numpy.random.uniform(-1, 1, 4))
    ggxs = (numpy.random.uniform(-1, 1, (2, 3)), numpy.random.uniform(-1, 1, 4))
    gradient_check.check_backward(F.identity, xs, gys)
    gradient_check.check_double_backward(F.identity, xs, gys, ggxs)
