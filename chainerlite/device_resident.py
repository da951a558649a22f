"""Objects that keep arrays on one device and move them all together.

:class:`DeviceResident` is the base of :class:`~chainerlite.Link` and
:class:`~chainerlite.utils.WalkerAlias`. Moving one (``to_device``) walks its
tree with a :class:`DeviceResidentsVisitor`: each object hands the visitor
itself, its arrays and its variables, then its children. A class with arrays
of its own overrides :meth:`DeviceResident.device_resident_accept`.
"""

from __future__ import annotations

import typing
import warnings

from chainerlite import backend
from chainerlite.backends import _chainerx
from chainerlite.backends import cuda
from chainerlite.backends import intel64

if typing.TYPE_CHECKING:
    from typing_extensions import Self

    from chainerlite import types


class DeviceResidentsVisitor:
    """Visits the objects, arrays and variables of a device-resident tree.

    A subclass defines the three ``visit_*`` methods;
    :meth:`DeviceResident.device_resident_accept` calls them.
    """

    def visit_device_resident(self, device_resident: DeviceResident) -> None:
        """Called once for each :class:`DeviceResident` of the tree."""
        raise NotImplementedError(
            '{} must define visit_device_resident'.format(type(self).__name__)
        )

    def visit_array(self, arr: types.NdArray) -> types.NdArray:
        """Called for each array an object keeps; returns the array to keep
        (the same one if the visitor makes no new array)."""
        raise NotImplementedError(
            '{} must define visit_array'.format(type(self).__name__)
        )

    def visit_variable(self, param: typing.Any) -> None:
        """Called for each :class:`~chainerlite.Variable` or
        :class:`~chainerlite.Parameter` an object keeps."""
        raise NotImplementedError(
            '{} must define visit_variable'.format(type(self).__name__)
        )


# The deprecated moves, which a class may override to move arrays of its own.
_MOVES = ('to_cpu', 'to_gpu', 'to_intel64')


def _move_to(device):
    """The deprecated move to ``device`` and its keyword arguments (None for
    a device none of them reaches)."""
    if device.xp is cuda.cupy:
        return 'to_gpu', {'device': device.device.id}
    if isinstance(device, intel64.Intel64Device):
        return 'to_intel64', {}
    if isinstance(device, backend.CpuDevice):
        return 'to_cpu', {}
    return None, {}


class _ToDeviceVisitor(DeviceResidentsVisitor):
    # Sends everything it visits to one device. As in Chainer, an object
    # whose class overrides the move there (to_cpu for the CPU, ...) has
    # that method called as well, unless the walk started from its own
    # move (``start``); ``move`` is the move the walk was asked as, None
    # for to_device.

    def __init__(self, device, move=None, start=None):
        self._device = device
        self._move = (move, {}) if move else _move_to(device)
        self._start = start

    def visit_device_resident(self, device_resident):
        device_resident._device = self._device
        name, kwargs = self._move
        if name in device_resident._overridden_moves and (
            device_resident is not self._start
        ):
            if name == 'to_gpu' and not kwargs:
                kwargs = {'device': self._device.device.id}
            getattr(device_resident, name)(**kwargs)

    def visit_array(self, arr):
        return self._device.send(arr)

    def visit_variable(self, param):
        param.to_device(self._device)


def _warn_deprecated_move(obj, method, spec):
    warnings.warn(
        '{}.{} is deprecated; use to_device({}) instead'.format(
            type(obj).__name__, method, spec
        ),
        DeprecationWarning,
        stacklevel=3,
    )


class DeviceResident:
    """An object whose arrays live on one device, with its children's.

    It starts on the CPU. :meth:`to_device` moves the whole tree; the
    deprecated :meth:`to_cpu`, :meth:`to_gpu` and :meth:`to_intel64` are
    shorthands for it.
    """

    _device: backend.Device = backend.CpuDevice()
    # the deprecated moves (to_cpu, ...) the class overrides (see
    # _ToDeviceVisitor); found once per class
    _overridden_moves: tuple[str, ...] = ()

    def __init_subclass__(cls, **kwargs: typing.Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._overridden_moves = tuple(
            m for m in _MOVES if getattr(cls, m) is not getattr(DeviceResident, m)
        )

    def __init__(self) -> None:
        self._device = backend.CpuDevice()

    @property
    def device(self) -> backend.Device:
        """~chainerlite.backend.Device: Where the object's arrays live."""
        return self._device

    @property
    def xp(self) -> types.Xp:
        """module: The array module (``numpy`` or ``cupy``) of the device."""
        return self._device.xp

    def device_resident_accept(self, visitor: DeviceResidentsVisitor) -> None:
        """Hands ``visitor`` this object, then what it holds.

        The base class visits the object itself only; a subclass with arrays,
        variables or child objects calls this first, then visits those
        (arrays through ``visit_array``, keeping what it returns).

        Args:
            visitor (DeviceResidentsVisitor): The visitor.
        """
        visitor.visit_device_resident(self)

    def to_device(self, device: types.DeviceSpec) -> Self:
        """Moves the arrays and variables of the tree to a device, in place.

        Args:
            device: A device specifier (``'@numpy'``, ``'@cupy:0'``, a
                :class:`~chainerlite.backend.Device`, ...).

        Returns:
            This object.
        """
        self.device_resident_accept(_ToDeviceVisitor(backend.get_device(device)))
        return self

    def to_cpu(self) -> Self:
        """Moves the tree to the CPU. Deprecated: use ``to_device('@numpy')``.

        Returns:
            This object.
        """
        _warn_deprecated_move(self, 'to_cpu', "'@numpy'")
        return self._move_tree(backend.CpuDevice(), 'to_cpu')

    def to_gpu(self, device: types.CudaDeviceSpec | None = None) -> Self:
        """Moves the tree to a GPU. Deprecated: use ``to_device('@cupy:N')``.

        Args:
            device (int): The GPU id; the current CUDA device when ``None``.

        Returns:
            This object.

        Raises:
            RuntimeError: If CuPy or a CUDA device is not available.
        """
        _warn_deprecated_move(self, 'to_gpu', "'@cupy:N'")
        cuda.check_cuda_available()
        if device is None:
            device = cuda.cupy.cuda.runtime.getDevice()
        return self._move_tree(backend.GpuDevice(device), 'to_gpu')

    def to_intel64(self) -> Self:
        """Moves the tree to iDeep arrays. Deprecated, as in Chainer.

        Raises:
            RuntimeError: Always here: chainerlite has no iDeep backend.
        """
        _warn_deprecated_move(self, 'to_intel64', "'@intel64'")
        intel64.check_ideep_available()
        return self._move_tree(backend.get_device('@intel64'), 'to_intel64')

    def _move_tree(self, device, move):
        self.device_resident_accept(_ToDeviceVisitor(device, move, start=self))
        return self

    def to_chx(self) -> Self:
        """Moves the tree to ChainerX.

        Raises:
            RuntimeError: Always: ChainerX is not available.
        """
        raise _chainerx._unavailable('to_chx')

    def from_chx(self) -> Self:
        """Moves the tree from ChainerX: nothing to do, since no array is a
        ChainerX one here.

        Returns:
            This object.
        """
        return self
