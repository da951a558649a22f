"""plan_forget's profile predicts F.forget's recomputation as it runs: up
to the last node the block's backward needs (the early stop)."""

import numpy

import chainerlite
from chainerlite import functions as F
from chainerlite import links as L
from chainerlite.functions.util import forget_trace
from chainerlite.link_hooks import _forget_profile


class Widening(chainerlite.Chain):
    # relu(l1(x)) must run again (the relu's backward reads its output);
    # the wide l2 after it does not (its backward reads its input and W)
    def __init__(self, width, hidden, out):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(width, hidden)
            self.l2 = L.Linear(hidden, out)

    def forward(self, x):
        return self.l2(F.relu(self.l1(x)))


def test_the_recomputed_peak_stops_where_the_recomputation_does():
    numpy.random.seed(0)
    model = chainerlite.Sequential(Widening(32, 256, 1024))
    x = numpy.ones((512, 32), numpy.float32)

    def step():
        model.cleargrads()
        F.sum(model(x)).backward()

    step()
    blocks = _forget_profile.profile(step, list(model), True)[0]
    block = blocks[0]
    hidden, wide = 512 * 256 * 4, 512 * 1024 * 4
    # the whole forward holds the hidden layer and the wide output at once;
    # the recomputation ends at the relu (l1's output and the relu's)
    assert block.peak >= hidden + wide
    assert 2 * hidden <= block.rerun_peak < hidden + wide
    assert block.seconds > 0


def _traced(func, x):
    # the steps of F.forget's trace of func(x), in a no-backprop call
    trace = forget_trace.Trace((x,), None, [])
    with chainerlite.no_backprop_mode(), trace:
        func(chainerlite.Variable(x))
    return trace.steps


def test_the_recompute_time_counts_the_nodes_that_run_and_the_code_between():
    numpy.random.seed(0)
    block = Widening(4, 8, 4)
    steps = _traced(block.forward, numpy.ones((2, 4), numpy.float32))
    assert len(steps) == 3  # linear, relu, linear: the last one is passed over
    # per node: (start, end, peak) since the block began
    marks = [(1.0, 3.0, 10), (3.5, 4.0, 20), (4.5, 9.0, 30)]
    seconds, peak = _forget_profile._rerun(steps, marks)
    assert seconds == 4.5  # up to the relu's end, and the code before l2
    assert peak == 20
    # the relu kept (keep= gave its outputs): no node reads l1's output, so
    # none runs; the code before each node does
    steps[1].outputs = (numpy.zeros((2, 8), numpy.float32),)
    assert _forget_profile._rerun(steps, marks) == (1.0 + 0.5 + 0.5, 0)
