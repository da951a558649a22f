import numpy

import chainerlite
import chainerlite.links as L


def test_holds_the_array_as_w():
    array = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    link = L.Parameter(array)
    assert isinstance(link.W, chainerlite.Parameter)
    assert link.W.array is array
    assert [name for name, _ in link.namedparams()] == ['/W']


def test_call_returns_a_new_variable_whose_gradient_reaches_w():
    link = L.Parameter(numpy.zeros(3, numpy.float32))
    y = link()
    assert y is not link.W
    numpy.testing.assert_array_equal(y.array, link.W.array)
    link.cleargrads()
    chainerlite.functions.sum(y * numpy.array([1, 2, 3], numpy.float32)).backward()
    numpy.testing.assert_array_equal(link.W.grad, [1.0, 2.0, 3.0])


def test_keeps_the_dtype():
    link = L.Parameter(numpy.ones(2, numpy.int32))
    assert link().dtype == numpy.int32
