"""backends._cpu: CpuDevice and the conversions to host memory."""

import numpy
import pytest

import chainerlite
from chainerlite import backend
from chainerlite.backends import _cpu


def test_cpu_device_attributes():
    device = backend.CpuDevice()
    assert device.xp is numpy
    assert device.supported_array_types == (numpy.ndarray,)
    assert device.name == str(device) == '@numpy'
    assert repr(device) == '<CpuDevice (numpy)>'


def test_cpu_devices_are_equal_and_hash_alike():
    assert backend.CpuDevice() == backend.CpuDevice()
    assert not backend.CpuDevice() != backend.CpuDevice()
    assert {backend.CpuDevice(): 1}[backend.CpuDevice()] == 1
    assert backend.CpuDevice() != '@numpy'


def test_from_array_recognizes_numpy_arrays_only():
    assert backend.CpuDevice.from_array(numpy.zeros(2)) == backend.CpuDevice()
    for value in (None, 1, (), numpy.float32(1), [1.0]):
        assert backend.CpuDevice.from_array(value) is None


def test_is_array_supported():
    device = backend.CpuDevice()
    assert device.is_array_supported(numpy.zeros(2))
    assert not device.is_array_supported(numpy.float32(1))
    assert not device.is_array_supported([1.0])


def test_send_returns_host_arrays_without_copy():
    x = numpy.arange(3.0)
    assert backend.CpuDevice().send(x) is x
    assert backend.CpuDevice().send_array(None) is None


@pytest.mark.parametrize(
    'value', [numpy.float16(1.5), numpy.int8(3), numpy.bool_(True), numpy.complex64(1j)]
)
def test_scalars_become_0d_arrays(value):
    y = _cpu._to_cpu(value)
    assert type(y) is numpy.ndarray and y.shape == ()
    assert y.dtype == value.dtype and y == value


def test_lists_and_tuples_keep_their_type_and_sharing():
    a, b = numpy.zeros(2), numpy.ones(3)
    for kind in (list, tuple):
        ys = _cpu._to_cpu(kind([a, None, b, a]))
        assert type(ys) is kind
        assert ys[0] is a and ys[1] is None and ys[2] is b and ys[3] is a


def test_a_variable_is_not_an_array():
    with pytest.raises(TypeError, match='CPU'):
        _cpu._to_cpu(chainerlite.Variable(numpy.zeros(2)))


def test_device_is_not_a_context_manager():
    with pytest.raises(RuntimeError, match='using_device'):
        with backend.CpuDevice():
            pass
