import numpy
import pytest

from chainerlite import initializers


@pytest.mark.parametrize(
    'initializer, value',
    [
        (initializers.Constant(3.5), 3.5),
        (initializers.Zero(), 0.0),
        (initializers.One(), 1.0),
    ],
)
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


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_identity(dtype):
    array = numpy.empty((3, 3), dtype)
    initializers.Identity(scale=2.5)(array)
    numpy.testing.assert_array_equal(array, 2.5 * numpy.eye(3))
    assert array.dtype == dtype


@pytest.mark.parametrize('shape', [(3,), (2, 3), (2, 2, 2)])
def test_identity_needs_square_matrix(shape):
    with pytest.raises(ValueError, match='squared matrices'):
        initializers.Identity()(numpy.empty(shape, numpy.float32))


def test_identity_default_scale_and_dtype_check():
    array = numpy.empty((2, 2), numpy.float64)
    initializers.Identity(dtype=numpy.float64)(array)
    numpy.testing.assert_array_equal(array, numpy.eye(2))
    with pytest.raises(AssertionError):
        initializers.Identity(dtype=numpy.float64)(numpy.empty((2, 2), numpy.float32))


@pytest.mark.parametrize('value', [[1, 2], (1.0,), None, {'a': 1}])
def test_constant_takes_a_scalar_or_an_array_only(value):
    with pytest.raises(ValueError, match='fill_value must be a scalar or an array'):
        initializers.Constant(value)


@pytest.mark.parametrize('value', [2, 1.5, numpy.float16(3), True, numpy.arange(3.0)])
def test_constant_of_scalars_and_arrays(value):
    array = numpy.empty((2, 3), numpy.float32)
    initializers.Constant(value)(array)
    numpy.testing.assert_array_equal(array, numpy.broadcast_to(value, (2, 3)))
