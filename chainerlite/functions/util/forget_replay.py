"""The hook of ``F.forget``'s recomputation: it passes over the nodes that
need not run again and reuses the outputs that ``keep`` kept.

:class:`Replayer` numbers the nodes as :class:`forget_trace.Trace` did in
the forward call. In place of a kept node or of one passed over it has the
engine link the node of the forward call (``_core.substitute_forward``),
with the kept outputs or with placeholders, passing over its random draws
in the replay. From the first node passed over on, it checks that each
node is the one of the forward call and reads the same arrays; when one is
not, it raises :class:`Diverged` and the recomputation runs again in full.
"""

import contextlib
import itertools

from chainerlite import _core
from chainerlite import function_hook
from chainerlite.functions.util import forget_skip
from chainerlite.functions.util import forget_trace
from chainerlite.utils import random_state

_ids = itertools.count()


class Diverged(Exception):
    """The recomputation applied other nodes, or gave them other arrays,
    than the forward call, after a node that it passed over."""


class Replayer(function_hook.FunctionHook):
    """Substitutes the kept nodes and those passed over.

    Args:
        steps (list): The :class:`forget_trace.Step` of each node of the
            forward call that is substituted or checked, None for the others.
        skipped (frozenset of int): The nodes to pass over.
        inputs (tuple): The input arrays of the recomputation.
        returned (frozenset of int): The nodes that stand in for
            themselves because they made returned arrays (not kept by
            ``keep``): another node there only means the function went
            another way (:class:`Diverged`), as no one asked to keep it.
    """

    forward_postprocess_out_data = True

    def __init__(self, steps, skipped, inputs, returned=frozenset()):
        self.name = 'forget_replay_{}'.format(next(_ids))
        self._steps = steps
        self._skipped = skipped
        self._returned = returned
        self._first = min(skipped) if skipped else len(steps)  # checked from
        self._walk = forget_trace.Walk()
        self.removed = False  # the function unregistered it
        self._origins = None
        if skipped:
            self._origins = forget_trace.Origins()
            for i, x in enumerate(inputs):
                self._origins.add(x, (-1, i))

    def forward_preprocess(self, function, in_data):
        index = self._walk.enter()
        if index is None:
            return
        if index >= len(self._steps):
            if self._skipped:
                raise Diverged()
            return
        step = self._steps[index]
        if step is None:  # runs again, and is not checked
            return
        if index >= self._first:
            self._check(index, step, function, in_data)
        if index in self._skipped:
            outputs = tuple(forget_skip.placeholder(meta) for meta in step.meta)
        elif step.outputs is not None:
            outputs = step.outputs
        else:
            return
        node = step.node
        if type(node) is not type(function):
            if index in self._returned:
                raise Diverged()
            raise RuntimeError(
                'forget: the function applied {} as its node {} when it was '
                'recomputed, but {} in its forward call; it must apply the '
                'same functions every time it is called'.format(
                    type(function).__name__, index, type(node).__name__
                )
            )
        state = getattr(node, '__dict__', None)
        if state:
            # what forward stored on the node, for code that reads it from
            # the node it created (the engine links the one of the forward)
            function.__dict__.update(state)
        if step.draws:
            random_state.skip(step.draws)
        _core.substitute_forward(node, outputs)

    def forward_postprocess(self, function, in_data, out_data):
        index = self._walk.leave()
        if index is not None and self._origins is not None:
            for k, y in enumerate(out_data):
                self._origins.add(y, (index, k))

    def __exit__(self, *_):
        self.removed = not forget_trace.leave(self)
        return False

    def check_complete(self):
        """Raises :class:`Diverged` if the recomputation applied fewer
        nodes than the forward call (after one passed over), or if the
        function unregistered this hook (it missed the nodes after)."""
        if self.removed or (self._skipped and self._walk.count < len(self._steps)):
            raise Diverged()

    def _check(self, index, step, function, in_data):
        if type(function) is not step.cls:
            raise Diverged()
        if forget_trace.signature(in_data) != step.signature:
            raise Diverged()
        runs = index not in self._skipped and step.outputs is None
        for k, a in enumerate(in_data):
            if not (runs or k in step.retained):
                continue  # an input whose value nothing reads
            source = self._origins.source(a)
            if source != step.sources[k]:
                raise Diverged()
            ref = step.externals[k]  # False: it took no weak reference
            if ref is False or (ref is not None and ref() is not a):
                raise Diverged()


@contextlib.contextmanager
def enclosing_hidden():
    """Leaves the hooks of enclosing ``forget`` calls (the trace of their
    forward call and the :class:`Replayer` of their recomputation) out of
    dispatch while the function of a ``forget`` nested in them runs: to
    them its node is one node, and the nodes applied inside its forward are
    nothing. Else each node at depth d would pass through d of them, and
    backward through d nested forgets would cost d**3."""
    registry = _core.get_function_hooks()
    outer = [
        hook
        for hook in registry.values()
        if isinstance(hook, (forget_trace.Trace, Replayer))
    ]
    if not outer:
        yield
        return
    token = registry.hide(outer)
    try:
        yield
    finally:
        registry.unhide(token)
