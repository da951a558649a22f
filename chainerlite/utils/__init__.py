"""Small array helpers shared by functions, links and the testing tools."""

import numpy


def force_array(x, dtype=None):
    """Makes sure that ``x`` is an array, not a NumPy scalar.

    NumPy operations on 0-dimensional arrays return NumPy scalars (for
    example ``numpy.float32``) instead of arrays. Functions must return
    arrays, so their results go through this helper. CuPy arrays, which are
    never scalars, are returned as they are (cast when ``dtype`` is given).

    Args:
        x (numpy.ndarray, cupy.ndarray or scalar): The value to convert.
        dtype: If not ``None``, the result is cast to this dtype.

    Returns:
        numpy.ndarray or cupy.ndarray: ``x`` as an array.

    .. admonition:: Example

        >>> import numpy
        >>> from chainerlite.utils import force_array
        >>> y = force_array(numpy.float32(2) * numpy.float32(3))
        >>> type(y).__name__, y.shape, y.dtype
        ('ndarray', (), dtype('float32'))

    """
    if dtype is None and type(x) is numpy.ndarray:
        return x
    if numpy.isscalar(x) or isinstance(x, numpy.generic):
        if dtype is None:
            return numpy.asarray(x)
        return numpy.asarray(x, dtype=dtype)
    if dtype is None:
        return x
    return x.astype(dtype, copy=False)


def force_type(dtype, value):
    """Casts ``value`` to ``dtype`` unless it already has that dtype.

    Args:
        dtype: The wanted dtype.
        value (numpy.ndarray, cupy.ndarray or scalar): The value to cast.

    Returns:
        ``value`` cast to ``dtype``: arrays stay arrays, scalars become NumPy
        scalars of that dtype.

    """
    if numpy.isscalar(value) or isinstance(value, numpy.generic):
        return numpy.dtype(dtype).type(value)
    if value.dtype != dtype:
        return value.astype(dtype, copy=False)
    return value


def size_of_shape(shape):
    """Returns the number of elements of an array of the given shape.

    Args:
        shape (tuple of int): An array shape.

    Returns:
        int: The product of the dimensions (``1`` for ``()``).

    """
    size = 1
    for dim in shape:
        size *= dim
    return int(size)


from chainerlite.utils.walker_alias import WalkerAlias  # NOQA
