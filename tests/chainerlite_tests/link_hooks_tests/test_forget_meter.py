"""The memory plan_forget counts: tracemalloc on the CPU, CuPy's pool on a
GPU (here a fake CuPy module on the CPU, and the real one under attr.gpu)."""

import tracemalloc
import types

import numpy
import pytest

import chainerlite
from chainerlite import functions as F
from chainerlite import link_hooks
from chainerlite import links as L
from chainerlite.link_hooks import _forget_profile
from chainerlite.testing import attr


class _FakeCupy(object):
    # Stands for the cupy module: cuda.MemoryHook entered as a context
    # receives the pool's malloc and free of malloc(n) and free(n).

    def __init__(self):
        hooks = self.hooks = []

        class MemoryHook(object):
            def __enter__(self):
                hooks.append(self)
                return self

            def __exit__(self, *exc_info):
                hooks.remove(self)

        self.cuda = types.SimpleNamespace(MemoryHook=MemoryHook)

    def malloc(self, n):
        for hook in self.hooks:
            hook.malloc_postprocess(
                device_id=0, size=n, mem_size=n, mem_ptr=1, pmem_id=1
            )

    def free(self, n):
        for hook in self.hooks:
            hook.free_postprocess(device_id=0, mem_size=n, mem_ptr=1, pmem_id=1)


def test_the_pool_meter_counts_the_bytes_in_use_above_the_start():
    cupy = _FakeCupy()
    assert not tracemalloc.is_tracing()
    with _forget_profile.traced(cupy) as tracker:
        assert len(cupy.hooks) == 1 and not tracemalloc.is_tracing()
        cupy.free(100)  # memory allocated before counts below the start
        assert tracker.mark() == -100
        cupy.malloc(300), cupy.malloc(200), cupy.free(300)
        assert tracker.block_peak() == 400
        assert tracker.mark() == 100
        cupy.malloc(50)
        assert tracker.mark() == 150 and tracker.last_peak == 150
        assert tracker.step_peak == 400
    assert cupy.hooks == []


def test_the_host_meter_is_tracemalloc():
    with _forget_profile.traced(numpy) as tracker:
        start = tracker.mark()
        x = numpy.ones(1 << 16)
        assert tracker.mark() - start >= x.nbytes
    assert not tracemalloc.is_tracing()


class _Allocates(chainerlite.Link):
    # A block that holds n bytes of the fake pool until the step ends.

    def __init__(self, cupy, n, held):
        super().__init__()
        self.cupy, self.n, self.held = cupy, n, held

    def forward(self, x):
        self.cupy.malloc(self.n)
        self.held.append(self.n)
        return x * 2


@pytest.mark.parametrize('release', [False, True])
def test_plan_forget_counts_on_the_device_of_the_model(release):
    cupy = _FakeCupy()
    held = []
    model = chainerlite.Sequential(
        *[_Allocates(cupy, n, held) for n in (1000, 3000, 500)]
    )
    model._device = types.SimpleNamespace(xp=cupy)
    x = numpy.ones((64, 64), numpy.float32)

    def step():
        F.sum(model(x)).backward()
        while held:
            cupy.free(held.pop())

    plan = link_hooks.plan_forget(model, step, budget=2**40, release=release)
    assert plan.names == [] and plan.profiled_peak == 4500
    assert plan.measure(step)[0] == 4500 and cupy.hooks == []


def _mlp(depth=12, width=256):
    numpy.random.seed(0)
    return chainerlite.Sequential(
        *[
            chainerlite.Sequential(
                L.Linear(width, width), F.relu, L.Linear(width, width), F.tanh
            )
            for _ in range(depth)
        ]
    )


def _plan_to_six_tenths(device):
    model = _mlp().to_device(device)
    x = model.xp.asarray(
        numpy.random.RandomState(1).randn(1024, 256).astype(numpy.float32)
    )

    def step():
        model.cleargrads()
        F.sum(model(x) ** 2).backward()

    step()
    free = link_hooks.plan_forget(model, step, budget=2**40)
    plain = [
        chainerlite.backends.cuda.to_cpu(p.grad) for _, p in sorted(model.namedparams())
    ]
    assert free.profiled_peak > 1024 * 256 * 4 * 12  # a block's output each, at least
    budget = free.profiled_peak * 0.6
    plan = link_hooks.plan_forget(model, step, budget=budget, release=True)
    assert plan.names and plan.predicted_peak <= budget
    peak, _ = plan.measure(step)
    assert peak <= budget * 1.05, (peak, budget)
    for (_, p), want in zip(sorted(model.namedparams()), plain):
        numpy.testing.assert_allclose(
            chainerlite.backends.cuda.to_cpu(p.grad), want, rtol=1e-5, atol=1e-6
        )


def test_a_plan_on_the_cpu_meets_six_tenths_of_the_peak():
    _plan_to_six_tenths('@numpy')


@attr.gpu
def test_a_plan_on_the_gpu_meets_six_tenths_of_the_pool_peak():
    _plan_to_six_tenths('@cupy:0')


@attr.gpu
def test_the_gpu_meter_sees_the_arrays_of_the_pool():
    import cupy

    with _forget_profile.traced(cupy) as tracker:
        start = tracker.mark()
        x = cupy.ones(1 << 20, cupy.float32)
        assert tracker.mark() - start >= x.nbytes
        del x
        assert tracker.mark() == start


@pytest.mark.parametrize('xp', [numpy, _FakeCupy()])
def test_a_step_that_raises_leaves_no_meter_running(xp):
    def step():
        raise RuntimeError('step')

    with pytest.raises(RuntimeError):
        _forget_profile.measure_step(step, xp)
    assert not tracemalloc.is_tracing()
    assert xp is numpy or xp.hooks == []
