import numpy
import pytest

import chainerlite.functions as F
import chainerlite.links as L


def test_convolutions_with_the_activation_between():
    mlp = L.MLPConvolution2D(3, (4, 5, 2), 3, pad=1, activation=F.tanh)
    assert [conv.W.shape for conv in mlp] == [(4, 3, 3, 3), (5, 4, 1, 1), (2, 5, 1, 1)]
    x = numpy.random.uniform(-1, 1, (2, 3, 4, 4)).astype(numpy.float32)
    expected = mlp[2](F.tanh(mlp[1](F.tanh(mlp[0](x)))))
    numpy.testing.assert_array_equal(mlp(x).array, expected.array)


def test_lazy_in_channels():
    mlp = L.MLPConvolution2D((4, 2), 1)
    assert mlp(numpy.zeros((1, 6, 3, 3), numpy.float32)).shape == (1, 2, 3, 3)
    assert mlp[0].W.shape == (4, 6, 1, 1)


def test_needs_a_convolution():
    with pytest.raises(ValueError, match='MLPConvolution2D'):
        L.MLPConvolution2D(3, (), 3)


def test_wscale_is_refused():
    with pytest.raises(TypeError):
        L.MLPConvolution2D(3, (4,), 3, 1, 0, F.relu, 1)
    with pytest.raises(ValueError, match='wscale'):
        L.MLPConvolution2D(3, (4,), 3, wscale=1)
