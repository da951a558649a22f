import gc
import io
import tracemalloc
import weakref

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import function_hooks
from chainerlite import function_node
from chainerlite.function_hooks import memory

_N = 125000  # float64 elements: 1,000,000 bytes
_MB = 8 * _N
_SLACK = 65536  # bytes of Python objects tolerated in a measurement


class Allocate(function_node.FunctionNode):
    """Returns a new 1 MB array; uses a 4 MB temporary on the way."""

    def forward(self, inputs):
        out = numpy.ones(_N)
        temporary = numpy.ones(4 * _N)
        del temporary
        return (out,)

    def backward(self, indexes, grad_outputs):
        temporary = numpy.ones(2 * _N)
        del temporary
        return (chainerlite.Variable(numpy.zeros((), numpy.float64)),)


@pytest.fixture
def no_tracing():
    was_tracing = tracemalloc.is_tracing()
    tracemalloc.stop()
    yield
    if was_tracing:
        tracemalloc.start()


def _scalar():
    return chainerlite.Variable(numpy.zeros((), numpy.float64))


def test_exported():
    assert function_hooks.MemoryHook is memory.MemoryHook
    assert memory.MemoryHook().name == 'MemoryHook'


def test_allocated_and_peak_bytes_of_a_call(no_tracing):
    with memory.MemoryHook() as hook:
        (y,) = Allocate().apply((_scalar(),))
    ((name, allocated, peak),) = hook.call_history
    assert name == 'Allocate'
    assert _MB <= allocated <= _MB + _SLACK
    assert 5 * _MB <= peak <= 5 * _MB + _SLACK
    assert hook.total_bytes() == allocated


def test_backward_is_measured_and_frees_count_negative(no_tracing):
    x = _scalar()
    with memory.MemoryHook() as hook:
        (y,) = Allocate().apply((x,))
        y.grad = numpy.ones(_N)
        y.backward()
        del y
        F.identity(numpy.ones(_N))  # output dropped at once
    names = [name for name, _, _ in hook.call_history]
    assert names == ['Allocate', 'Allocate', 'Identity']
    _, allocated, peak = hook.call_history[1]
    assert -_SLACK <= allocated <= _SLACK
    assert 2 * _MB <= peak <= 2 * _MB + _SLACK


def test_nested_calls_and_totals(no_tracing):
    def twice(a):
        (first,) = Allocate().apply((a,))
        return Allocate().apply((first,))[0]

    F.forget(twice, _scalar())  # the first call imports modules lazily
    with memory.MemoryHook() as hook:
        F.forget(twice, _scalar())
    names = [name for name, _, _ in hook.call_history]
    assert names == ['Allocate', 'Allocate', 'Forget']
    forget = hook.call_history[-1]
    # Inside forget nothing is kept but the last output (1 MB); the first
    # output (1 MB) is alive while the second call peaks at 5 MB.
    assert _MB <= forget[1] <= _MB + _SLACK
    assert 6 * _MB <= forget[2] <= 6 * _MB + _SLACK
    assert hook.total_bytes() == forget[1]
    summary = hook.summary()
    assert list(summary) == ['Allocate', 'Forget']
    assert summary['Allocate']['occurrence'] == 2
    assert summary['Allocate']['allocated_bytes'] == (
        hook.call_history[0][1] + hook.call_history[1][1]
    )
    assert summary['Allocate']['peak_bytes'] == max(
        hook.call_history[0][2], hook.call_history[1][2]
    )


class PeakThenNest(function_node.FunctionNode):
    """Peaks at 4 MB, frees it, then runs a small nested function."""

    def forward(self, inputs):
        temporary = numpy.ones(4 * _N)
        del temporary
        return (F.identity(inputs[0]).array,)


def test_peak_before_a_nested_call_is_kept(no_tracing):
    with memory.MemoryHook() as hook:
        PeakThenNest().apply((_scalar(),))
    (inner, _, inner_peak), (outer, _, outer_peak) = hook.call_history
    assert (inner, outer) == ('Identity', 'PeakThenNest')
    assert inner_peak <= _SLACK
    assert 4 * _MB <= outer_peak <= 4 * _MB + _SLACK


def test_tracing_started_and_stopped_by_the_hook(no_tracing):
    hook = memory.MemoryHook()
    with hook:
        assert tracemalloc.is_tracing()
    assert not tracemalloc.is_tracing()
    tracemalloc.start()
    try:
        with hook:
            pass
        assert tracemalloc.is_tracing()
    finally:
        tracemalloc.stop()


def test_local_registration_traces_too(no_tracing):
    hook = memory.MemoryHook()
    node = Allocate()
    node.add_hook(hook)
    assert tracemalloc.is_tracing()
    node.apply((_scalar(),))
    node.delete_hook(hook.name)
    assert not tracemalloc.is_tracing()
    assert [name for name, _, _ in hook.call_history] == ['Allocate']


def test_hook_keeps_no_function_nodes(no_tracing):
    with memory.MemoryHook() as hook:
        y = F.exp(_scalar())
    node = weakref.ref(y.creator)
    del y
    gc.collect()
    assert node() is None
    assert len(hook.call_history) == 1


def _report(history, unit):
    hook = memory.MemoryHook()
    hook.call_history.extend(history)
    out = io.StringIO()
    hook.print_report(unit=unit, file=out)
    return out.getvalue().splitlines()


def test_print_report_table():
    lines = _report(
        [
            ('LinearFunction', 1536, 3072),
            ('ReLU', -512, 0),
            ('LinearFunction', 512, 1024),
        ],
        'KB',
    )
    assert [line.split() for line in lines] == [
        ['FunctionName', 'AllocatedBytes', 'PeakBytes', 'Occurrence'],
        ['LinearFunction', '2.00KB', '3.00KB', '2'],
        ['ReLU', '-0.50KB', '0.00KB', '1'],
    ]
    assert len({len(line) for line in lines}) == 1  # aligned columns


@pytest.mark.parametrize(
    'unit, cells',
    [
        ('auto', ['0.00MB', '3.00MB', '1.50MB', '0.00MB']),
        ('auto_foreach', ['100.00B', '3.00MB', '1.50MB', '0.00B']),
        ('B', ['100.00B', '3145728.00B', '1572864.00B', '0.00B']),
        ('GB', ['0.00GB', '0.00GB', '0.00GB', '0.00GB']),
    ],
)
def test_print_report_units(unit, cells):
    lines = _report([('A', 100, 3 * 2**20), ('B', 3 * 2**19, 0)], unit)
    assert [cell for line in lines[1:] for cell in line.split()[1:3]] == cells


def test_print_report_rejects_unknown_unit():
    with pytest.raises(ValueError, match='unit'):
        _report([('A', 1, 1)], 'MiB')


def test_print_report_of_nothing():
    assert _report([], 'auto') == [
        'FunctionName  AllocatedBytes  PeakBytes  Occurrence'
    ]
