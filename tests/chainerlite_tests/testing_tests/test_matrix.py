import numpy
import pytest

from chainerlite import testing


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.complex128])
@pytest.mark.parametrize(
    'shape, singular_values',
    [
        ((3, 2), [2.0, 0.5]),
        ((2, 4), [1.0, 3.0]),
        ((2, 3, 3), [[1.0, 2.0, 3.0], [0.1, 0.2, 0.3]]),
        ((2, 2, 2), 1.5),
    ],
)
def test_singular_values_are_the_given_ones(dtype, shape, singular_values):
    x = testing.generate_matrix(shape, dtype=dtype, singular_values=singular_values)
    assert x.shape == shape and x.dtype == dtype
    s = numpy.linalg.svd(x.astype(numpy.complex128), compute_uv=False)
    expected = numpy.broadcast_to(singular_values, s.shape)
    numpy.testing.assert_allclose(
        s, numpy.sort(expected, axis=-1)[..., ::-1], rtol=1e-5
    )


def test_complex_matrices_are_not_real():
    x = testing.generate_matrix(
        (3, 3), dtype=numpy.complex64, singular_values=[1, 2, 3]
    )
    assert numpy.abs(x.imag).max() > 0


def test_empty_shapes():
    x = testing.generate_matrix((0, 2, 3), singular_values=numpy.ones((0, 2)))
    assert x.shape == (0, 2, 3)


@pytest.mark.parametrize(
    'kwargs, error',
    [
        ({}, TypeError),
        ({'singular_values': 1, 'other': 2}, TypeError),
        ({'singular_values': 1j}, TypeError),
        ({'singular_values': 1, 'dtype': numpy.int32}, TypeError),
        ({'singular_values': [1, -1]}, ValueError),
        ({'singular_values': [1, 1, 1]}, ValueError),
    ],
)
def test_invalid_arguments(kwargs, error):
    with pytest.raises(error):
        testing.generate_matrix((2, 2), **kwargs)


def test_needs_a_matrix_shape():
    with pytest.raises(ValueError, match='2 or more axes'):
        testing.generate_matrix((3,), singular_values=1)
