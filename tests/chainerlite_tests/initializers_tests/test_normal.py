import numpy
import pytest

from chainerlite import initializers


def test_normal_statistics():
    array = numpy.empty((200, 100), numpy.float32)
    initializers.Normal(scale=0.5)(array)
    assert abs(array.mean()) < 0.02
    assert abs(array.std() - 0.5) < 0.02


def test_lecun_normal_scales_by_fan_in():
    array = numpy.empty((100, 50, 2, 2), numpy.float32)
    initializers.LeCunNormal(scale=2.0)(array)
    assert abs(array.std() - 2.0 * numpy.sqrt(1.0 / 200)) < 0.01


@pytest.mark.parametrize('cls', [initializers.Normal, initializers.LeCunNormal])
def test_rng_makes_draws_reproducible(cls):
    a = numpy.empty((4, 3), numpy.float64)
    b = numpy.empty((4, 3), numpy.float64)
    cls(rng=numpy.random.RandomState(7))(a)
    cls(rng=numpy.random.RandomState(7))(b)
    numpy.testing.assert_array_equal(a, b)


def test_lecun_normal_needs_two_axes():
    with pytest.raises(ValueError):
        initializers.LeCunNormal()(numpy.empty(3, numpy.float32))


def test_dtype_mismatch():
    with pytest.raises(AssertionError):
        initializers.Normal(dtype=numpy.float64)(numpy.empty(2, numpy.float32))


def test_get_fans():
    assert initializers.get_fans((3, 4)) == (4, 3)
    assert initializers.get_fans((3, 4, 5, 2)) == (40, 30)


# Large arrays: the sample deviation is within ~1% of the true one.
_SHAPE = (300, 100, 2, 2)  # fan_in = 400, fan_out = 1200


@pytest.mark.parametrize(
    'cls, kwargs, std',
    [
        (initializers.LeCunNormal, {}, numpy.sqrt(1.0 / 400)),
        (initializers.GlorotNormal, {}, numpy.sqrt(2.0 / 1600)),
        (initializers.GlorotNormal, {'scale': 3.0}, 3.0 * numpy.sqrt(2.0 / 1600)),
        (initializers.HeNormal, {}, numpy.sqrt(2.0 / 400)),
        (initializers.HeNormal, {'scale': 0.5}, 0.5 * numpy.sqrt(2.0 / 400)),
        (initializers.HeNormal, {'fan_option': 'fan_out'}, numpy.sqrt(2.0 / 1200)),
    ],
)
def test_scaled_normal_statistics(cls, kwargs, std):
    array = numpy.empty(_SHAPE, numpy.float32)
    cls(rng=numpy.random.RandomState(0), **kwargs)(array)
    assert abs(array.mean()) < 0.05 * std
    assert abs(array.std() / std - 1) < 0.02


@pytest.mark.parametrize(
    'cls',
    [
        initializers.Normal,
        initializers.LeCunNormal,
        initializers.GlorotNormal,
        initializers.HeNormal,
    ],
)
@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_normal_family_keeps_dtype_and_shape(cls, dtype):
    array = numpy.zeros((4, 3, 2), dtype)
    cls(dtype=dtype)(array)
    assert array.dtype == dtype and array.shape == (4, 3, 2)
    assert (array != 0).all()


@pytest.mark.parametrize('cls', [initializers.GlorotNormal, initializers.HeNormal])
def test_scaled_normal_rng_and_dtype_check(cls):
    a = numpy.empty((4, 3))
    b = numpy.empty((4, 3))
    cls(rng=numpy.random.RandomState(1))(a)
    cls(rng=numpy.random.RandomState(1))(b)
    numpy.testing.assert_array_equal(a, b)
    with pytest.raises(AssertionError):
        cls(dtype=numpy.float64)(numpy.empty((2, 2), numpy.float32))


def test_he_normal_invalid_fan_option():
    with pytest.raises(ValueError, match='fan_option'):
        initializers.HeNormal(fan_option='fan_avg')(numpy.empty((2, 2), numpy.float32))
