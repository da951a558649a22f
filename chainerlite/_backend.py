"""The base class of devices (``chainerlite.backend.Device``)."""

from __future__ import annotations

import contextlib
import typing

if typing.TYPE_CHECKING:
    from chainerlite import types


def _convert_arrays(arrays, func):
    # `func` applied to one array, or to each entry of a list or tuple; an
    # array that appears several times is converted once, None stays None.
    if not isinstance(arrays, (list, tuple)):
        return func(arrays)
    done = {}
    ret = []
    for a in arrays:
        if a is None:
            ret.append(None)
            continue
        key = id(a)
        if key not in done:
            done[key] = func(a)
        ret.append(done[key])
    return type(arrays)(ret)


class Device(object):
    """A place where arrays live, together with its array module.

    Subclasses set :attr:`xp`, :attr:`supported_array_types` and
    :attr:`name`, and implement :meth:`send_array` and :meth:`from_array`.
    Two devices are equal when they denote the same place, and a device is
    hashable, so it can key a dict.

    Attributes:
        xp (module): The array module of the device (``numpy``,
            ``cupy``, ...).
        supported_array_types (tuple of type): The array types that live
            on this kind of device.
        name (str): The device specifier that :func:`~chainerlite.
            get_device` turns back into an equal device.

    """

    xp: types.Xp = None
    supported_array_types: tuple[type, ...] = ()
    name: typing.Any = None

    @staticmethod
    def from_array(array):
        """Returns the device of ``array``, or None if it is not of this kind."""
        return None

    def __str__(self):
        return self.name

    def __eq__(self, other):
        return type(self) is type(other) and self.name == other.name

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash((type(self), self.name))

    def __enter__(self):
        raise RuntimeError(
            'A Device cannot be used as a context manager; use '
            'chainerlite.using_device({!r}) instead.'.format(self.name)
        )

    def __exit__(self, *exc_info):
        return False

    def create_context(self) -> typing.ContextManager[None]:
        """Returns a context manager in which this device is the current one.

        On devices without a notion of "current" (the CPU) it does nothing.
        """
        return contextlib.nullcontext()

    def send_array(self, array: types.NdArray) -> types.NdArray:
        """Returns ``array`` on this device (the array itself if it is
        already there)."""
        raise NotImplementedError(
            '{}.send_array is not implemented'.format(type(self).__name__)
        )

    def send(self, arrays: typing.Any) -> typing.Any:
        """Sends an array, or each array of a list or tuple, to this device.

        Args:
            arrays: An array, or a list or tuple of arrays (``None`` entries
                stay ``None``).

        Returns:
            The array(s) on this device, in the same container type. An
            array already on this device is returned as is, without a copy.

        """
        return _convert_arrays(arrays, self.send_array)

    def use(self) -> None:
        """Makes this device the current one of the thread (a no-op where
        there is no current device, as on the CPU)."""

    def is_array_supported(self, array: typing.Any) -> bool:
        """Returns whether ``array`` lives on this device."""
        return isinstance(array, self.supported_array_types)
