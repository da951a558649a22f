"""backends.intel64 where oneDNN is absent, as in a Chainer without iDeep
(with oneDNN: tests/_kernels_tests/test_onednn.py)."""

import numpy
import pytest

import chainerlite
from chainerlite import backend
from chainerlite.backends import intel64

pytestmark = pytest.mark.skipif(
    intel64.is_ideep_available(), reason='oneDNN is installed'
)


def test_ideep_is_not_available():
    assert intel64.is_ideep_available() is False
    with pytest.raises(RuntimeError, match='iDeep'):
        intel64.check_ideep_available()
    with pytest.raises(RuntimeError, match='iDeep'):
        backend.Intel64Device()
    with pytest.raises(RuntimeError, match='iDeep'):
        chainerlite.get_device('@intel64')


def test_no_array_is_an_intel64_array():
    for value in (numpy.zeros(2), None, 1, ()):
        assert backend.Intel64Device.from_array(value) is None
    with pytest.raises(RuntimeError, match='iDeep'):
        intel64.mdarray(numpy.zeros(2))
    assert backend.Intel64Device.supported_array_types == (
        numpy.ndarray,
        intel64.mdarray,
    )


@pytest.mark.parametrize('use_ideep', ['never', 'auto', 'always'])
def test_should_use_ideep_is_false(use_ideep):
    with chainerlite.using_config('use_ideep', use_ideep):
        assert intel64.should_use_ideep('>=auto') is False
        assert intel64.should_use_ideep('==always') is False
    assert intel64.inputs_all_ready((numpy.zeros((2, 3)),)) is False


def test_should_use_ideep_without_onednn_ignores_values():
    # Chainer answers False before looking at the values when iDeep is absent
    assert intel64.should_use_ideep('==auto') is False
    with chainerlite.using_config('use_ideep', True):
        assert intel64.should_use_ideep('>=auto') is False
