import pytest

from chainerlite.testing import doctest_helper


def test_skipif_returns_the_condition():
    assert doctest_helper.skipif(True) is True
    assert doctest_helper.skipif(False) is False


def test_skipif_not_enough_cuda_devices(monkeypatch):
    monkeypatch.delenv(doctest_helper.GPU_LIMIT_ENV, raising=False)
    assert not doctest_helper.skipif_not_enough_cuda_devices(4)
    monkeypatch.setenv(doctest_helper.GPU_LIMIT_ENV, '1')
    assert doctest_helper.skipif_not_enough_cuda_devices(2)
    assert not doctest_helper.skipif_not_enough_cuda_devices(1)
    monkeypatch.setenv(doctest_helper.GPU_LIMIT_ENV, 'two')
    with pytest.raises(ValueError, match='CHAINER_TEST_GPU_LIMIT'):
        doctest_helper.skipif_not_enough_cuda_devices(1)


def test_skipif_requires_satisfied():
    assert doctest_helper.skipif_requires_satisfied('numpy>=1.0', 'pytest')
    assert not doctest_helper.skipif_requires_satisfied('numpy<1.0')
    assert not doctest_helper.skipif_requires_satisfied('no-such-package-x')
