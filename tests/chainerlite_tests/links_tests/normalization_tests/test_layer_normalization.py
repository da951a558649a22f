import numpy
import pytest

import chainerlite
import chainerlite.links as L
from chainerlite import gradient_check


def _x(*shape):
    return numpy.random.uniform(-1, 1, shape).astype(numpy.float32)


def _reference(x, gamma, beta, eps):
    mean = x.mean(axis=1, keepdims=True)
    var = x.var(axis=1, keepdims=True)
    return (x - mean) / numpy.sqrt(var + eps) * gamma + beta


def test_forward_matches_reference():
    ln = L.LayerNormalization(4)
    ln.gamma.array[...] = numpy.random.uniform(0.5, 1.5, 4)
    ln.beta.array[...] = numpy.random.uniform(-1, 1, 4)
    x = _x(3, 4)
    numpy.testing.assert_allclose(
        ln(x).array,
        _reference(x, ln.gamma.array, ln.beta.array, 1e-6),
        rtol=1e-5,
        atol=1e-5,
    )


def test_eps_is_used():
    ln = L.LayerNormalization(4, eps=1.0)
    assert ln.eps == 1.0
    x = _x(3, 4)
    numpy.testing.assert_allclose(
        ln(x).array, _reference(x, 1, 0, 1.0), rtol=1e-5, atol=1e-6
    )


def test_parameters():
    ln = L.LayerNormalization(3, initial_gamma=2.0, initial_beta=-1.0)
    assert ln.eps == 1e-6
    assert [name for name, _ in ln.namedparams()] == ['/beta', '/gamma']
    numpy.testing.assert_array_equal(ln.gamma.array, numpy.full(3, 2.0))
    numpy.testing.assert_array_equal(ln.beta.array, numpy.full(3, -1.0))
    default = L.LayerNormalization(2)
    numpy.testing.assert_array_equal(default.gamma.array, numpy.ones(2))
    numpy.testing.assert_array_equal(default.beta.array, numpy.zeros(2))
    with chainerlite.using_config('dtype', numpy.float64):
        assert L.LayerNormalization(2).gamma.dtype == numpy.float64


def test_lazy_size():
    ln = L.LayerNormalization()
    assert ln.gamma.array is None and ln.beta.array is None
    assert ln(_x(2, 5)).shape == (2, 5)
    assert ln.gamma.shape == (5,) and ln.beta.shape == (5,)


def test_parameter_gradients():
    ln = L.LayerNormalization(4)
    ln.gamma.array[...] = numpy.random.uniform(0.5, 1.5, 4)
    gradient_check.check_backward(
        ln,
        _x(3, 4),
        _x(3, 4),
        params=(ln.gamma, ln.beta),
        dtype=numpy.float64,
        atol=1e-3,
        rtol=1e-3,
    )


def test_rejects_non_matrix_input():
    with pytest.raises(chainerlite.utils.type_check.InvalidType):
        L.LayerNormalization(4)(_x(2, 4, 1))
