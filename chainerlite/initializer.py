"""Base class of the initializers and the fan computation they share."""

from __future__ import annotations

import typing

from chainerlite import utils

if typing.TYPE_CHECKING:
    from chainerlite import types


class Initializer:
    """Base class of initializers, which fill arrays in place.

    Args:
        dtype: Data type specifier. When not ``None``, the initializer only
            fills arrays of this dtype, and :func:`generate_array` creates
            arrays of it.

    Attributes:
        dtype: The data type specifier given to the constructor.

    """

    def __init__(self, dtype: types.DTypeSpec | None = None) -> None:
        self.dtype = dtype

    def __call__(self, array: types.NdArray) -> None:
        """Fills ``array`` with new values, in place.

        Subclasses implement this; how the values are chosen depends on the
        initializer.

        Args:
            array (numpy.ndarray or cupy.ndarray): The array to fill.

        """
        raise NotImplementedError()

    def _check_dtype(self, array):
        if self.dtype is not None:
            assert array.dtype == self.dtype, 'dtype mismatch: {} != {}'.format(
                array.dtype, self.dtype
            )


def get_fans(shape: types.Shape) -> tuple[int, int]:
    """Returns the fan-in and fan-out of a weight of the given shape.

    The first axis is the output axis; all the others together form the
    input, as for the weights of linear and convolution layers.

    Args:
        shape (tuple of int): The weight shape, with at least two axes.

    Returns:
        tuple of int: ``(fan_in, fan_out)``.

    """
    if not isinstance(shape, tuple):
        raise ValueError('shape must be tuple. Actual type: {}'.format(type(shape)))
    if len(shape) < 2:
        raise ValueError('shape must be of length >= 2. Actual shape: {}'.format(shape))
    receptive_field_size = utils.size_of_shape(shape[2:])
    fan_in = shape[1] * receptive_field_size
    fan_out = shape[0] * receptive_field_size
    return fan_in, fan_out
