import io
import types

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import function_hooks
from chainerlite import function_node
from chainerlite.backends import cuda
from chainerlite.function_hooks import cupy_memory_profile
from chainerlite.testing import attr


def test_exported():
    assert (
        function_hooks.CupyMemoryProfileHook
        is cupy_memory_profile.CupyMemoryProfileHook
    )


def test_without_cuda_creating_the_hook_raises(monkeypatch):
    monkeypatch.setattr(cuda, 'available', False)
    with pytest.raises(RuntimeError, match='CupyMemoryProfileHook needs CuPy'):
        cupy_memory_profile.CupyMemoryProfileHook()


class _FakePool(object):
    """Calls registered memory hooks the way CuPy's memory pool does."""

    def __init__(self):
        self.hooks = {}
        pool = self

        class MemoryHook(object):
            name = 'MemoryHook'

            def __enter__(self):
                if self.name in pool.hooks:
                    raise KeyError(self.name)
                pool.hooks[self.name] = self
                return self

            def __exit__(self, *_):
                del pool.hooks[self.name]

            def alloc_preprocess(self, **kwargs):
                pass

            def malloc_preprocess(self, **kwargs):
                pass

        self.module = types.SimpleNamespace(
            cuda=types.SimpleNamespace(
                memory_hook=types.SimpleNamespace(MemoryHook=MemoryHook)
            )
        )

    def malloc(self, size, acquire):
        rounded = -(-size // 512) * 512
        for hook in list(self.hooks.values()):
            hook.malloc_preprocess(device_id=0, size=size, mem_size=rounded)
            if acquire:
                hook.alloc_preprocess(device_id=0, mem_size=rounded)


class Malloc(function_node.FunctionNode):
    def __init__(self, pool, size, acquire):
        self.pool, self.size, self.acquire = pool, size, acquire

    def forward(self, inputs):
        self.pool.malloc(self.size, self.acquire)
        return inputs

    def backward(self, indexes, grad_outputs):
        self.pool.malloc(3 * self.size, False)
        return grad_outputs


@pytest.fixture
def pool(monkeypatch):
    pool = _FakePool()
    monkeypatch.setattr(cuda, 'available', True)
    monkeypatch.setattr(cuda, 'cupy', pool.module)
    return pool


def _variable():
    return chainerlite.Variable(numpy.ones(3, numpy.float32))


def _new_hook(pool, monkeypatch):
    hook = cupy_memory_profile.CupyMemoryProfileHook()
    monkeypatch.undo()  # the hook keeps its CuPy memory hook; ops need no fake
    return hook


def test_used_and_acquired_bytes_per_call(pool, monkeypatch):
    hook = _new_hook(pool, monkeypatch)
    assert hook.name == 'CupyMemoryProfileHook'
    x = _variable()
    with hook:
        assert len(pool.hooks) == 1
        (y,) = Malloc(pool, 1000, True).apply((x,))
        (z,) = Malloc(pool, 100, False).apply((y,))
        z.grad = numpy.ones(3, numpy.float32)
        z.backward()
    assert pool.hooks == {}
    pool.malloc(512, True)  # after the block: not counted
    Malloc(pool, 512, True).apply((x,))
    assert hook.call_history == [
        ('Malloc', 1024, 1024),
        ('Malloc', 512, 0),
        ('Malloc', 512, 0),
        ('Malloc', 3072, 0),
    ]
    assert hook.total_used_bytes() == 1024 + 512 + 512 + 3072
    assert hook.total_acquired_bytes() == 1024
    assert hook.summary() == {
        'Malloc': {'used_bytes': 5120, 'acquired_bytes': 1024, 'occurrence': 4}
    }


def test_nested_calls_are_not_counted_twice(pool, monkeypatch):
    hook = _new_hook(pool, monkeypatch)
    with hook:
        F.forget(lambda a: Malloc(pool, 2048, True).apply((a,))[0], _variable())
    assert hook.call_history == [('Malloc', 2048, 2048), ('Forget', 2048, 2048)]
    assert hook.total_used_bytes() == 2048
    assert hook.total_acquired_bytes() == 2048
    assert list(hook.summary()) == ['Malloc', 'Forget']


def test_local_registration(pool, monkeypatch):
    hook = _new_hook(pool, monkeypatch)
    node = Malloc(pool, 512, False)
    node.add_hook(hook)
    assert len(pool.hooks) == 1
    node.apply((_variable(),))
    node.delete_hook(hook.name)
    assert pool.hooks == {}
    assert hook.call_history == [('Malloc', 512, 0)]


def test_added_and_deleted_called_without_a_function(pool, monkeypatch):
    # Chainer 7.8.1's hook methods take function=None (a global registration)
    hook = _new_hook(pool, monkeypatch)
    hook.added()
    assert len(pool.hooks) == 1
    hook.deleted()
    assert pool.hooks == {}


def test_print_report(pool, monkeypatch):
    hook = _new_hook(pool, monkeypatch)
    hook.call_history.extend(
        [
            ('LinearFunction', 3 * 2**20, 2**20),
            ('ReLU', 512, 0),
            ('LinearFunction', 2**20, 0),
        ]
    )
    out = io.StringIO()
    hook.print_report(file=out)
    lines = out.getvalue().splitlines()
    assert [line.split() for line in lines] == [
        ['FunctionName', 'UsedBytes', 'AcquiredBytes', 'Occurrence'],
        ['LinearFunction', '4.00MB', '1.00MB', '2'],
        ['ReLU', '0.00MB', '0.00MB', '1'],
    ]
    assert len({len(line) for line in lines}) == 1
    out = io.StringIO()
    hook.print_report(unit='auto_foreach', file=out)
    assert out.getvalue().splitlines()[2].split() == ['ReLU', '512.00B', '0.00B', '1']


@attr.gpu
def test_gpu_memory_pool_is_measured():
    cupy = cuda.cupy
    x = chainerlite.Variable(cupy.ones((64, 64), numpy.float32))
    hook = cupy_memory_profile.CupyMemoryProfileHook()
    with hook:
        y = F.sum(F.exp(x))
        y.backward()
    summary = hook.summary()
    assert summary['Exp']['occurrence'] == 2
    assert summary['Exp']['used_bytes'] >= 2 * x.array.nbytes
    assert hook.total_used_bytes() >= summary['Exp']['used_bytes']
    assert 0 <= hook.total_acquired_bytes() <= hook.total_used_bytes()
    assert cupy.cuda.memory_hook.get_memory_hooks() == {}
