"""link_hooks.WeightStandardization."""

import numpy
import pytest

import chainerlite
from chainerlite import links as L
from chainerlite.link_hooks import WeightStandardization


def _standardize(w, axis, eps):
    axes = tuple(i for i in range(w.ndim) if i != axis)
    mean = w.mean(axis=axes, keepdims=True)
    var = ((w - mean) ** 2).mean(axis=axes, keepdims=True)
    return (w - mean) / numpy.sqrt(var + eps)


@pytest.mark.parametrize(
    'make, x_shape, axis',
    [
        (lambda: L.Linear(4, 3), (2, 4), 0),
        (lambda: L.Convolution2D(2, 3, 3, pad=1), (1, 2, 4, 4), 0),
        (lambda: L.Deconvolution2D(2, 3, 3, pad=1), (1, 2, 4, 4), 1),
    ],
)
def test_weight_is_standardized_per_output_channel(make, x_shape, axis):
    layer = make()
    layer.add_hook(WeightStandardization(eps=1e-3))
    x = numpy.random.uniform(-1, 1, x_shape).astype(numpy.float32)
    y = layer(x)
    w = layer.W
    assert isinstance(w, chainerlite.Parameter)
    y.grad = numpy.ones_like(y.array)
    y.backward()
    assert w.grad.shape == w.shape
    layer.delete_hook('WeightStandardization')
    w.array = _standardize(w.array, axis, 1e-3)
    numpy.testing.assert_allclose(y.array, layer(x).array, rtol=1e-4, atol=1e-5)


def test_standardized_weight_has_zero_mean_gradient_direction():
    # The gradient of a standardized weight is orthogonal to shifting all
    # entries of a channel (the output does not change under such a shift).
    layer = L.Linear(4, 2)
    layer.cleargrads()  # the gradients start as NaN, as in Chainer
    layer.add_hook(WeightStandardization())
    y = layer(numpy.random.uniform(-1, 1, (3, 4)).astype(numpy.float32))
    y.grad = numpy.random.uniform(-1, 1, y.shape).astype(numpy.float32)
    y.backward()
    numpy.testing.assert_allclose(layer.W.grad.sum(axis=1), 0, atol=1e-5)


def test_errors():
    with pytest.raises(ValueError, match="'w'"):
        L.Linear(5, 2).add_hook(WeightStandardization(weight_name='w'))
    with pytest.raises(NotImplementedError):
        with WeightStandardization():
            pass
