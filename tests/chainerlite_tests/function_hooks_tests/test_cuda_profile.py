import types

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import function_hooks
from chainerlite.backends import cuda
from chainerlite.function_hooks import cuda_profile
from chainerlite.testing import attr


def test_exported():
    assert function_hooks.CUDAProfileHook is cuda_profile.CUDAProfileHook


def test_without_cuda_creating_the_hook_raises(monkeypatch):
    monkeypatch.setattr(cuda, 'available', False)
    with pytest.raises(RuntimeError, match='CUDAProfileHook needs CuPy'):
        cuda_profile.CUDAProfileHook()


def _hook_with_fake_nvtx(monkeypatch, available=True):
    ranges = []
    nvtx = types.SimpleNamespace(
        available=available,
        RangePush=lambda message: ranges.append(message),
        RangePop=lambda: ranges.append(None),
    )
    with monkeypatch.context() as m:
        m.setattr(cuda, 'available', True)
        m.setattr(
            cuda, 'cupy', types.SimpleNamespace(cuda=types.SimpleNamespace(nvtx=nvtx))
        )
        return cuda_profile.CUDAProfileHook(), ranges


def test_without_nvtx_creating_the_hook_raises(monkeypatch):
    with pytest.raises(RuntimeError, match='CUDAProfileHook needs NVTX'):
        _hook_with_fake_nvtx(monkeypatch, available=False)


def test_ranges_wrap_each_call_and_nest(monkeypatch):
    hook, ranges = _hook_with_fake_nvtx(monkeypatch)
    x = chainerlite.Variable(numpy.ones(3, numpy.float32))
    with hook:
        y = F.sum(F.exp(x))
        y.backward()
    assert ranges == [
        'exp.forward',
        None,
        'Sum.forward',
        None,
        'Sum.backward',
        'BroadcastTo.forward',
        None,
        None,
        'exp.backward',
        '_ * _.forward',
        None,
        None,
    ]


@attr.gpu
def test_gpu_run_under_the_hook():
    x = chainerlite.Variable(cuda.cupy.ones(3, numpy.float32))
    with cuda_profile.CUDAProfileHook():
        y = F.sum(F.exp(x))
        y.backward()
    cuda.cupy.testing.assert_allclose(x.grad, cuda.cupy.exp(x.array))
