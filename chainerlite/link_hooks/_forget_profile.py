"""The profiled step of :func:`~chainerlite.link_hooks.plan_forget`: bytes
and seconds of each block, counted on the device the model lives on: with
:mod:`tracemalloc` on the CPU, with a memory hook on CuPy's pool on a GPU
(tracemalloc does not see the device's memory)."""

import contextlib
import time
import tracemalloc
import weakref

import numpy

from chainerlite import backend
from chainerlite import configuration
from chainerlite import function_hook
from chainerlite import link_hook
from chainerlite import variable
from chainerlite.functions.util import forget_skip
from chainerlite.functions.util import forget_trace
from chainerlite.link_hooks import _forget_dp


def _nbytes(out):
    outs = out if isinstance(out, (tuple, list)) else (out,)
    return sum(
        o.array.nbytes if isinstance(o, variable.Variable) else getattr(o, 'nbytes', 0)
        for o in outs
    )


def _weak_outputs(out):
    # weak references to the output arrays (none where one takes none)
    outs = out if isinstance(out, (tuple, list)) else (out,)
    try:
        return [
            weakref.ref(o.array if isinstance(o, variable.Variable) else o)
            for o in outs
        ]
    except TypeError:
        return []


class _Probe(link_hook.LinkHook):
    # Added to each block: the traced memory and the time at the start and
    # the end of its call, the highest traced memory during it, and whether
    # its inputs are the outputs of the block called before it (it can be
    # chained to that block).

    name = '_ForgetProfile'

    def __init__(self, tracker, rerun):
        self.tracker = tracker
        self.rerun = rerun  # the _RerunProbe of the step
        # id(link) -> [order, before, after, peak, out, seconds, chainable,
        # handed: one input and one output (see _forget_dp.Block.handed)]
        self.records = {}
        self._open = {}
        self._last = []  # weak references to the last block's outputs

    def forward_preprocess(self, args):
        key = id(args.link)
        if key in self.records or key in self._open:
            raise ValueError(
                'plan_forget: the block {} is called more than once in the '
                'step; give blocks that run once'.format(type(args.link).__name__)
            )
        inputs = _arrays(args)
        made = [ref() for ref in self._last]
        chainable = bool(inputs) and all(any(x is y for y in made) for x in inputs)
        before = self.tracker.mark()
        start = time.perf_counter()
        self._open[key] = (before, start, chainable, len(inputs) == 1)
        self.rerun.begin(key, inputs, start, before)

    def forward_postprocess(self, args):
        key = id(args.link)
        seconds = time.perf_counter()
        before, start, chainable, one_input = self._open.pop(key)
        self.rerun.end(key)
        peak = self.tracker.block_peak()
        after = self.tracker.mark()
        self.records[key] = [
            len(self.records),
            before,
            after,
            peak,
            _nbytes(args.out),
            seconds - start,
            chainable,
            one_input and len(_weak_outputs(args.out)) == 1,
        ]
        self._last = _weak_outputs(args.out)


def _arrays(args):
    # The arrays a ForgetHook passes to F.forget: those among the
    # arguments, and the arrays of the variables among them.
    values = list(args.args) + list(args.kwargs.values())
    return tuple(
        v.array if isinstance(v, variable.Variable) else v
        for v in values
        if isinstance(v, variable.Variable) or backend._is_array(v)
    )


def _rerun(steps, marks):
    # The recomputation of a block traced as ``steps`` (with the kept
    # outputs of a keep policy, if any): it stops after the last node its
    # backward needs (forget_skip.plan) and does not run the kept nodes,
    # though the block's own code around the nodes passed over still runs.
    # Its seconds and the highest memory above the block's start (marks:
    # per node, the seconds since the block began at its start and its end
    # and the highest memory then).
    skipped = forget_skip.plan(steps)
    runs = [i for i, s in enumerate(steps) if i not in skipped and s.outputs is None]
    last = runs[-1] if runs else -1
    seconds, end = 0.0, 0.0
    for i, (start, stop, _) in enumerate(marks):
        runs_i = i <= last and steps[i].outputs is None
        seconds += (stop if runs_i else start) - end  # the code before it too
        end = stop
    return seconds, marks[last][2] if runs else 0


class _RerunProbe(function_hook.FunctionHook):
    # Traces the nodes each open block applies as F.forget traces them
    # (forget_trace.Trace, numbered alike), with the time since the block
    # began at the start and the end of each and the highest memory since
    # then, so that the recomputation of a forgotten block is predicted up
    # to the last node its backward needs (the early stop): its time and
    # its peak; and, with a keep policy, the bytes of the outputs the
    # policy picks and the recomputation with them kept.

    name = '_ForgetRerunProfile'
    forward_postprocess_out_data = True

    def __init__(self, tracker, policy):
        self.tracker = tracker
        self.policy = policy
        self.found = {}  # id(link) -> (seconds, peak, saved bytes, seconds)
        self._open = {}  # id(link) -> (start, before, traces, marks)
        self._starts = []  # of the nodes being applied

    def begin(self, key, inputs, start, before):
        policies = [None] if self.policy is None else [None, self.policy]
        traces = [forget_trace.Trace(inputs, p, []) for p in policies]
        self._open[key] = (start, before, traces, [])

    def end(self, key):
        _, before, traces, marks = self._open.pop(key)
        seconds, peak = _rerun(traces[0].steps, marks)
        saved, saved_seconds = 0, 0.0
        if len(traces) > 1:
            steps = traces[1].steps
            saved = sum(
                sum(getattr(y, 'nbytes', 0) for y in s.outputs)
                for s in steps
                if s.outputs is not None
            )
            saved_seconds = max(0.0, seconds - _rerun(steps, marks)[0])
        self.found[key] = (seconds, max(0, peak - before), saved, saved_seconds)

    def forward_preprocess(self, function, in_data):
        self._starts.append(time.perf_counter())
        for _, _, traces, _ in self._open.values():
            for trace in traces:
                trace.forward_preprocess(function, in_data)

    def forward_postprocess(self, function, in_data, out_data):
        began, now = self._starts.pop(), time.perf_counter()
        peak = None
        for start, _, traces, marks in self._open.values():
            count = len(traces[0].steps)
            for trace in traces:
                trace.forward_postprocess(function, in_data, out_data)
            if len(traces[0].steps) > count:  # a node the block applied itself
                if peak is None:
                    peak = self.tracker.block_peak()
                marks.append((began - start, now - start, peak))


class _BackwardProbe(function_hook.FunctionHook):
    # Numbers the nodes each block applies (the innermost open block) and,
    # in backward, marks the memory where the nodes being differentiated
    # pass from one block to another (or to none): the highest memory of
    # each stretch, in order, as (index of the block or None, peak).

    name = '_ForgetBackwardProfile'

    def __init__(self, probe):
        self.probe = probe
        self.block_of = {}  # id(node) -> id(link)
        self.spans = []
        self._current = None

    def forward_postprocess(self, function, in_data):
        if self.probe._open:
            self.block_of[id(function)] = next(reversed(self.probe._open))

    def backward_preprocess(self, function, in_data, out_grad):
        key = self.block_of.get(id(function))
        if key != self._current:
            self.close()
            self._current = key

    def close(self):
        self.probe.tracker.mark()
        self.spans.append((self._current, self.probe.tracker.last_peak))


def _released(records, keys, grads, spans, start_bytes):
    # From the stretches of a released backward: each block's hump above
    # what the blocks before it keep and the gradients of those after it
    # (a stretch outside the blocks counts with the next block: the nodes
    # between two blocks), the tail (before the first block's backward,
    # above what the blocks keep) and the finish (after the last one).
    at = {key: i for i, key in enumerate(keys)}
    peaks, waiting, tail = [None] * len(keys), 0, 0
    for key, peak in spans:
        if key not in at:
            waiting = max(waiting, peak)
            continue
        i = at[key]
        if not any(p is not None for p in peaks):
            tail, waiting = waiting, 0
        peaks[i] = max(peak, waiting, peaks[i] or 0)
        waiting = 0
    finish = waiting
    tail = max(0, tail - records[-1][2])
    backs, later = [0] * len(keys), 0
    for i in reversed(range(len(keys))):
        if peaks[i] is None:  # no node of its own in backward
            backs[i] = records[i][2] - records[i][1] + records[i][4] + tail
        else:
            backs[i] = max(0, peaks[i] - records[i][1] - later)
        later += grads[i]
    return backs, tail, max(0, finish - start_bytes)


class _Tracker(object):
    # The step's memory: the highest value over the whole step, the highest
    # since the last mark (the meter's peak is reset at each mark). A
    # subclass reads the meter (_read: current and peak bytes) and resets
    # its peak to the current bytes (_reset).

    def __init__(self):
        self.step_peak = 0
        self.last_peak = 0  # the highest between the last two marks

    def mark(self):
        current, peak = self._read()
        self.step_peak = max(self.step_peak, peak)
        self.last_peak = peak
        self._reset()
        return current

    def block_peak(self):
        return self._read()[1]


class _TraceTracker(_Tracker):
    # Python's allocations, NumPy's array data included.

    def _read(self):
        return tracemalloc.get_traced_memory()

    def _reset(self):
        tracemalloc.reset_peak()


class _PoolTracker(_Tracker):
    # The bytes of CuPy's memory pool handed out (a malloc) and not given
    # back (a free) since the hook was entered: the arrays' memory, rounded
    # as the pool rounds it (blocks the pool caches are not counted).

    def __init__(self, cupy):
        super().__init__()
        tracker = self

        class _Hook(cupy.cuda.MemoryHook):
            name = '_ForgetPool'

            def malloc_postprocess(self, **kwargs):
                tracker.held += kwargs['mem_size']
                tracker.peak = max(tracker.peak, tracker.held)

            def free_postprocess(self, **kwargs):
                tracker.held -= kwargs['mem_size']

        self.hook = _Hook()
        self.held = self.peak = 0

    def _read(self):
        return self.held, self.peak

    def _reset(self):
        self.peak = self.held


@contextlib.contextmanager
def traced(xp=numpy):
    """Counts the memory allocated in the body on the device of the array
    module ``xp``: tracemalloc for NumPy (started if it is off), CuPy's pool
    otherwise. Yields a tracker of the body's memory."""
    if xp is not numpy:
        tracker = _PoolTracker(xp)
        with tracker.hook:
            yield tracker
        return
    started = not tracemalloc.is_tracing()
    if started:
        tracemalloc.start()
    try:
        yield _TraceTracker()
    finally:
        if started:
            tracemalloc.stop()


def measure_step(step, xp=numpy):
    """Runs ``step`` once, its memory counted on the device of ``xp``:
    ``(peak bytes above the start, seconds)``."""
    with traced(xp) as tracker:
        start_bytes = tracker.mark()
        start = time.perf_counter()
        step()
        seconds = time.perf_counter() - start
        tracker.mark()
    return tracker.step_peak - start_bytes, seconds


def profile(
    step, links, required, policy=None, xp=numpy, release=False, grads_held=True
):
    """Runs ``step`` once with a probe on each of ``links`` (ValueError if
    one is not called and ``required``, else it is left out), its memory
    counted on the device of the array module ``xp``; with a
    ``keep`` ``policy`` (a predicate on sites), also the bytes of the
    outputs it picks in each block and the time keeping them saves. Each
    block's nodes are traced as ``F.forget`` traces them, so that its
    recomputation is predicted as it runs: up to the last node its backward
    needs (:attr:`_forget_dp.Block.seconds` and ``rerun_peak``). With
    ``release``, the step runs with the graph released (its backward must go
    through it once) and its backward is measured block by block
    (:attr:`_forget_dp.Block.back`). ``grads_held`` False: the step
    updates each parameter during backward and frees its gradient, so no
    block's gradients stay alive through the backward of the blocks before
    it (:attr:`_forget_dp.Block.grads` are 0; a released backward's
    measured humps hold the block's own).

    Returns:
        tuple: ``(blocks, order, base, tail, finish, peak, seconds)``: the
        blocks of the DP in call order, the indexes into ``links`` in that
        order, the bytes allocated before the first block and after the
        last one at the worst (with ``release``: until the blocks' backward),
        the worst after the blocks' backward (``release``; else 0), the
        step's peak and its seconds (bytes above the traced memory at the
        start of the step).

    """
    with traced(xp) as tracker:
        rerun = _RerunProbe(tracker, policy)
        probe = _Probe(tracker, rerun)
        backward = _BackwardProbe(probe) if release else None
        added = []
        try:
            for link in links:
                link.add_hook(probe)
                added.append(link)
            with contextlib.ExitStack() as hooks:
                hooks.enter_context(rerun)
                if backward is not None:
                    hooks.enter_context(backward)
                    hooks.enter_context(
                        configuration.using_config('retain_graph', False)
                    )
                start_bytes = tracker.mark()
                start = time.perf_counter()
                step()
                seconds = time.perf_counter() - start
                if backward is not None:
                    backward.close()
                tracker.mark()
        finally:
            for link in added:
                link.delete_hook(probe.name)
    missing = [link for link in links if id(link) not in probe.records]
    if missing and required:
        raise ValueError(
            'plan_forget: the step did not call the block {}'.format(
                type(missing[0]).__name__
            )
        )
    called = [i for i in range(len(links)) if id(links[i]) in probe.records]
    if not called:
        raise ValueError('plan_forget: the step called none of the blocks')
    order = sorted(called, key=lambda i: probe.records[id(links[i])][0])
    records = [probe.records[id(links[i])] for i in order]
    keys = [id(links[i]) for i in order]
    grads = [
        sum(p.array.nbytes for p in links[i].params() if p.array is not None)
        if grads_held
        else 0
        for i in order
    ]
    backs, tail, finish = [0] * len(order), None, 0
    if backward is not None:
        backs, tail, finish = _released(
            records, keys, grads, backward.spans, start_bytes
        )
    blocks = []
    for i, record in enumerate(records):
        _, before, after, peak, out, forward, chainable, handed = record
        secs, rerun_peak, saved, saved_seconds = rerun.found[keys[i]]
        # What is freed between this block and the next one (the input of
        # this block when nothing retained it) is part of what it keeps.
        following = records[i + 1][1] if i + 1 < len(records) else after
        blocks.append(
            _forget_dp.Block(
                kept=max(0, following - before),
                out=out,
                peak=max(0, peak - before),
                grads=grads[i],
                seconds=secs,
                saved=saved,
                saved_seconds=saved_seconds,
                back=backs[i],
                rerun_peak=rerun_peak,
                forward=forward,
                chainable=chainable,
                handed=handed,
            )
        )
    base = records[0][1] - start_bytes
    if tail is None:
        tail = max(0, tracker.last_peak - records[-1][2])
    peak = tracker.step_peak - start_bytes
    return blocks, order, base, tail, finish, peak, seconds
