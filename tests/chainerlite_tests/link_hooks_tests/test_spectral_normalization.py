"""link_hooks.SpectralNormalization."""

import os

import numpy
import pytest

import chainerlite
from chainerlite import links as L
from chainerlite import serializers
from chainerlite import utils
from chainerlite.link_hooks import SpectralNormalization


def _sigma(w, axis=0):
    return numpy.linalg.svd(
        numpy.moveaxis(w, axis, 0).reshape(w.shape[axis], -1), compute_uv=False
    )[0]


@pytest.mark.parametrize(
    'make, x_shape, axis',
    [
        (lambda: L.Linear(4, 3), (2, 4), 0),
        (lambda: L.Convolution2D(2, 3, 3, pad=1), (1, 2, 4, 4), 0),
        (lambda: L.Deconvolution2D(2, 3, 3, pad=1), (1, 2, 4, 4), 1),
    ],
)
def test_weight_is_divided_by_its_spectral_norm(make, x_shape, axis):
    layer = make()
    hook = SpectralNormalization(n_power_iteration=100)
    layer.add_hook(hook)
    assert hook.axis == axis
    u = getattr(layer, hook.vector_name)
    assert u.shape == (layer.W.shape[axis],)
    x = numpy.random.uniform(-1, 1, x_shape).astype(numpy.float32)
    y = layer(x)
    w = layer.W.array
    layer.delete_hook(hook.name)
    assert not hasattr(layer, hook.vector_name)
    layer.W.array = w / _sigma(w, axis)
    numpy.testing.assert_allclose(y.array, layer(x).array, rtol=1e-4, atol=1e-5)


def test_gamma_scales_the_normalized_weight():
    layer = L.Linear(4, 3)
    w = layer.W.array.copy()
    layer.add_hook(SpectralNormalization(use_gamma=True, n_power_iteration=100))
    assert layer.gamma.shape == ()
    numpy.testing.assert_allclose(layer.gamma.array, _sigma(w), rtol=1e-5)
    x = numpy.random.uniform(-1, 1, (2, 4)).astype(numpy.float32)
    y = layer(x)
    y.grad = numpy.ones_like(y.array)
    y.backward()
    assert layer.gamma.grad is not None and layer.W.grad is not None
    layer.delete_hook('SpectralNormalization')
    assert not hasattr(layer, 'gamma')
    # gamma equals sigma at first: the hooked layer computes the plain one
    numpy.testing.assert_allclose(y.array, layer(x).array, rtol=1e-4)


def test_u_is_updated_in_training_only():
    layer = L.Linear(4, 3)
    hook = SpectralNormalization()
    layer.add_hook(hook)
    x = numpy.ones((1, 4), numpy.float32)
    with chainerlite.using_config('train', False):
        u = layer.W_u.copy()
        layer(x)
        numpy.testing.assert_array_equal(u, layer.W_u)
    layer(x)
    assert not numpy.array_equal(u, layer.W_u)
    u, v = layer.W_u.copy(), hook.v.copy()
    with chainerlite.using_config('in_recomputing', True):
        layer(x)
    numpy.testing.assert_array_equal(u, layer.W_u)
    numpy.testing.assert_array_equal(v, hook.v)


def test_lazy_weight_is_prepared_at_first_call():
    layer = L.Linear(None, 3)
    hook = SpectralNormalization(use_gamma=True)
    layer.add_hook(hook)
    assert not hasattr(layer, 'W_u') and not hasattr(layer, 'gamma')
    layer(numpy.ones((2, 2, 2), numpy.float32))
    assert layer.W.shape == (3, 4) and layer.W_u.shape == (3,)
    assert isinstance(layer.W, chainerlite.Parameter)


def test_u_is_saved_with_the_link():
    layer = L.Linear(4, 3)
    layer.add_hook(SpectralNormalization())
    layer(numpy.ones((1, 4), numpy.float32))
    other = L.Linear(4, 3)
    other.add_hook(SpectralNormalization())
    with utils.tempdir() as root:
        path = os.path.join(root, 'sn.npz')
        serializers.save_npz(path, layer)
        serializers.load_npz(path, other)
    numpy.testing.assert_array_equal(layer.W_u, other.W_u)


def test_errors():
    with pytest.raises(ValueError, match="'w'"):
        L.Linear(5, 2).add_hook(SpectralNormalization(weight_name='w'))
    with pytest.raises(ValueError, match='no element'):
        L.Linear(10, 0).add_hook(SpectralNormalization())
    with pytest.raises(NotImplementedError, match='add_hook'):
        with SpectralNormalization():
            pass
    assert chainerlite._get_link_hooks() == {}
    with pytest.raises(ValueError, match='n_power_iteration'):
        SpectralNormalization(n_power_iteration=0)


def test_chainers_helpers():
    # Chainer 7.8.1's module helpers and SpectralNormalization.reshape_W /
    # normalize_weight: power iteration converges to the top singular
    # vectors; normalize_weight gives the weight over its largest singular
    # value and advances u in training.
    from chainerlite.link_hooks import spectral_normalization as sn

    rng = numpy.random.RandomState(1)
    w = rng.uniform(-1, 1, (4, 6))
    v = numpy.array([3.0, 4.0])
    numpy.testing.assert_allclose(sn.l2normalize(numpy, v, 0.0), [0.6, 0.8])
    u0 = sn.l2normalize(numpy, rng.normal(size=4), 1e-12)
    u, v = sn.update_approximate_vectors(chainerlite.Variable(w), u0, 200, 1e-12)
    top = numpy.linalg.svd(w, compute_uv=False)[0]
    sigma = sn.calculate_max_singular_value(chainerlite.Variable(w), u, v)
    assert isinstance(sigma, chainerlite.Variable)
    numpy.testing.assert_allclose(float(sigma.array), top, rtol=1e-6)

    link = L.Convolution2D(3, 5, 2)
    hook = SpectralNormalization(n_power_iteration=50)
    link.add_hook(hook)
    link(numpy.zeros((1, 3, 4, 4), numpy.float32))
    assert hook.reshape_W(link.W).shape == (5, 12)
    before = link.W_u.copy()
    normalized = hook.normalize_weight(link)
    assert not numpy.array_equal(before, link.W_u)
    matrix = link.W.array.reshape(5, 12)
    top = numpy.linalg.svd(matrix, compute_uv=False)[0]
    numpy.testing.assert_allclose(normalized.array, link.W.array / top, rtol=1e-3)
