"""Array helpers (``chainerlite.utils.array``)."""

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
        numpy.ndarray or cupy.ndarray: The sums, of dtype ``x.dtype``.

    .. admonition:: Example

        >>> import numpy as np
        >>> from chainerlite.utils import array
        >>> array.sum_to(np.arange(6).reshape(2, 3), (1, 3))
        array([[3, 5, 7]])

    """
    lead = x.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(
        lead + i for i, dim in enumerate(shape) if dim == 1 and x.shape[lead + i] != 1
    )
    y = x.sum(axis=axes, keepdims=True)
    if lead:
        y = y.reshape(shape)
    return _core.force_array(y, x.dtype)
