"""The profiled step of :func:`~chainerlite.link_hooks.plan_forget`: bytes
and seconds of each block, counted on the device the model lives on: with
:mod:`tracemalloc` on the CPU, with a memory hook on CuPy's pool on a GPU
(tracemalloc does not see the device's memory)."""

import contextlib
import time
import tracemalloc

import numpy

from chainerlite import configuration
from chainerlite import function_hook
from chainerlite import link_hook
from chainerlite import variable
from chainerlite.functions.util import forget_policy
from chainerlite.functions.util import forget_tag
from chainerlite.link_hooks import _forget_dp


def _nbytes(out):
    outs = out if isinstance(out, (tuple, list)) else (out,)
    return sum(
        o.array.nbytes if isinstance(o, variable.Variable) else getattr(o, 'nbytes', 0)
        for o in outs
    )


class _Probe(link_hook.LinkHook):
    # Added to each block: the traced memory and the time at the start and
    # the end of its call, and the highest traced memory during it.

    name = '_ForgetProfile'

    def __init__(self, tracker):
        self.tracker = tracker
        self.records = {}  # id(link) -> [order, before, after, peak, out, seconds]
        self._open = {}

    def forward_preprocess(self, args):
        key = id(args.link)
        if key in self.records or key in self._open:
            raise ValueError(
                'plan_forget: the block {} is called more than once in the '
                'step; give blocks that run once'.format(type(args.link).__name__)
            )
        before = self.tracker.mark()
        self._open[key] = (before, time.perf_counter())

    def forward_postprocess(self, args):
        seconds = time.perf_counter()
        key = id(args.link)
        before, start = self._open.pop(key)
        peak = self.tracker.block_peak()
        after = self.tracker.mark()
        self.records[key] = [
            len(self.records),
            before,
            after,
            peak,
            _nbytes(args.out),
            seconds - start,
        ]


class _KeepProbe(function_hook.FunctionHook):
    # Sums, per open block, the bytes of the outputs a keep policy picks
    # among the nodes the block applies itself (numbered as F.forget numbers
    # them: a node applied inside another node's forward is not counted)
    # and the time their forward took.

    name = '_ForgetKeepProfile'
    forward_postprocess_out_data = True

    def __init__(self, probe, policy):
        self.probe = probe
        self.policy = policy
        self.saved = {}  # id(link) -> [nodes numbered, bytes, seconds]
        self._running = []  # (start, tags) of the nodes being applied

    def forward_preprocess(self, function, in_data):
        tags = None if self._running else forget_tag.current_tags()
        self._running.append((time.perf_counter(), tags))

    def forward_postprocess(self, function, in_data, out_data):
        start, tags = self._running.pop()
        if tags is None:
            return
        seconds = time.perf_counter() - start
        nbytes = sum(getattr(y, 'nbytes', 0) for y in out_data)
        for key in self.probe._open:
            entry = self.saved.setdefault(key, [0, 0, 0.0])
            site = forget_policy.Site(entry[0], function, tags, out_data)
            entry[0] += 1
            if self.policy(site):
                entry[1] += nbytes
                entry[2] += seconds


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


def profile(step, links, required, policy=None, xp=numpy, release=False):
    """Runs ``step`` once with a probe on each of ``links`` (ValueError if
    one is not called and ``required``, else it is left out), its memory
    counted on the device of the array module ``xp``; with a
    ``keep`` ``policy`` (a predicate on sites), also the bytes and the time
    of the outputs it picks in each block. With ``release``, the step runs
    with the graph released (its backward must go through it once) and its
    backward is measured block by block (:attr:`_forget_dp.Block.back`).

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
        probe = _Probe(tracker)
        keep = None if policy is None else _KeepProbe(probe, policy)
        backward = _BackwardProbe(probe) if release else None
        added = []
        try:
            for link in links:
                link.add_hook(probe)
                added.append(link)
            with contextlib.ExitStack() as hooks:
                if keep is not None:
                    hooks.enter_context(keep)
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
    saved = {} if keep is None else keep.saved
    keys = [id(links[i]) for i in order]
    grads = [
        sum(p.array.nbytes for p in links[i].params() if p.array is not None)
        for i in order
    ]
    backs, tail, finish = [0] * len(order), None, 0
    if backward is not None:
        backs, tail, finish = _released(
            records, keys, grads, backward.spans, start_bytes
        )
    blocks = []
    for i, (_, before, after, peak, out, secs) in enumerate(records):
        _, saved_bytes, saved_seconds = saved.get(id(links[order[i]]), (0, 0, 0.0))
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
                saved=saved_bytes,
                saved_seconds=saved_seconds,
                back=backs[i],
            )
        )
    base = records[0][1] - start_bytes
    if tail is None:
        tail = max(0, tracker.last_peak - records[-1][2])
    peak = tracker.step_peak - start_bytes
    return blocks, order, base, tail, finish, peak, seconds
