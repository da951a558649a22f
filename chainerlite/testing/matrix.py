"""Random matrices with chosen singular values, for tests of linear algebra."""

import numpy


def _broadcast_to(array, shape):
    """Broadcasts ``array`` to ``shape``; ValueError names both shapes."""
    array = numpy.asarray(array)
    try:
        return numpy.broadcast_to(array, shape)
    except ValueError:
        raise ValueError(
            'singular_values of shape {} cannot be broadcast to {}'.format(
                array.shape, shape
            )
        ) from None


def _orthonormal_columns(batch, rows, cols, complex_):
    """Random matrices of shape ``batch + (rows, cols)``, ``rows >= cols``,
    whose columns are orthonormal (unitary for complex)."""
    a = numpy.random.normal(size=batch + (rows, cols))
    if complex_:
        a = a + 1j * numpy.random.normal(size=batch + (rows, cols))
    q, _ = numpy.linalg.qr(a)
    return q


def generate_matrix(shape, dtype=float, **kwargs):
    """Makes a random matrix (or stack of them) with given singular values.

    The result is ``U @ diag(s) @ V^H`` with random orthonormal ``U`` and
    ``V`` (unitary for complex dtypes), computed in double precision and
    cast to ``dtype``.

    Args:
        shape (tuple of int): The shape ``(..., m, n)``; at least 2-D.
        dtype: A float or complex dtype.
        singular_values (array-like): Keyword only, required. Non-negative
            real values broadcastable to ``shape[:-2] + (min(m, n),)``.

    Returns:
        numpy.ndarray: The matrix of ``shape`` and ``dtype``.

    Raises:
        TypeError: If ``singular_values`` is missing or complex, if other
            keyword arguments are given, or if ``dtype`` is not float or
            complex.
        ValueError: If ``shape`` has fewer than two axes, or the singular
            values are negative or do not broadcast.

    .. admonition:: Example

        >>> import numpy
        >>> from chainerlite import testing
        >>> x = testing.generate_matrix((3, 2), singular_values=[2., 1.])
        >>> numpy.allclose(numpy.linalg.svd(x, compute_uv=False), [2., 1.])
        True

    """
    if 'singular_values' not in kwargs:
        raise TypeError('generate_matrix needs singular_values')
    singular_values = kwargs.pop('singular_values')
    if kwargs:
        raise TypeError(
            'generate_matrix got unexpected arguments: {}'.format(
                ', '.join(sorted(kwargs))
            )
        )
    shape = tuple(shape)
    if len(shape) < 2:
        raise ValueError(
            'generate_matrix needs a shape of 2 or more axes, got {}'.format(shape)
        )
    dtype = numpy.dtype(dtype)
    if dtype.kind not in 'fc':
        raise TypeError(
            'generate_matrix makes float or complex matrices, not {}'.format(dtype)
        )
    s = numpy.asarray(singular_values)
    if s.dtype.kind not in 'biuf':
        raise TypeError('singular_values must be real, not {}'.format(s.dtype))
    if (s < 0).any():
        raise ValueError('singular_values must be non-negative')

    *batch, m, n = shape
    batch = tuple(batch)
    k = min(m, n)
    s = _broadcast_to(s, batch + (k,)).astype(numpy.float64)
    if 0 in shape:
        return numpy.zeros(shape, dtype)
    complex_ = dtype.kind == 'c'
    u = _orthonormal_columns(batch, m, k, complex_)
    v = _orthonormal_columns(batch, n, k, complex_)
    x = numpy.matmul(u * s[..., None, :], numpy.conj(numpy.swapaxes(v, -1, -2)))
    return x.astype(dtype)
