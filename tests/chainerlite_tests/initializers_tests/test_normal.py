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
