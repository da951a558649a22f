"""_core.ReadyGrads: a backward pass hands each watched parameter over once
the last node that reads it has run its backward."""

import subprocess
import sys

import numpy as np
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import _core


def _param(value):
    return chainerlite.Parameter(np.array(value, np.float32))


class _Ready(object):
    """A ReadyGrads set on this thread, recording what it is handed."""

    def __init__(self, params):
        self.handed = []
        self.ready = _core.ReadyGrads(params, self.on_ready)

    def on_ready(self, param):
        self.handed.append((param, param.grad.copy()))
        param.grad = None

    def __enter__(self):
        assert _core.set_ready_grads(self.ready) is None
        return self

    def __exit__(self, *exc):
        assert _core.set_ready_grads(None) is self.ready


def test_a_parameter_read_twice_is_handed_over_after_its_second_reader():
    w, v = _param([2.0, 3.0]), _param([1.0, -1.0])
    x = chainerlite.Variable(np.array([1.0, 1.0], np.float32))
    with _Ready([w, v]) as r:
        assert _core.recording_ready_grads() is r.ready
        y = F.sum(w * x) + F.sum(w * w * v)
        r.ready.count_graph([y])
        assert _core.recording_ready_grads() is None  # recording is over
        y.backward()
    # v's reader runs before w's last one
    assert [p is w for p, _ in r.handed] == [False, True]
    np.testing.assert_array_equal(r.handed[0][1], w.array * w.array)
    np.testing.assert_array_equal(r.handed[1][1], x.array + 2 * w.array * v.array)
    assert w.grad is None and v.grad is None
    assert x.grad is not None  # not watched: written as usual


def test_uses_recorded_in_forward_wait_for_their_nodes():
    w = _param([2.0])
    with _Ready([w]) as r:
        r.ready.record((w.array, np.ones(1, np.float32)))
        y = F.sum(w * 3)
        r.ready.count_graph([y])
        y.backward()
    # one use recorded that no node ran: the gradient stays where the
    # pass wrote it
    assert r.handed == []
    np.testing.assert_array_equal(w.grad, [3.0])


def test_grad_passes_are_left_alone():
    w = _param([2.0])
    with _Ready([w]) as r:
        y = F.sum(w * w)
        r.ready.count_graph([y])
        (gw,) = chainerlite.grad([y], [w])
    assert r.handed == []
    np.testing.assert_array_equal(gw.array, [4.0])


def test_set_ready_grads_takes_a_ready_grads_or_none():
    with pytest.raises(TypeError, match='ReadyGrads'):
        _core.set_ready_grads(object())
    assert _core.set_ready_grads(None) is None


def test_params_other_than_variables_are_refused():
    # a None among the parameters was read as a Variable (a segfault): run
    # in a child process
    code = '\n'.join(
        [
            'from chainerlite import _core',
            'for params in ([None], [1], [None, None]):',
            '    try:',
            '        _core.ReadyGrads(params, len)',
            '    except TypeError:',
            '        continue',
            '    raise SystemExit("accepted %r" % (params,))',
        ]
    )
    proc = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-2000:]
