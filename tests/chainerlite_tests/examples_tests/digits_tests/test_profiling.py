import io
import re
import tracemalloc

import numpy
import pytest

import chainerlite as chainer
import chainerlite.functions as F
from chainerlite.examples.digits import profiling

_MIB = 2**20


def _work():
    x = chainer.Variable(numpy.ones((3, 4), numpy.float32))
    for _ in range(3):
        y = F.sum(F.exp(x) * 2.0)
    y.backward()
    return 'done'


def test_time_functions_prints_the_report_and_the_top_functions():
    out = io.StringIO()
    hook = profiling.time_functions(_work, out, top=2)
    text = out.getvalue()
    assert re.search(r'FunctionName +ElapsedTime +Occurrence +SelfTime', text)
    assert re.search(r'\n +Exp +\S+ +4 ', text)  # 3 forward, 1 backward
    assert {'Exp', 'Sum'} <= set(hook.summary())
    last = text.splitlines()[-1]
    match = re.fullmatch(
        r'Most expensive \(self time\): (\w+) (\d+)%, '
        r'(\w+) (\d+)%',
        last,
    )
    assert match, last
    summary = hook.summary()
    ranked = sorted(summary, key=lambda n: -summary[n]['self_time'])
    assert [match.group(1), match.group(3)] == ranked[:2]
    assert int(match.group(2)) >= int(match.group(4))


def test_time_functions_records_only_inside_the_call():
    hook = profiling.time_functions(lambda: None, io.StringIO(), top=1)
    _work()
    assert hook.summary() == {}


def test_peak_memory_counts_arrays_allocated_inside():
    result, peak = profiling.peak_memory(
        lambda: numpy.ones(_MIB, numpy.uint8).sum() and 'ok'
    )
    assert result == 'ok'
    assert _MIB <= peak < 1.5 * _MIB


def test_peak_memory_ignores_memory_held_before():
    held = numpy.ones(4 * _MIB, numpy.uint8)
    tracemalloc.start()
    try:
        held2 = numpy.ones(4 * _MIB, numpy.uint8)
        _, peak = profiling.peak_memory(lambda: numpy.zeros(_MIB, numpy.uint8))
        assert tracemalloc.is_tracing()
    finally:
        tracemalloc.stop()
    assert _MIB <= peak < 1.5 * _MIB
    del held, held2


def test_peak_memory_stops_the_trace_it_started():
    assert not tracemalloc.is_tracing()
    profiling.peak_memory(lambda: None)
    assert not tracemalloc.is_tracing()


def test_peak_memory_stops_the_trace_on_error():
    with pytest.raises(ZeroDivisionError):
        profiling.peak_memory(lambda: 1 / 0)
    assert not tracemalloc.is_tracing()
