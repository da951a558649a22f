"""Devices and array modules (``chainerlite.backend``).

A device is where arrays live: :class:`CpuDevice` (NumPy, spec
``'@numpy'``), :class:`GpuDevice` (CuPy, spec ``'@cupy:N'``), and, as in a
Chainer without iDeep and ChainerX, :class:`Intel64Device` and
:class:`ChainerxDevice`, which cannot be made. :func:`get_device` turns a
specifier into a device; ``device.send(arrays)`` moves arrays there.
"""

from __future__ import annotations

import numpy
import sys
import typing

from chainerlite import _backend
from chainerlite._core import handover
from chainerlite.backends import _chainerx
from chainerlite.backends import _cpu
from chainerlite.backends import cuda
from chainerlite.backends import intel64

if typing.TYPE_CHECKING:
    from chainerlite import types

Device = _backend.Device
CpuDevice = _cpu.CpuDevice
GpuDevice = cuda.GpuDevice
Intel64Device = intel64.Intel64Device
ChainerxDevice = _chainerx.ChainerxDevice
to_chx = _chainerx.to_chx
from_chx = _chainerx.from_chx

# numpy or cupy for the given arrays or Variables (compiled: it runs in
# nearly every function's forward and backward)
get_array_module = cuda.get_array_module

# Kinds of device, in the order get_device_from_array asks them (the CPU
# last: it is the answer when no other kind claims an array).
_DEVICE_TYPES = (ChainerxDevice, Intel64Device, GpuDevice, CpuDevice)


def _invalid(device_spec):
    return ValueError('invalid device specifier: {!r}'.format(device_spec))


def _device_from_id(device_id):
    # The legacy integer specs: a negative one is the CPU (Chainer takes any,
    # -1 by custom), N >= 0 the GPU N.
    if device_id < 0:
        return CpuDevice()
    return GpuDevice.from_device_id(device_id)


def _device_from_str(device_spec):
    if device_spec.startswith('@'):
        module, sep, index = device_spec[1:].partition(':')
        if not sep:
            if module == 'numpy':
                return CpuDevice()
            if module == 'intel64':
                return Intel64Device()
        elif module == 'cupy':
            try:
                device_id = int(index)
            except ValueError:
                raise _invalid(device_spec) from None
            # CUDA's availability first, then the id (Chainer's order)
            return GpuDevice.from_device_id(device_id)
        raise _invalid(device_spec)
    try:
        device_id = int(device_spec)
    except ValueError:
        # Anything else names a ChainerX device ('native:0', 'cuda:1').
        return ChainerxDevice(device_spec)
    return _device_from_id(device_id)


def get_device(device_spec: types.DeviceSpec) -> Device:
    """Returns the device a specifier denotes.

    Args:
        device_spec: One of

            - a :class:`Device` (returned as is);
            - ``'@numpy'``, ``'@cupy:N'``, ``'@intel64'``;
            - an integer or its string (legacy): a negative one (``-1`` by
              custom) is the CPU, ``N >= 0`` the GPU ``N``;
            - a ``cupy.cuda.Device``;
            - another string names a ChainerX device (``'native:0'``),
              which chainerlite does not have.

    Returns:
        Device: The device.

    Raises:
        ValueError: If the specifier is malformed.
        RuntimeError: If it names a ChainerX device, an iDeep device, or a
            GPU while CUDA is not available.
        TypeError: If it is of no accepted type (an array module such as
            ``numpy`` is not a device specifier, as in Chainer).

    .. admonition:: Example

        >>> import chainerlite as chainer
        >>> chainer.get_device('@numpy')
        <CpuDevice (numpy)>
        >>> chainer.get_device(-1) == chainer.get_device('@numpy')
        True

    """
    if isinstance(device_spec, Device):
        return device_spec
    if isinstance(device_spec, str):
        return _device_from_str(device_spec)
    if cuda._is_device_id(device_spec):
        return _device_from_id(device_spec)
    if cuda._cupy_imported and isinstance(device_spec, cuda.Device):
        return GpuDevice(device_spec)
    raise TypeError(
        'invalid device specifier: {!r} (of type {})'.format(
            device_spec, type(device_spec).__name__
        )
    )


def using_device(device_spec: types.DeviceSpec) -> typing.ContextManager[None]:
    """Returns a context manager in which a device is the current one.

    The specifier is checked at once (see :func:`get_device`); on the CPU
    the context does nothing, on a GPU it makes that CUDA device current.

    Args:
        device_spec: A device specifier.

    Returns:
        A context manager.

    """
    return get_device(device_spec).create_context()


def get_device_from_array(*arrays: types.NdArray) -> Device:
    """Returns the device where the first array off the CPU lives.

    Anything that is not an array of a known kind counts as the CPU; with
    no array off the CPU (or none at all) it gives the CPU.
    """
    for array in arrays:
        for device_type in _DEVICE_TYPES[:-1]:
            device = device_type.from_array(array)
            if device is not None:
                return device
    return CpuDevice()


def _is_array(value):
    return isinstance(value, (numpy.ndarray, cuda.ndarray))


def _contains_nan(x):
    # Whether an array (NumPy or CuPy) holds a NaN; integer and boolean
    # arrays never do (Chainer's helper of the same name).
    if x.dtype.kind not in 'fc':
        return False
    device = get_device_from_array(x)
    with device.create_context():
        return bool(device.xp.isnan(x).any())


def _guess_device_from_array_module(xp):
    # A device whose arrays ``xp`` makes: the current CUDA device for CuPy,
    # else the CPU (Chainer's helper of the same name).
    if cuda.available and xp is cuda.cupy:
        return cuda.GpuDevice(cuda.cupy.cuda.Device())
    return CpuDevice()


def copyto(dst: types.NdArray, src: types.NdArray) -> None:
    """Copies the elements of ``src`` into ``dst``, across devices.

    Args:
        dst (numpy.ndarray or cupy.ndarray): The destination.
        src (numpy.ndarray or cupy.ndarray): The source, broadcast to the
            shape of ``dst`` and cast to its dtype.

    Raises:
        TypeError: If ``dst`` or ``src`` is not an array.

    """
    if not _is_array(src):
        raise TypeError('copyto: cannot copy from {}'.format(type(src)))
    if isinstance(dst, numpy.ndarray):
        numpy.copyto(dst, _cpu._to_cpu(src))
    elif isinstance(dst, cuda.ndarray):
        with dst.device:
            cuda.cupy.copyto(dst, cuda.to_gpu(src, dst.device))
    else:
        raise TypeError('copyto: cannot copy to {}'.format(type(dst)))


def move_array_like(array, like):
    """Returns ``array`` on the device of ``like``."""
    return get_device_from_array(like).send(array)


def variable_to_device(var, device_spec):
    """Moves the data and gradient of a Variable to a device in place."""
    device = get_device(device_spec)
    if var.array is not None:
        var.array = device.send(var.array)
    if var.grad is not None:
        var.grad = device.send(var.grad)


# Variable's device methods call this module from the core.
handover.provide(backend=sys.modules[__name__])
