import numpy
import pytest

from chainerlite import initializers


@pytest.mark.parametrize('initializer, value', [
    (initializers.Constant(3.5), 3.5),
    (initializers.Zero(), 0.0),
    (initializers.One(), 1.0),
])
@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_fill(initializer, value, dtype):
    array = numpy.empty((2, 3), dtype)
    initializer(array)
    numpy.testing.assert_array_equal(array, numpy.full((2, 3), value))
    assert array.dtype == dtype


def test_nan():
    array = numpy.zeros(4, numpy.float32)
    initializers.NaN()(array)
    assert numpy.isnan(array).all()


def test_constant_array_is_broadcast():
    array = numpy.empty((2, 3), numpy.float32)
    initializers.Constant(numpy.array([1, 2, 3]))(array)
    numpy.testing.assert_array_equal(array, [[1, 2, 3], [1, 2, 3]])


def test_dtype_attribute_and_mismatch():
    initializer = initializers.Zero(numpy.float64)
    assert initializer.dtype == numpy.float64
    initializer(numpy.empty(2, numpy.float64))
    with pytest.raises(AssertionError):
        initializer(numpy.empty(2, numpy.float32))


def test_base_class_is_abstract():
    with pytest.raises(NotImplementedError):
        initializers.Initializer()(numpy.empty(2))
