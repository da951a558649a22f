"""Array helpers (``chainerlite.utils.array``)."""

import warnings

from chainerlite import _core
from chainerlite.utils import size_of_shape  # NOQA  (Chainer's path)


def sum_to(x, shape):
    """Sums an array down to a shape it can be broadcast from.

    Leading axes of ``x`` beyond ``len(shape)`` are summed away, and so are
    the axes where ``shape`` is 1 and ``x`` is not.

    Args:
        x (numpy.ndarray or cupy.ndarray): The array.
        shape (tuple of int): The shape of the result.

    Returns:
        numpy.ndarray or cupy.ndarray: The sums, of dtype ``x.dtype``
        (``x`` itself when it already has that shape).

    .. admonition:: Example

        >>> import numpy as np
        >>> from chainerlite.utils import array
        >>> array.sum_to(np.arange(6).reshape(2, 3), (1, 3))
        array([[3, 5, 7]])

    """
    if x.shape == tuple(shape):
        return x
    from chainerlite import variable

    if isinstance(x, variable.Variable):
        raise TypeError(
            'chainer.utils.sum_to does not support Variable input. '
            'Use chainer.functions.sum_to instead.'
        )
    lead = x.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(
        lead + i for i, dim in enumerate(shape) if dim == 1 and x.shape[lead + i] != 1
    )
    y = x.sum(axis=axes, keepdims=True)
    if lead:
        y = y.reshape(shape)
    return _core.force_array(y, x.dtype)


def as_vec(x):
    """Returns ``x`` flattened to one dimension (a view when possible).

    Args:
        x (numpy.ndarray or cupy.ndarray): The array.

    Returns:
        numpy.ndarray or cupy.ndarray: ``x`` itself if it is 1-d, else a
        1-d array of its elements in C order.

    """
    _deprecated('as_vec', 'numpy.ravel', 'flatten ndarrays')
    if x.ndim == 1:
        return x
    return x.ravel()


def as_mat(x):
    """Returns ``x`` as a matrix of one row per item of its first axis.

    Args:
        x (numpy.ndarray or cupy.ndarray): The array (at least 1-d).

    Returns:
        numpy.ndarray or cupy.ndarray: ``x`` itself if it is 2-d, else an
        array of shape ``(len(x), size // len(x))``.

    """
    _deprecated('as_mat', 'numpy.reshape', 'reshape ndarrays')
    if x.ndim == 2:
        return x
    return x.reshape(len(x), -1)


def empty_like(x):
    """Returns an uninitialised array of the shape, dtype, memory order and
    device of ``x``.

    Args:
        x (numpy.ndarray or cupy.ndarray): The model array.

    Returns:
        numpy.ndarray or cupy.ndarray: A new array.

    """
    _deprecated('empty_like', 'numpy.empty_like', 'initialize empty arrays')
    from chainerlite import backend

    return backend.get_array_module(x).empty_like(x)


def _deprecated(name, replacement, purpose):
    # Chainer 7.8.1 deprecates the three array helpers with this warning.
    warnings.warn(
        'chainer.utils.array.{} is deprecated. Please refer to {} or other '
        'array backend functions to {}.'.format(name, replacement, purpose),
        DeprecationWarning,
        stacklevel=3,
    )
