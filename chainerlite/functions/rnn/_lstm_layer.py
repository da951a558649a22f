"""A layer and direction of an n-step LSTM on arrays in one compiled call
per direction of the pass (:mod:`chainerlite._kernels.lstm_layer`): the
recurrent product and the cell of every step, shared among the threads by
units. :mod:`chainerlite.functions.rnn._recurrence` calls it first and
keeps its step-by-step path where it declines (returns None)."""

import numpy

from chainerlite._kernels import lstm_layer


class Saved(object):
    """What the forward keeps for :func:`backward`: the cell states and
    activations of every step, the steps in the order they ran."""

    def __init__(self, cs, act, batches, starts):
        self.cs = cs
        self.act = act
        self.batches = batches
        self.starts = starts


def _schedule(batches, starts, reverse):
    # rows and first row of each step, in the order the steps run
    order = range(len(batches) - 1, -1, -1) if reverse else range(len(batches))
    return [batches[t] for t in order], [starts[t] for t in order]


def _finals(init, steps, batches, starts):
    # The state of each row after the last step that has it (rows that no
    # step has keep ``init``'s): read from the steps' rows ``steps``.
    out = init.copy()
    done = 0
    for m, lo in reversed(list(zip(batches, starts))):
        if m > done:
            out[done:m] = steps[lo + done : lo + m]
            done = m
    return out


def _plain(a):
    return type(a) is numpy.ndarray and a.dtype == numpy.float32


def forward(batches, starts, reverse, xw, states, w, keep):
    """``(ys, finals, cache)`` of the steps (as ``_run_arrays``), or None
    where the compiled layer does not take the arrays."""
    h, c = states
    if not all(_plain(a) for a in (xw, h, c, w)) or len(xw) == 0:
        return None
    order = _schedule(batches, starts, reverse)
    n = h.shape[1]
    ys = numpy.empty((len(xw), n), numpy.float32)
    cs = numpy.empty_like(ys)
    act = numpy.empty((len(xw), 5 * n), numpy.float32) if keep else None
    h, c = numpy.ascontiguousarray(h), numpy.ascontiguousarray(c)
    xw, w = numpy.ascontiguousarray(xw), numpy.ascontiguousarray(w)
    if lstm_layer.forward(xw, h, c, w, *order, ys, cs, act) is None:
        return None
    finals = [_finals(s, steps, *order) for s, steps in ((h, ys), (c, cs))]
    return ys, finals, (ys, Saved(cs, act, *order))


def backward(saved, xw, states, w, gys, gfinals):
    """The gradients of ``xw`` and of the initial states from those of the
    outputs and final states, or None where the compiled layer does not
    take the arrays."""
    if saved.act is None or not all(_plain(a) for a in (gys,) + tuple(gfinals)):
        return None
    gh, gc = (numpy.array(g, numpy.float32, order='C') for g in gfinals)
    gxw = numpy.empty(xw.shape, numpy.float32)
    c = numpy.ascontiguousarray(states[1])
    gys = numpy.ascontiguousarray(gys)
    w = numpy.ascontiguousarray(w)
    done = lstm_layer.backward(
        w, c, saved.cs, saved.act, gys, gh, gc, gxw, saved.batches, saved.starts
    )
    return None if done is None else (gxw, gh, gc)
