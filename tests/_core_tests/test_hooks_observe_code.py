"""Hooks observe the code that runs (issue 27).

A training step records which node methods run, in order, on which arrays
(ids numbered by first appearance) of which shapes; the record is the same
with no hook, an empty hook and a TimerHook. The tracer is sys.setprofile,
so it registers no FunctionHook itself.
"""

import sys

import numpy as np
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import function_hook
from chainerlite.function_hooks import TimerHook

METHODS = ('forward', 'forward_cpu', 'backward', 'backward_accumulate')


def _arrays(value, out):
    if isinstance(value, np.ndarray):
        out.append(value)
    elif isinstance(value, chainerlite.Variable):
        out.append(value.array)
    elif isinstance(value, (tuple, list)):
        for v in value:
            _arrays(v, out)
    return out


def _trace(step):
    log, ids, seen = [], {}, []

    def number(a):
        seen.append(a)  # alive until the trace ends: no id is reused
        return ids.setdefault(id(a), len(ids))

    def profile(frame, event, arg):
        if event != 'call' or frame.f_code.co_name not in METHODS:
            return
        node = frame.f_locals.get('self')
        if not isinstance(node, chainerlite.FunctionNode):
            return
        code = frame.f_code
        args = [frame.f_locals[n] for n in code.co_varnames[1 : code.co_argcount]]
        arrays = _arrays(args, [])
        log.append(
            (
                type(node).__name__,
                frame.f_code.co_name,
                [(number(a), a.shape, str(a.dtype)) for a in arrays],
            )
        )

    sys.setprofile(profile)
    try:
        step()
    finally:
        sys.setprofile(None)
    return log


class _Empty(function_hook.FunctionHook):
    name = 'empty'


def _mlp_step():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((8, 6)).astype(np.float32)
    t = rng.integers(0, 3, 8).astype(np.int32)
    W1 = chainerlite.Variable(rng.standard_normal((5, 6)).astype(np.float32))
    W2 = chainerlite.Variable(rng.standard_normal((3, 5)).astype(np.float32))
    b2 = chainerlite.Variable(np.zeros(3, np.float32))
    gamma = chainerlite.Variable(np.ones(5, np.float32))
    beta = chainerlite.Variable(np.zeros(5, np.float32))

    def step():
        h = F.batch_normalization(F.linear(x, W1), gamma, beta)
        h = F.sigmoid(F.relu(h) * 2.0 - 1.0)
        loss = F.softmax_cross_entropy(F.tanh(F.linear(h, W2)) + b2, t)
        loss.backward()
        return loss, [p.grad for p in (W1, W2, b2, gamma, beta)]

    return step


def _lstm_step():
    rng = np.random.default_rng(1)
    x = rng.standard_normal((4, 3)).astype(np.float32)
    c0 = chainerlite.Variable(rng.standard_normal((4, 5)).astype(np.float32))
    W = chainerlite.Variable(rng.standard_normal((20, 3)).astype(np.float32))

    def step():
        c, h = F.lstm(c0, F.linear(x, W))
        loss = F.sum(F.log_softmax(h) * c)
        loss.backward()
        return loss, W.grad, c0.grad

    return step


@pytest.mark.parametrize('model', [_mlp_step, _lstm_step])
def test_call_log_is_the_same_with_and_without_hooks(model):
    plain = _trace(model())
    assert any(m == 'backward' for _, m, _ in plain)
    assert any(name.endswith('Grad') for name, m, _ in plain if m == 'forward')
    with _Empty():
        empty = _trace(model())
    with TimerHook() as timer:
        timed = _trace(model())
    assert empty == plain
    assert timed == plain
    # the timer saw the grad nodes that ran
    names = {name for name, _ in timer.call_history}
    assert {name for name, m, _ in plain if name.endswith('Grad')} <= names
