"""chainerlite.backend: device specifiers, using_device, copyto."""

import numpy
import pytest

import chainerlite
from chainerlite import backend
from chainerlite.backends import cuda


@pytest.mark.parametrize('spec', ['@numpy', -1, '-1', numpy.int64(-1)])
def test_cpu_specs(spec):
    device = chainerlite.get_device(spec)
    assert isinstance(device, backend.CpuDevice)
    assert device.xp is numpy
    with chainerlite.using_device(spec):
        pass


def test_an_array_module_is_not_a_device_spec():
    # as in Chainer 7.8.1, whose get_device takes devices and strings only
    with pytest.raises(TypeError, match='invalid device specifier'):
        chainerlite.get_device(numpy)


def test_a_device_is_its_own_spec():
    device = backend.CpuDevice()
    assert chainerlite.get_device(device) is device


@pytest.mark.parametrize(
    'spec',
    [
        '@foo',
        '@foo:0',
        '@cupy',
        '@cupy::0',
        '@cupy:x',
        '@numpy:',
        '@numpy:0',
        '@:numpy',
    ],
)
def test_malformed_specs(spec):
    with pytest.raises(ValueError, match='device specifier'):
        chainerlite.get_device(spec)
    with pytest.raises(ValueError, match='device specifier'):
        chainerlite.using_device(spec)


@pytest.mark.parametrize('spec', [-2, '-2', -100, ' -1'])
def test_any_negative_legacy_id_is_the_cpu(spec):
    # Chainer's legacy integer specs: every negative id is the CPU
    assert chainerlite.get_device(spec) == chainerlite.get_device('@numpy')


@pytest.mark.skipif(chainerlite.backends.cuda.available, reason='CUDA is available')
@pytest.mark.parametrize('spec', ['@cupy:-1', '@cupy:01', '@cupy:0', 0, '3'])
def test_a_gpu_spec_without_cuda_is_a_runtime_error(spec):
    # as in Chainer, CUDA's absence is told before the id is checked
    with pytest.raises(RuntimeError):
        chainerlite.get_device(spec)


@pytest.mark.parametrize('spec', [('native', 0), cuda.DummyDevice, 1.0, None])
def test_specs_of_other_types(spec):
    with pytest.raises(TypeError, match='device specifier'):
        chainerlite.get_device(spec)


def test_unrecognized_values_live_on_the_cpu():
    for value in (numpy.int64(1), None, 1, (), object()):
        assert backend.get_device_from_array(value) == backend.CpuDevice()


def test_get_device_from_array_takes_several_arrays(monkeypatch):
    # Chainer 7.8.1: the device of the first array not on the CPU; NumPy
    # arrays before it do not decide, and no array at all gives the CPU.
    class Marked:
        pass

    class MarkedDevice(backend.CpuDevice):
        @staticmethod
        def from_array(array):
            return MarkedDevice() if isinstance(array, Marked) else None

    kinds = (MarkedDevice,) + backend._DEVICE_TYPES
    monkeypatch.setattr(backend, '_DEVICE_TYPES', kinds)
    found = backend.get_device_from_array(numpy.zeros(1), None, Marked())
    assert type(found) is MarkedDevice
    assert backend.get_device_from_array() == backend.CpuDevice()
    assert backend.get_device_from_array(numpy.zeros(1), 2) == backend.CpuDevice()


def test_get_array_module():
    x = numpy.zeros(2)
    assert backend.get_array_module(x) is numpy
    assert backend.get_array_module(chainerlite.Variable(x)) is numpy


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32])
def test_copyto_on_the_cpu(dtype):
    dst = numpy.zeros(4, dtype)
    backend.copyto(dst, numpy.arange(1, 5, dtype=numpy.float32))
    numpy.testing.assert_array_equal(dst, [1, 2, 3, 4])


def test_copyto_rejects_non_arrays():
    with pytest.raises(TypeError, match='copyto'):
        backend.copyto(numpy.zeros(1), None)
    with pytest.raises(TypeError, match='copyto'):
        backend.copyto(None, numpy.zeros(1))


def test_send_to_the_cpu_keeps_the_array():
    x = numpy.ones((2, 3), numpy.float32)
    assert chainerlite.get_device('@numpy').send(x) is x


def test_link_to_device_and_device_use():
    link = chainerlite.links.Linear(2, 3)
    device = chainerlite.get_device('@numpy')
    assert link.to_device(device) is link
    assert link.device == device
    device.use()
    assert isinstance(link.W.array, numpy.ndarray)


def test_contains_nan_and_device_of_a_module():
    # Chainer 7.8.1's private helpers that its code (and extensions) reach
    assert backend._contains_nan(numpy.array([1.0, numpy.nan]))
    assert not backend._contains_nan(numpy.array([1.0, numpy.inf]))
    assert not backend._contains_nan(numpy.array([1, 2]))
    assert backend._contains_nan(numpy.array([complex(0, numpy.nan)]))
    assert backend._guess_device_from_array_module(numpy) == backend.CpuDevice()


def test_device_base_class_has_the_default_repr():
    class Custom(backend.Device):
        name = '@custom'

    assert repr(Custom()).startswith('<%s.' % __name__)
    assert repr(backend.CpuDevice()) == '<CpuDevice (numpy)>'
