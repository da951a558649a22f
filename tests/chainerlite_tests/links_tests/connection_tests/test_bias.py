import numpy
import pytest

import chainerlite.links as L
from chainerlite import gradient_check


def test_learned_bias():
    link = L.Bias(axis=1, shape=(3, 4))
    numpy.testing.assert_array_equal(link.b.array, numpy.zeros((3, 4)))
    link.b.array[...] = numpy.random.uniform(-1, 1, (3, 4))
    x = numpy.random.uniform(-1, 1, (2, 3, 4, 5)).astype(numpy.float32)
    expected = x + link.b.array[None, :, :, None]
    numpy.testing.assert_allclose(link(x).array, expected, rtol=1e-6)
    assert [name for name, _ in link.namedparams()] == ['/b']


def test_given_bias():
    link = L.Bias(axis=0)
    assert list(link.params()) == []
    x = numpy.random.uniform(-1, 1, (2, 3)).astype(numpy.float32)
    y = numpy.array([1, -1], numpy.float32)
    numpy.testing.assert_allclose(link(x, y).array, x + y[:, None])


def test_parameter_gradient():
    link = L.Bias(axis=1, shape=(3,))
    x = numpy.random.uniform(-1, 1, (2, 3, 2)).astype(numpy.float32)
    gy = numpy.random.uniform(-1, 1, (2, 3, 2)).astype(numpy.float32)
    gradient_check.check_backward(link, x, gy, params=(link.b,), dtype=numpy.float64)


def test_wrong_number_of_inputs():
    x = numpy.zeros((2, 3), numpy.float32)
    # ValueError (Chainer's unpacking) and AssertionError (its debug check)
    with pytest.raises(ValueError, match='1 input') as e:
        L.Bias(shape=(3,))(x, x[0])
    assert isinstance(e.value, AssertionError)
    with pytest.raises(AssertionError, match='2 input'):
        L.Bias()(x)
