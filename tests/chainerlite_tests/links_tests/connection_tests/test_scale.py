import numpy
import pytest

import chainerlite.links as L
from chainerlite import gradient_check


def _x():
    return numpy.random.uniform(-1, 1, (2, 3, 4)).astype(numpy.float32)


def test_learned_scale_and_bias():
    link = L.Scale(axis=1, W_shape=(3,), bias_term=True)
    numpy.testing.assert_array_equal(link.W.array, numpy.ones(3))
    assert link.bias.b.shape == (3,)
    assert [name for name, _ in link.namedparams()] == ['/W', '/bias/b']
    link.W.array[...] = [1, 2, 3]
    link.bias.b.array[...] = [0, 1, -1]
    x = _x()
    expected = x * numpy.array([1, 2, 3])[:, None] + numpy.array([0, 1, -1])[:, None]
    numpy.testing.assert_allclose(link(x).array, expected, rtol=1e-5, atol=1e-6)


def test_given_scale_with_learned_bias():
    link = L.Scale(axis=1, bias_term=True, bias_shape=(3, 4))
    assert [name for name, _ in link.namedparams()] == ['/bias/b']
    link.bias.b.array[...] = 0.5
    x, y = _x(), numpy.random.uniform(-1, 1, (3, 4)).astype(numpy.float32)
    numpy.testing.assert_allclose(link(x, y).array, x * y + 0.5, rtol=1e-6)


def test_given_scale_without_bias():
    link = L.Scale(axis=2)
    assert list(link.params()) == []
    x, y = _x(), numpy.arange(4, dtype=numpy.float32)
    numpy.testing.assert_allclose(link(x, y).array, x * y, rtol=1e-6)


def test_bias_needs_a_shape():
    with pytest.raises(ValueError, match='bias_shape'):
        L.Scale(bias_term=True)


def test_wrong_number_of_inputs():
    # ValueError (Chainer's unpacking) and AssertionError (its debug check)
    with pytest.raises(ValueError, match='1 input') as e:
        L.Scale(W_shape=(3,))(_x(), _x())
    assert isinstance(e.value, AssertionError)
    with pytest.raises(AssertionError, match='2 input'):
        L.Scale()(_x())


def test_parameter_gradients():
    link = L.Scale(axis=1, W_shape=(3,), bias_term=True)
    link.W.array[...] = numpy.random.uniform(0.5, 2, 3)
    gy = numpy.random.uniform(-1, 1, (2, 3, 4)).astype(numpy.float32)
    gradient_check.check_backward(
        link, _x(), gy, params=(link.W, link.bias.b), dtype=numpy.float64
    )
