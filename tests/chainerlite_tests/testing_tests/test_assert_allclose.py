import numpy
import pytest

import chainerlite
from chainerlite import testing


def test_equal_arrays_pass():
    x = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    testing.assert_allclose(x, x.copy())


def test_within_tolerance_passes():
    x = numpy.array([1.0, 100.0])
    testing.assert_allclose(x + [1e-6, 5e-3], x)


def test_outside_tolerance_fails_with_report():
    x = numpy.array([1.0, 2.0, 3.0])
    y = numpy.array([1.0, 2.5, 3.0])
    with pytest.raises(AssertionError) as info:
        testing.assert_allclose(x, y)
    message = str(info.value)
    assert 'mismatched elements: 1 / 3' in message
    assert 'max absolute error: 0.5' in message
    assert 'first mismatch at index (1,)' in message


@pytest.mark.parametrize(
    'atol, rtol, ok',
    [(0.1, 0.0, True), (0.01, 0.0, False), (0.0, 0.1, True), (0.0, 0.01, False)],
)
def test_atol_and_rtol(atol, rtol, ok):
    x = numpy.array([1.05])
    y = numpy.array([1.0])
    if ok:
        testing.assert_allclose(x, y, atol=atol, rtol=rtol)
    else:
        with pytest.raises(AssertionError):
            testing.assert_allclose(x, y, atol=atol, rtol=rtol)


def test_verbose_controls_array_dump():
    x = numpy.array([1.0, 7.0])
    y = numpy.array([1.0, 8.0])
    with pytest.raises(AssertionError) as info:
        testing.assert_allclose(x, y, verbose=True)
    assert '[1. 7.]' in str(info.value)
    with pytest.raises(AssertionError) as info:
        testing.assert_allclose(x, y, verbose=False)
    assert '[1. 7.]' not in str(info.value)


def test_scalars_and_broadcasting():
    testing.assert_allclose(numpy.float32(2.0), 2.0)
    testing.assert_allclose(numpy.full((2, 2), 3.0), 3.0)
    with pytest.raises(AssertionError):
        testing.assert_allclose(numpy.full((2, 2), 3.0), 3.1)


def test_shape_mismatch_fails():
    with pytest.raises(AssertionError):
        testing.assert_allclose(numpy.zeros(3), numpy.zeros(4))


def test_nan_handling():
    testing.assert_allclose(numpy.array([numpy.nan]), numpy.array([numpy.nan]))
    with pytest.raises(AssertionError):
        testing.assert_allclose(numpy.array([numpy.nan]), numpy.array([1.0]))


def test_accepts_variables():
    v = chainerlite.Variable(numpy.array([1.0, 2.0]))
    testing.assert_allclose(v, numpy.array([1.0, 2.0]))
    with pytest.raises(AssertionError):
        testing.assert_allclose(v, numpy.array([1.0, 3.0]))


@testing.attr.gpu
def test_accepts_cupy_arrays():
    from chainerlite.backends import cuda

    x = cuda.cupy.arange(4, dtype=numpy.float32)
    testing.assert_allclose(x, numpy.arange(4, dtype=numpy.float32))
    with pytest.raises(AssertionError):
        testing.assert_allclose(x, numpy.zeros(4, dtype=numpy.float32))
