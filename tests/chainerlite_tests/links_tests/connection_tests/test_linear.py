import numpy
import pytest

import chainerlite
import chainerlite.links as L
from chainerlite import gradient_check
from chainerlite import initializers


def test_parameters():
    layer = L.Linear(3, 2)
    assert layer.in_size == 3
    assert layer.out_size == 2
    assert layer.W.shape == (2, 3)
    assert layer.W.dtype == numpy.float32
    numpy.testing.assert_array_equal(layer.b.array, numpy.zeros(2))
    assert [name for name, _ in layer.namedparams()] == ['/W', '/b']


def test_forward():
    layer = L.Linear(3, 2)
    x = numpy.random.uniform(-1, 1, (4, 3)).astype(numpy.float32)
    y = layer(x)
    expected = x @ layer.W.array.T + layer.b.array
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-5, atol=1e-6)


def test_nobias():
    layer = L.Linear(3, 2, nobias=True)
    assert layer.b is None
    assert [name for name, _ in layer.namedparams()] == ['/W']
    x = numpy.ones((1, 3), numpy.float32)
    numpy.testing.assert_allclose(layer(x).array, x @ layer.W.array.T, rtol=1e-6)


def test_initializers():
    W = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    layer = L.Linear(3, 2, initialW=W, initial_bias=initializers.One())
    numpy.testing.assert_array_equal(layer.W.array, W)
    numpy.testing.assert_array_equal(layer.b.array, numpy.ones(2))
    layer = L.Linear(3, 2, initialW=0.5, initial_bias=2)
    numpy.testing.assert_array_equal(layer.W.array, numpy.full((2, 3), 0.5))
    numpy.testing.assert_array_equal(layer.b.array, numpy.full(2, 2.0))


@pytest.mark.parametrize('args', [(2,), (None, 2)])
def test_lazy_in_size(args):
    layer = L.Linear(*args)
    assert layer.W.array is None
    assert list(layer.params(include_uninit=False)) == [layer.b]
    y = layer(numpy.ones((4, 3, 2), numpy.float32))
    assert y.shape == (4, 2)
    assert layer.W.shape == (2, 6)


def test_lazy_in_size_with_batch_axes():
    layer = L.Linear(5)
    y = layer(numpy.ones((4, 3, 2), numpy.float32), n_batch_axes=2)
    assert y.shape == (4, 3, 5)
    assert layer.W.shape == (5, 2)


def test_gradients():
    layer = L.Linear(3, 2, initialW=initializers.Normal(1.0))
    x = numpy.random.uniform(-1, 1, (4, 3)).astype(numpy.float32)
    gy = numpy.random.uniform(-1, 1, (4, 2)).astype(numpy.float32)
    gradient_check.check_backward(
        layer,
        x,
        gy,
        params=(layer.W, layer.b),
        dtype=numpy.float64,
        atol=1e-4,
        rtol=1e-3,
    )


def test_backward_fills_parameter_grads():
    layer = L.Linear(3, 2)
    layer.cleargrads()  # the gradients start as NaN, as in Chainer
    x = chainerlite.Variable(numpy.ones((4, 3), numpy.float32))
    y = layer(x)
    y.grad = numpy.ones((4, 2), numpy.float32)
    y.backward()
    numpy.testing.assert_allclose(layer.b.grad, numpy.full(2, 4.0))
    numpy.testing.assert_allclose(layer.W.grad, numpy.full((2, 3), 4.0))
    numpy.testing.assert_allclose(x.grad, numpy.ones((4, 2)) @ layer.W.array, rtol=1e-6)


def test_from_params():
    W = numpy.random.uniform(-1, 1, (2, 3)).astype(numpy.float32)
    b = numpy.random.uniform(-1, 1, 2).astype(numpy.float32)
    layer = L.Linear.from_params(chainerlite.Variable(W), b)
    assert (layer.in_size, layer.out_size) == (3, 2)
    numpy.testing.assert_array_equal(layer.W.array, W)
    numpy.testing.assert_array_equal(layer.b.array, b)
    x = numpy.random.uniform(-1, 1, (4, 3)).astype(numpy.float32)
    numpy.testing.assert_allclose(layer(x).array, x.dot(W.T) + b, rtol=1e-6)
    # without b the bias starts at zero (Chainer's initial_bias of None)
    numpy.testing.assert_array_equal(L.Linear.from_params(W).b.array, numpy.zeros(2))
    assert L.Linear.from_params(W, b, nobias=True).b is None
    # the bias by Chainer's keyword
    numpy.testing.assert_array_equal(L.Linear.from_params(W, b=b).b.array, b)


def test_from_params_refuses_a_bias_of_another_size():
    W = numpy.ones((2, 3), numpy.float32)
    with pytest.raises(ValueError, match='b has 3 elements, W 2 rows'):
        L.Linear.from_params(W, numpy.ones(3, numpy.float32))
    # the number of elements counts, as in Chainer
    layer = L.Linear.from_params(W, numpy.ones((1, 2), numpy.float32))
    assert layer.b.shape == (2,)


def test_from_params_is_not_defined_for_every_link():
    with pytest.raises(NotImplementedError, match='Highway.from_params'):
        L.Highway.from_params(numpy.ones((2, 2), numpy.float32))
