"""Devices and array modules (``chainerlite.backend``).

Two devices exist: ``CpuDevice`` (NumPy, spec ``'@numpy'``) and
``GpuDevice`` (CuPy, spec ``'@cupy:N'``).
"""
import numpy

from chainerlite.backends import cuda


# numpy or cupy for the given arrays or Variables (compiled: it runs in
# nearly every function's forward and backward)
get_array_module = cuda.get_array_module


class Device(object):
    """A place where arrays live; ``xp`` is its array module."""

    xp = numpy

    def __eq__(self, other):
        return isinstance(other, Device) and str(self) == str(other)

    def __hash__(self):
        return hash(str(self))

    def __repr__(self):
        return '<%s %s>' % (type(self).__name__, self)

    def use(self):
        """Makes this device current (a no-op on the CPU)."""


class CpuDevice(Device):
    """The host (NumPy arrays)."""

    def __str__(self):
        return '@numpy'

    def send(self, array):
        """Returns ``array`` as a NumPy array."""
        return cuda.to_cpu(array)


class GpuDevice(Device):
    """A CUDA device (CuPy arrays)."""

    def __init__(self, device_id):
        cuda.check_cuda_available()
        self.device_id = int(device_id)
        self.xp = cuda.cupy

    def __str__(self):
        return '@cupy:%d' % self.device_id

    def send(self, array):
        """Returns ``array`` copied to this device."""
        return cuda.to_gpu(array, self.device_id)

    def use(self):
        cuda.cupy.cuda.Device(self.device_id).use()


def get_device(device_spec):
    """Returns the Device for a spec.

    Args:
        device_spec: A Device, ``'@numpy'``, ``'@cupy:N'``, ``numpy``,
            ``cupy``, an int (``-1`` is the CPU, ``N >= 0`` a GPU).

    Returns:
        Device: The device.
    """
    if isinstance(device_spec, Device):
        return device_spec
    if device_spec is numpy or device_spec == '@numpy' or device_spec == -1:
        return CpuDevice()
    if cuda.cupy is not None and device_spec is cuda.cupy:
        return GpuDevice(0)
    if isinstance(device_spec, str) and device_spec.startswith('@cupy:'):
        return GpuDevice(int(device_spec[len('@cupy:'):]))
    if isinstance(device_spec, int) and device_spec >= 0:
        return GpuDevice(device_spec)
    raise ValueError('invalid device specifier: %r' % (device_spec,))


def get_device_from_array(array):
    """Returns the Device where ``array`` lives."""
    if cuda.cupy is not None and isinstance(array, cuda.cupy.ndarray):
        return GpuDevice(array.device.id)
    return CpuDevice()


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
