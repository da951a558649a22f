import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import initializers
from chainerlite import links


@pytest.mark.parametrize(
    'dtype, param_dtype',
    [
        (numpy.float32, numpy.float32),
        (numpy.float64, numpy.float64),
        (chainerlite.mixed16, numpy.float32),
    ],
)
def test_lazy_parameters_and_forward(dtype, param_dtype):
    gamma = numpy.random.uniform(-1, 1, 4).astype(param_dtype)
    with chainerlite.using_config('dtype', dtype):
        link = links.GroupNormalization(2, initial_gamma=initializers.Constant(gamma))
        default = links.GroupNormalization(2, size=4)
    assert link.gamma.array is None
    assert (default.gamma.array == 1).all() and (default.beta.array == 0).all()
    assert default.gamma.dtype == param_dtype
    x_dtype = chainerlite.get_dtype(dtype)
    x = numpy.random.uniform(-1, 1, (3, 4, 5)).astype(x_dtype)
    y = link(x)
    assert link.gamma.dtype == param_dtype and y.dtype == x_dtype
    numpy.testing.assert_array_equal(link.gamma.array, gamma)
    expected = F.group_normalization(
        x.astype(numpy.float64),
        2,
        gamma.astype(numpy.float64),
        numpy.zeros(4),
        eps=1e-5,
    )
    tol = 1e-2 if x_dtype == numpy.float16 else 1e-5
    numpy.testing.assert_allclose(y.array, expected.array, atol=tol)


@pytest.mark.parametrize('shape', [(2,), ()])
def test_invalid_input_shape(shape):
    with pytest.raises(ValueError, match='batch and a channel'):
        links.GroupNormalization(3)(numpy.zeros(shape, numpy.float32))


def test_invalid_groups():
    x = numpy.zeros((2, 5, 2), numpy.float32)
    with pytest.raises(ValueError, match='divisor'):
        links.GroupNormalization(3)(x)
    with pytest.raises(TypeError, match='int'):
        links.GroupNormalization(3.5)(x)


def test_size_from_initial_gamma_array():
    link = links.GroupNormalization(1, initial_gamma=numpy.ones(3, 'f'))
    assert link.gamma.shape == (3,) and link.beta.shape == (3,)
