"""backends._chainerx: chainerlite has no ChainerX, as Chainer built without."""

import numpy
import pytest

import chainerlite
from chainerlite import backend
from chainerlite.backends import _chainerx


def test_chainerx_is_not_available():
    assert _chainerx.is_available() is False
    with pytest.raises(RuntimeError, match='ChainerX'):
        backend.ChainerxDevice('native:0')
    with pytest.raises(RuntimeError, match='ChainerX'):
        backend.ChainerxDevice.from_fallback_device(backend.CpuDevice())
    with pytest.raises(RuntimeError, match='ChainerX'):
        backend.to_chx(numpy.zeros(2))
    # Chainer's property is there; a device made without the constructor
    # (a test double) learns that there is no ChainerX to fall back from
    assert isinstance(backend.ChainerxDevice.fallback_device, property)
    double = object.__new__(backend.ChainerxDevice)
    with pytest.raises(RuntimeError, match='ChainerX'):
        double.fallback_device


@pytest.mark.parametrize('spec', ['native:0', 'native', 'cuda:0', 'foo', ''])
def test_unprefixed_specs_name_chainerx(spec):
    with pytest.raises(RuntimeError, match='ChainerX'):
        chainerlite.get_device(spec)


def test_no_array_is_a_chainerx_array():
    x = numpy.zeros(2)
    for value in (x, None, 1, ()):
        assert backend.ChainerxDevice.from_array(value) is None
    assert backend.from_chx(x) is x
