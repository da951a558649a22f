"""ChainerX, as in a Chainer install built without it.

chainerlite has no ChainerX: no array is a ChainerX array,
:meth:`ChainerxDevice.from_array` returns None, and making a ChainerX
device, or converting to ChainerX, raises RuntimeError naming ChainerX.
"""

from chainerlite import _backend


def is_available():
    """Returns whether ChainerX can be used (never, in chainerlite)."""
    return False


def _unavailable(what):
    return RuntimeError(
        'ChainerX is not available in chainerlite: {} needs a Chainer '
        'built with ChainerX.'.format(what)
    )


class ChainerxDevice(_backend.Device):
    """A ChainerX device (spec such as ``'native:0'`` or ``'cuda:0'``).

    Raises:
        RuntimeError: When constructed, since ChainerX is not available.

    """

    def __init__(self, device):
        raise _unavailable('ChainerxDevice({!r})'.format(device))

    @staticmethod
    def from_array(array):
        """Returns None: no array is a ChainerX array."""
        return None

    @property
    def fallback_device(self):
        """The NumPy or CuPy device of the same hardware; raises
        RuntimeError, as no ChainerX device exists here (a subclass that
        skips the constructor reaches it too)."""
        raise _unavailable('ChainerxDevice.fallback_device')

    @staticmethod
    def from_fallback_device(device):
        """Would return the ChainerX device for ``device``; always raises."""
        raise _unavailable('ChainerxDevice.from_fallback_device')


def to_chx(array):
    """Would convert an array to ChainerX; always raises RuntimeError."""
    raise _unavailable('to_chx')


def from_chx(array):
    """Returns ``array``: an array that is not a ChainerX one is unchanged."""
    return array
