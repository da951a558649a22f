"""iDeep (Intel64) support: oneDNN, the library iDeep wrapped, in its place.

Chainer's iDeep backend ran functions on oneDNN. Here the 2-d convolutions
run on oneDNN where it is installed (the ``onednn`` extra; see
``chainerlite._kernels.onednn``), on NumPy arrays: :func:`is_ideep_available`
tells whether it was found, and :func:`should_use_ideep` answers with
``config.use_ideep`` as Chainer's does. There is no iDeep array type
(``mdarray``), so constructing an :class:`Intel64Device` raises.
"""

import numpy

from chainerlite import _backend
from chainerlite import _core
from chainerlite._kernels import onednn

ideep = None

_USE_IDEEP_VALUES = ('always', 'auto', 'never')


class mdarray(object):
    """Placeholder type: no array is an instance of it without iDeep."""

    def __init__(self, *args, **kwargs):
        raise RuntimeError('iDeep is not available: cannot create mdarray')


class Intel64Device(_backend.Device):
    """The host with iDeep arrays (spec ``'@intel64'``).

    Raises:
        RuntimeError: When constructed, since iDeep is not available.

    """

    xp = numpy
    supported_array_types = (numpy.ndarray, mdarray)
    name = '@intel64'

    def __init__(self):
        raise RuntimeError(
            "iDeep arrays are not available: no '@intel64' device "
            '(oneDNN, where installed, runs on NumPy arrays)'
        )

    @staticmethod
    def from_array(array):
        """Returns an Intel64Device for an iDeep array, None otherwise."""
        if isinstance(array, mdarray):
            return Intel64Device()
        return None

    def send_array(self, array):
        raise RuntimeError('iDeep is not available')


def is_ideep_available():
    """Returns whether oneDNN (iDeep's library) was found and works."""
    return onednn.available()


def check_ideep_available():
    """Raises RuntimeError, with the reason, where oneDNN cannot be used."""
    if not onednn.available():
        raise RuntimeError(
            'iDeep is not available.\nReason: oneDNN (libdnnl.so.3, the '
            "'onednn' extra) was not found or does not work: "
            + onednn.unavailable_reason()
        )


def should_use_ideep(level):
    """Tells whether a function should take its iDeep (oneDNN) path.

    Args:
        level (str): ``'>=auto'`` or ``'==always'``, the lowest
            ``config.use_ideep`` value at which the caller would use iDeep.

    Returns:
        bool: False where oneDNN is not available; else whether
        ``config.use_ideep`` is at ``level`` or above.

    Raises:
        ValueError: If ``level`` or ``config.use_ideep`` is not a valid
            value (where oneDNN is available, as in Chainer).

    """
    if not is_ideep_available():
        return False
    if level not in ('>=auto', '==always'):
        raise ValueError('invalid iDeep level: {!r}'.format(level))
    mode = _core.config.use_ideep
    if mode not in _USE_IDEEP_VALUES:
        raise ValueError(
            'invalid use_ideep configuration: {!r} (expected one of {})'.format(
                mode, _USE_IDEEP_VALUES
            )
        )
    return mode == 'always' or (level == '>=auto' and mode == 'auto')


def inputs_all_ready(inputs, supported_ndim=(2, 4)):
    """Tells whether oneDNN can take all the inputs: it is available and
    each input (a Variable's array, or an array) is a float32 NumPy array
    with a number of axes in ``supported_ndim``."""
    if not is_ideep_available():
        return False
    arrays = [getattr(a, 'array', a) for a in inputs]
    return all(
        isinstance(a, numpy.ndarray)
        and a.dtype == numpy.float32
        and a.ndim in supported_ndim
        for a in arrays
    )
