"""iDeep (Intel64) support, as in a Chainer install without iDeep.

chainerlite has no iDeep code path: :func:`is_ideep_available` is always
False, :func:`should_use_ideep` always False (the NumPy code runs whatever
``config.use_ideep`` says), and constructing an :class:`Intel64Device`
raises. The names exist so that code written for Chainer imports and takes
its NumPy branch.
"""

import numpy

from chainerlite import _backend
from chainerlite import _core

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
        check_ideep_available()

    @staticmethod
    def from_array(array):
        """Returns an Intel64Device for an iDeep array, None otherwise."""
        if isinstance(array, mdarray):
            return Intel64Device()
        return None

    def send_array(self, array):
        raise RuntimeError('iDeep is not available')


def is_ideep_available():
    """Returns whether iDeep can be used (never, in chainerlite)."""
    return False


def check_ideep_available():
    """Raises RuntimeError, naming iDeep, since it cannot be used."""
    raise RuntimeError(
        'iDeep is not available: chainerlite has no iDeep (Intel64) '
        'code path; use the default NumPy backend.'
    )


def should_use_ideep(level):
    """Tells whether a function should take its iDeep path.

    Args:
        level (str): ``'>=auto'`` or ``'==always'``, the lowest
            ``config.use_ideep`` value at which the caller would use iDeep.

    Returns:
        bool: Always False, since iDeep is not available.

    Raises:
        ValueError: If ``level`` or ``config.use_ideep`` is not a valid
            value.

    """
    if level not in ('>=auto', '==always'):
        raise ValueError('invalid iDeep level: {!r}'.format(level))
    if _core.config.use_ideep not in _USE_IDEEP_VALUES:
        raise ValueError(
            'invalid use_ideep configuration: {!r} (expected one of {})'.format(
                _core.config.use_ideep, _USE_IDEEP_VALUES
            )
        )
    return False


def inputs_all_ready(inputs, supported_ndim=(2, 4)):
    """Tells whether iDeep can process all the inputs (never here)."""
    return False
