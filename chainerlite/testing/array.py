"""Array assertions for tests."""

import numpy


def _as_numpy(x):
    """Returns ``x`` as something NumPy can compare: host arrays or scalars.

    Variables are unwrapped (duck-typed through ``array`` so that this module
    needs no import of the core) and CuPy arrays are copied to the host.
    """
    if (
        not isinstance(x, (numpy.ndarray, numpy.generic))
        and hasattr(x, 'array')
        and hasattr(x, 'creator')
    ):
        x = x.array
    if type(x).__module__.split('.')[0] == 'cupy':
        x = x.get()
    return x


def _as_noncontiguous(xp, a):
    """Returns a copy of ``a`` that is not C-contiguous, where possible."""
    axes = [i for i, n in enumerate(a.shape) if n > 1]
    if not axes:
        return a.copy()
    axis = axes[-1]
    shape = list(a.shape)
    shape[axis] *= 2
    index = [slice(None)] * a.ndim
    index[axis] = slice(None, None, 2)
    out = xp.empty(shape, a.dtype)[tuple(index)]
    out[...] = a
    return out


def _as_noncontiguous_array(array):
    """Returns an array equal to ``array`` that is not C-contiguous (the
    helper Chainer's tests use): ``None`` stays ``None``, lists and tuples
    are converted item by item, an array of one element or none comes back
    as it is (it cannot be non-contiguous)."""
    if array is None:
        return None
    if isinstance(array, (list, tuple)):
        return type(array)(_as_noncontiguous_array(a) for a in array)
    if array.size <= 1:
        return array
    from chainerlite import backend

    return _as_noncontiguous(backend.get_array_module(array), array)


def assert_allclose(x, y, atol=1e-5, rtol=1e-4, verbose=True):
    """Asserts that two arrays are equal within a tolerance.

    The arrays are close if ``|x - y| <= atol + rtol * |y|`` elementwise, as
    in :func:`numpy.testing.assert_allclose` (they are broadcast against
    each other). CuPy arrays are copied to the host first, and Variables are
    compared through their arrays.

    Args:
        x (numpy.ndarray, cupy.ndarray, Variable or scalar): The actual value.
        y (numpy.ndarray, cupy.ndarray, Variable or scalar): The expected
            value.
        atol (float): Absolute tolerance.
        rtol (float): Relative tolerance.
        verbose (bool): If ``True``, the message includes the arrays.

    Raises:
        AssertionError: If the values are not close. The message reports the
            largest absolute and relative errors and where the first
            mismatch is.

    .. admonition:: Example

        >>> import numpy
        >>> from chainerlite import testing
        >>> testing.assert_allclose(numpy.array([1.0, 2.0]), [1.0, 2.000001])

    """
    x = _as_numpy(x)
    y = _as_numpy(y)
    try:
        numpy.testing.assert_allclose(x, y, atol=atol, rtol=rtol, verbose=verbose)
    except AssertionError as e:
        raise AssertionError(_report(x, y, atol, rtol, verbose, e)) from None


def _report(x, y, atol, rtol, verbose, error):
    xa = numpy.asarray(x)
    ya = numpy.asarray(y)
    lines = ['Not equal to tolerance rtol={}, atol={}'.format(rtol, atol)]
    try:
        xb, yb = numpy.broadcast_arrays(xa, ya)
        xf = xb.astype(numpy.float64)
        yf = yb.astype(numpy.float64)
    except (ValueError, TypeError):
        lines.append(str(error))
        return '\n'.join(lines)
    with numpy.errstate(divide='ignore', invalid='ignore'):
        abs_err = numpy.abs(xf - yf)
        rel_err = abs_err / numpy.abs(yf)
        bad = ~numpy.isclose(xf, yf, rtol=rtol, atol=atol, equal_nan=True)
    lines.append('x: shape={} dtype={}'.format(xa.shape, xa.dtype))
    lines.append('y: shape={} dtype={}'.format(ya.shape, ya.dtype))
    if abs_err.size:
        lines.append('mismatched elements: {} / {}'.format(int(bad.sum()), bad.size))
        lines.append(
            'max absolute error: {}'.format(
                numpy.nanmax(abs_err) if not numpy.isnan(abs_err).all() else 'nan'
            )
        )
        finite_rel = rel_err[numpy.isfinite(rel_err)]
        if finite_rel.size:
            lines.append('max relative error: {}'.format(finite_rel.max()))
        if bad.any():
            index = tuple(int(i) for i in numpy.argwhere(bad)[0])
            lines.append(
                'first mismatch at index {}: x={} y={}'.format(
                    index, xf[index], yf[index]
                )
            )
    if verbose:
        options = dict(threshold=200, max_line_width=79)
        lines.append('x:\n' + numpy.array2string(xa, **options))
        lines.append('y:\n' + numpy.array2string(ya, **options))
    return '\n'.join(lines)
