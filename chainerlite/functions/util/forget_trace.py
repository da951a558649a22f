"""What ``F.forget`` learns of its function's nodes in the forward call.

:class:`Trace`, a function hook over the forward call, numbers the nodes
the function applies itself (a node applied inside another node's forward
is not numbered: it is part of that node) and records a :class:`Step` for
each: its class and input shapes, where each input came from (an output of
an earlier node, an input of ``forget``, or elsewhere), what the node
retains for its backward and the random draws it made. From these the
recomputation learns which nodes it need not run again
(:mod:`~chainerlite.functions.util.forget_skip`). The trace keeps a node
(its state after forward) only where that state is small, and the outputs
that the ``keep`` policy picks.
"""

import itertools
import weakref

from chainerlite import _core
from chainerlite import function_hook
from chainerlite.functions.util import forget_policy
from chainerlite.functions.util import forget_skip
from chainerlite.functions.util import forget_tag

_ids = itertools.count()


class Walk(object):
    """Numbers the nodes a function applies itself, in the order it applies
    them. Mutable state, off the hook: setting a hook's attribute tells the
    core that its callbacks may have changed."""

    def __init__(self):
        self.count = 0  # nodes numbered so far
        self.running = []  # the nodes being applied, innermost last

    def enter(self):
        """The number of the node whose forward begins, or None for one
        applied inside another node's forward."""
        index = None
        if not self.running:
            index = self.count
            self.count += 1
        self.running.append(index)
        return index

    def leave(self):
        return self.running.pop()


class Origins(object):
    """Where arrays came from: ``(node, output)`` of a numbered node or
    ``(-1, i)`` for the ``i``-th input of ``forget``, by array identity
    (weak: an array that died is no one's)."""

    def __init__(self):
        self._made = {}

    def add(self, array, source):
        try:
            self._made[id(array)] = (weakref.ref(array), source)
        except TypeError:  # an array type that takes no weak reference
            pass

    def source(self, array):
        """The source of ``array``, or None where no node made it."""
        entry = self._made.get(id(array))
        if entry is not None and entry[0]() is array:
            return entry[1]
        return None


def signature(in_data):
    """The shapes and dtypes of a node's inputs."""
    return tuple([None if a is None else (a.shape, a.dtype) for a in in_data])


class Step(object):
    """One numbered node of the forward call.

    Attributes:
        cls (type): The node's class.
        signature (tuple): Its inputs' shapes and dtypes.
        sources (tuple): Per input, where it came from (see
            :class:`Origins`; None: made elsewhere, such as a parameter).
        externals (tuple): Per input made elsewhere, a weak reference to
            it (None for the others; False if it takes none).
        retained (tuple): The input indexes its backward reads.
        retains_output (bool): Whether its backward reads an output.
        node (FunctionNode): The node after its forward, where its state
            is small enough to hold (None otherwise).
        outputs (tuple): Its output arrays where ``keep`` picked it, else
            None.
        meta (tuple): Its outputs' array modules, shapes and dtypes.
        draws (int): The random draws its forward made.
    """

    __slots__ = (
        'cls',
        'signature',
        'sources',
        'externals',
        'retained',
        'retains_output',
        'node',
        'outputs',
        'meta',
        'draws',
    )


def leave(hook):
    """Unregisters ``hook`` (a hook of ``forget`` leaving its ``with``
    block) and returns True, or returns False where it is no longer
    registered: the function cleared the function hooks, or deleted it,
    and the hook missed the nodes applied since. Chainer's ``forget``
    registers no hook, so such a function runs there."""
    hooks = _core.get_function_hooks()
    if hooks.get(hook.name) is not hook:
        return False
    hook.deleted(None)
    del hooks[hook.name]
    return True


def _external(array):
    if array is None:
        return None
    try:
        return weakref.ref(array)
    except TypeError:
        return False


class Trace(function_hook.FunctionHook):
    """Records the :class:`Step` of each numbered node.

    Args:
        inputs (tuple): The input arrays of ``forget``.
        policy (callable or None): ``(Site) -> bool``: whose outputs to
            keep.
        seeds (list): The recording of the forward call's random draws.
        uses (~chainerlite._core.ReadyGrads): Where to count the
            parameters that the nodes read, in a step that updates them
            during backward (None: not counted).

    Attributes:
        steps (list of Step): In the order of the nodes.
    """

    forward_postprocess_out_data = True

    def __init__(self, inputs, policy, seeds, uses=None):
        self.name = 'forget_trace_{}'.format(next(_ids))
        self._uses = uses
        self.steps = []
        self._policy = policy
        self._seeds = seeds
        self._walk = Walk()
        self._origins = Origins()
        for i, x in enumerate(inputs):
            self._origins.add(x, (-1, i))
        self._before = []  # (draws, tags) when the running node began
        self.complete = False  # True once it saw the whole call

    def __exit__(self, *_):
        self.complete = leave(self)
        return False

    def forward_preprocess(self, function, in_data):
        if self._walk.enter() is not None:
            tags = None if self._policy is None else forget_tag.current_tags()
            self._before.append((len(self._seeds), tags))

    def forward_postprocess(self, function, in_data, out_data):
        index = self._walk.leave()
        if index is None:
            return
        draws, tags = self._before.pop()
        if self._uses is not None:
            self._uses.record(in_data)
        step = Step()
        step.cls = type(function)
        step.signature = signature(in_data)
        source = self._origins.source
        step.sources = sources = tuple([source(a) for a in in_data])
        step.externals = tuple(
            [_external(a) if s is None else None for a, s in zip(in_data, sources)]
        )
        retained, outputs = _core.retained_indexes(function)
        step.retained = retained or ()
        step.retains_output = bool(outputs)
        step.draws = len(self._seeds) - draws
        step.meta = tuple(
            [
                None if y is None else (_core.get_array_module(y), y.shape, y.dtype)
                for y in out_data
            ]
        )
        step.outputs = None
        if self._policy is not None and self._policy(
            forget_policy.Site(index, function, tags, out_data)
        ):
            step.outputs = out_data
        keep_node = step.outputs is not None or forget_skip.eligible(function)
        step.node = function if keep_node else None
        self.steps.append(step)
        for k, y in enumerate(out_data):
            self._origins.add(y, (index, k))

    def source(self, array):
        """Which numbered node's output ``array`` is, as
        :meth:`Origins.source` tells."""
        return self._origins.source(array)
