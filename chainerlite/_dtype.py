"""The default dtype: ``config.dtype``, ``mixed16`` and ``get_dtype``."""

import numpy

from chainerlite import _core


class _Mixed16(object):
    # The value of `mixed16`: a dtype-like object that NumPy reads as
    # float16 (through its `dtype` attribute), told apart by identity.

    dtype = numpy.dtype(numpy.float16)

    def __repr__(self):
        return "dtype('mixed16')"

    def __reduce__(self):
        return 'mixed16'


#: ``config.dtype`` value of the mixed16 mode: arrays are float16, while
#: :func:`get_dtype` with ``map_mixed16`` gives the dtype a computation
#: keeps in higher precision (parameters of normalization layers, say).
mixed16 = _Mixed16()


def dtype_from_env(value):
    """The ``config.dtype`` for a ``CHAINER_DTYPE`` value."""
    return mixed16 if value == 'mixed16' else numpy.dtype(value)


def get_dtype(dtype=None, map_mixed16=None):
    """Resolves a dtype, with ``config.dtype`` as the default.

    Args:
        dtype: A dtype, :data:`mixed16`, or None for ``config.dtype``.
        map_mixed16: The dtype that :data:`mixed16` stands for; float16
            when None.

    Returns:
        numpy.dtype: The dtype.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite as chainer
        >>> with chainer.using_config('dtype', chainer.mixed16):
        ...     chainer.get_dtype(), chainer.get_dtype(map_mixed16=np.float32)
        (dtype('float16'), dtype('float32'))

    """
    if dtype is None:
        dtype = _core.config.dtype
    if dtype is mixed16 and map_mixed16 is not None:
        dtype = map_mixed16
    return numpy.dtype(dtype)
