import gc
import json
import os
import threading
import time
import weakref

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import function_hooks
from chainerlite import function_node
from chainerlite.backends import cuda
from chainerlite.function_hooks import trace
from chainerlite.testing import attr


class Sleep(function_node.FunctionNode):
    def forward(self, inputs):
        time.sleep(0.01)
        return inputs

    def backward(self, indexes, grad_outputs):
        time.sleep(0.01)
        return grad_outputs


class Fail(function_node.FunctionNode):
    def forward(self, inputs):
        raise ValueError('failing on purpose')


def _variable():
    return chainerlite.Variable(numpy.ones((2, 3), numpy.float32))


def _summary(hook):
    return [(e.name, e.phase, e.depth) for e in hook.events]


def test_exported():
    assert function_hooks.TraceHook is trace.TraceHook
    assert trace.TraceHook().name == 'TraceHook'


def test_forward_and_backward_calls_with_nesting():
    with trace.TraceHook() as hook:
        y = F.sum(F.exp(_variable()))
        y.backward()
    assert _summary(hook) == [
        ('Exp', 'forward', 0),
        ('Sum', 'forward', 0),
        ('Sum', 'backward', 0),
        ('BroadcastTo', 'forward', 1),
        ('Exp', 'backward', 0),
        ('Mul', 'forward', 1),
    ]
    thread_id = threading.get_native_id()
    assert all(e.thread_id == thread_id for e in hook.events)
    events = hook.events
    assert [e.start for e in events] == sorted(e.start for e in events)
    exp_backward, mul = events[4], events[5]
    assert exp_backward.start <= mul.start
    assert mul.start + mul.duration <= exp_backward.start + exp_backward.duration


def test_calls_recomputed_by_forget_are_nested():
    with trace.TraceHook() as hook:
        y = F.forget(lambda a: F.exp(a * 2.0), _variable())
        y.grad = numpy.ones((2, 3), numpy.float32)
        y.backward()
    assert _summary(hook) == [
        ('Forget', 'forward', 0),
        ('MulConstant', 'forward', 1),
        ('Exp', 'forward', 1),
        ('Forget', 'backward', 0),
        ('MulConstant', 'forward', 1),
        ('Exp', 'forward', 1),
        ('Exp', 'backward', 1),
        ('Mul', 'forward', 2),
        ('MulConstant', 'backward', 1),
        ('MulConstant', 'forward', 2),
    ]


def test_durations_are_measured():
    with trace.TraceHook() as hook:
        (y,) = Sleep().apply((_variable(),))
        y.grad = numpy.ones((2, 3), numpy.float32)
        y.backward()
    forward, backward = hook.events
    assert forward.duration >= 0.01 and backward.duration >= 0.01
    assert backward.start >= forward.start + forward.duration
    events = hook.chrome_trace()['traceEvents']
    assert events[0]['dur'] == pytest.approx(forward.duration * 1e6)
    assert events[1]['ts'] == pytest.approx(backward.start * 1e6)


_EVENT_KEYS = {
    'name': str,
    'cat': str,
    'ph': str,
    'ts': float,
    'dur': float,
    'pid': int,
    'tid': int,
    'args': dict,
}


def _check_chrome_trace(document):
    """Validates a Chrome trace; returns its events grouped by thread."""
    assert set(document) == {'traceEvents', 'displayTimeUnit'}
    assert document['displayTimeUnit'] == 'ms'
    by_thread = {}
    for event in document['traceEvents']:
        assert set(event) == set(_EVENT_KEYS)
        for key, kind in _EVENT_KEYS.items():
            assert isinstance(event[key], kind), (key, event)
        assert event['ph'] == 'X'
        assert event['cat'] in ('forward', 'backward')
        assert event['ts'] >= 0 and event['dur'] >= 0
        assert event['pid'] == os.getpid()
        by_thread.setdefault(event['tid'], []).append(event)
    for events in by_thread.values():
        _check_nesting(events)
    return by_thread


def _check_nesting(events):
    # Within a thread, events sorted by start either nest inside the
    # enclosing one or start after it ended; the depth counts enclosers.
    # (Timestamps come from nanoseconds, so distinct instants differ by at
    # least 1e-3 microseconds, far above float rounding.)
    open_ends = []
    for event in sorted(events, key=lambda e: e['ts']):
        start, end = event['ts'], event['ts'] + event['dur']
        while open_ends and start >= open_ends[-1]:
            open_ends.pop()
        assert event['args']['depth'] == len(open_ends), event
        if open_ends:
            assert end <= open_ends[-1], event
        open_ends.append(end)


def test_saved_chrome_trace_is_valid(tmp_path):
    with trace.TraceHook() as hook:
        y = F.forget(lambda a: F.sum(F.exp(a * 2.0)), _variable())
        y.backward()
        z = F.sum(F.exp(_variable()))
        z.backward()
    path = tmp_path / 'trace.json'
    hook.save(str(path))
    with open(path) as f:
        document = json.load(f)
    assert document == json.loads(json.dumps(hook.chrome_trace()))
    by_thread = _check_chrome_trace(document)
    assert list(by_thread) == [threading.get_native_id()]
    events = by_thread[threading.get_native_id()]
    assert len(events) == len(hook.events) == 20
    assert max(e['args']['depth'] for e in events) == 2
    assert [(e['name'], e['cat']) for e in events] == [
        (e.name, e.phase) for e in hook.events
    ]


def test_nesting_checker_rejects_overlap():
    events = [
        {'ts': 0.0, 'dur': 10.0, 'args': {'depth': 0}},
        {'ts': 5.0, 'dur': 10.0, 'args': {'depth': 1}},
    ]
    with pytest.raises(AssertionError):
        _check_nesting(events)
    events[1]['dur'] = 5.0
    _check_nesting(events)
    events[1]['args']['depth'] = 0
    with pytest.raises(AssertionError):
        _check_nesting(events)


def _run_in_thread(target):
    thread = threading.Thread(target=target)
    thread.start()
    thread.join()


def test_records_only_threads_where_it_is_registered():
    hook = trace.TraceHook()
    other_ids = []

    def other():
        other_ids.append(threading.get_native_id())
        F.sum(F.exp(_variable()))

    with hook:
        F.exp(_variable())
        _run_in_thread(other)
    assert _summary(hook) == [('Exp', 'forward', 0)]
    assert hook.events[0].thread_id == threading.get_native_id()
    assert other_ids[0] != threading.get_native_id()


def test_one_hook_registered_in_several_threads():
    hook = trace.TraceHook()
    barrier = threading.Barrier(3)
    ids = {}

    def work(key):
        barrier.wait()
        ids[key] = threading.get_native_id()
        with hook:
            for _ in range(20):
                y = F.forget(lambda a: F.exp(a), _variable())
                y.grad = numpy.ones((2, 3), numpy.float32)
                y.backward()

    threads = [threading.Thread(target=work, args=(k,)) for k in 'ab']
    for thread in threads:
        thread.start()
    barrier.wait()
    for thread in threads:
        thread.join()
    by_thread = _check_chrome_trace(hook.chrome_trace())
    assert sorted(by_thread) == sorted(ids.values())
    for events in by_thread.values():
        assert len(events) == 20 * 6
        assert [e['name'] for e in events[:6]] == [
            'Forget',
            'Exp',
            'Forget',
            'Exp',
            'Exp',
            'Mul',
        ]


def test_a_failed_call_does_not_disturb_the_next_block():
    hook = trace.TraceHook()
    with pytest.raises(ValueError):
        with hook:
            F.forget(lambda a: Fail().apply((a,))[0], _variable())
    with hook:
        F.exp(_variable())
    assert _summary(hook) == [('Exp', 'forward', 0)]


def test_failed_nested_call_is_dropped_when_its_parent_ends():
    def body(a):
        try:
            Fail().apply((a,))
        except ValueError:
            pass
        return F.exp(a)

    with trace.TraceHook() as hook:
        F.forget(body, _variable())
        F.exp(_variable())
    names = [(e.name, e.depth) for e in hook.events]
    assert names[0] == ('Forget', 0) and names[-1] == ('Exp', 0)
    assert 'Fail' not in [name for name, _ in names]


def test_hook_keeps_no_function_nodes_or_arrays():
    x = _variable()
    with trace.TraceHook() as hook:
        y = F.exp(x)
    node, array = weakref.ref(y.creator), weakref.ref(y.array)
    del y
    gc.collect()
    assert node() is None and array() is None
    assert len(hook.events) == 1


def test_empty_trace():
    assert trace.TraceHook().chrome_trace() == {
        'traceEvents': [],
        'displayTimeUnit': 'ms',
    }


@attr.gpu
def test_gpu_calls_are_traced():
    x = chainerlite.Variable(cuda.cupy.ones((2, 3), numpy.float32))
    with trace.TraceHook() as hook:
        y = F.sum(F.exp(x))
        y.backward()
    assert [e.name for e in hook.events][:2] == ['Exp', 'Sum']
    _check_chrome_trace(hook.chrome_trace())
