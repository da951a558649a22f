import numpy
import pytest

from chainerlite import initializers


def test_uniform_range():
    array = numpy.empty((100, 100), numpy.float32)
    initializers.Uniform(scale=0.3)(array)
    assert array.min() >= -0.3
    assert array.max() <= 0.3
    assert array.min() < -0.25 and array.max() > 0.25


def test_rng_makes_draws_reproducible():
    a = numpy.empty(5)
    b = numpy.empty(5)
    initializers.Uniform(rng=numpy.random.RandomState(3))(a)
    initializers.Uniform(rng=numpy.random.RandomState(3))(b)
    numpy.testing.assert_array_equal(a, b)


_SHAPE = (300, 100, 2, 2)  # fan_in = 400, fan_out = 1200


@pytest.mark.parametrize(
    'cls, kwargs, bound',
    [
        (initializers.LeCunUniform, {}, numpy.sqrt(3.0 / 400)),
        (initializers.LeCunUniform, {'scale': 2.0}, 2.0 * numpy.sqrt(3.0 / 400)),
        (initializers.GlorotUniform, {}, numpy.sqrt(6.0 / 1600)),
        (initializers.GlorotUniform, {'scale': 0.5}, 0.5 * numpy.sqrt(6.0 / 1600)),
        (initializers.HeUniform, {}, numpy.sqrt(6.0 / 400)),
        (initializers.HeUniform, {'scale': 3.0}, 3.0 * numpy.sqrt(6.0 / 400)),
    ],
)
def test_scaled_uniform_statistics(cls, kwargs, bound):
    array = numpy.empty(_SHAPE, numpy.float64)
    cls(rng=numpy.random.RandomState(0), **kwargs)(array)
    assert array.min() >= -bound and array.max() <= bound
    assert array.min() < -0.99 * bound and array.max() > 0.99 * bound
    assert abs(array.mean()) < 0.01 * bound
    # The deviation of U(-s, s) is s / sqrt(3).
    assert abs(array.std() * numpy.sqrt(3.0) / bound - 1) < 0.01


@pytest.mark.parametrize(
    'cls',
    [
        initializers.Uniform,
        initializers.LeCunUniform,
        initializers.GlorotUniform,
        initializers.HeUniform,
    ],
)
@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_uniform_family_keeps_dtype_and_shape(cls, dtype):
    array = numpy.zeros((4, 3, 2), dtype)
    cls(dtype=dtype)(array)
    assert array.dtype == dtype and array.shape == (4, 3, 2)
    assert (array != 0).all()


@pytest.mark.parametrize(
    'cls',
    [initializers.LeCunUniform, initializers.GlorotUniform, initializers.HeUniform],
)
def test_scaled_uniform_rng_and_dtype_check(cls):
    a = numpy.empty((4, 3))
    b = numpy.empty((4, 3))
    cls(rng=numpy.random.RandomState(1))(a)
    cls(rng=numpy.random.RandomState(1))(b)
    numpy.testing.assert_array_equal(a, b)
    with pytest.raises(AssertionError):
        cls(dtype=numpy.float64)(numpy.empty((2, 2), numpy.float32))
    with pytest.raises(ValueError):
        cls()(numpy.empty(3))
