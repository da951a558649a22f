"""Which nodes the recomputation of ``F.forget`` need not run again.

The backward of a recomputed node reads only what it retains (some of its
inputs, some of its outputs) and the state its forward left on the node.
So a node must run again only if its backward reads one of its outputs, or
a later node reads one of them: its backward as a retained input, or its
forward as an input of a node that runs again. The recomputation stops
after the last node that must run, as PyTorch's non-reentrant checkpoint
does: the nodes after it (such as the last linear layer and the residual
sum of a block) are linked as the nodes of the forward call (whose state is
that of a forward on the same inputs) with placeholder outputs of the right
shapes, which nothing reads. Only a tail is passed over, so that no node
that runs can read a placeholder, not even through a number the function
computes from an array in Python.

A node is passed over only where that is sure to be right: its class is
one of chainerlite's (whose forward leaves the same state with or without
backprop mode, or whose backward recomputes what it did not leave), its
state after forward is small (no array: holding it until backward costs
nothing), and each array it retains is one that the recomputation makes
from the same nodes, or the same array made outside them (a parameter), not
one made anew. The recomputation checks (``forget_replay``) that each node
of the tail is the one of the forward call, with the same inputs; if not,
it runs every node again.
"""

import weakref

import numpy

_PLAIN = (
    type(None),
    bool,
    int,
    float,
    complex,
    str,
    bytes,
    type,
    slice,
    type(Ellipsis),
    numpy.dtype,
    numpy.generic,
)


def _small(value, depth=0):
    if isinstance(value, _PLAIN):
        return True
    if depth > 2:
        return False
    if isinstance(value, (tuple, list, set, frozenset)):
        return all(_small(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return all(
            _small(k, depth + 1) and _small(v, depth + 1) for k, v in value.items()
        )
    return False


_kinds = {}  # node class -> 0: not chainerlite's, 1: compiled, 2: Python


def _kind(cls):
    kind = _kinds.get(cls)
    if kind is None:
        if not cls.__module__.startswith('chainerlite.'):
            kind = 0
        else:  # a compiled node's state is shapes and constants (audited)
            kind = 2 if cls.__dictoffset__ else 1
        _kinds[cls] = kind
    return kind


def eligible(node):
    """Whether ``node`` (after its forward) may stand in for itself in the
    recomputation: one of chainerlite's nodes, with no array in its state."""
    kind = _kind(type(node))
    if kind != 2:
        return kind == 1
    state = node.__dict__
    return not state or all(_small(v) for v in state.values())


def _dead(ref):
    # an input made outside the nodes that did not outlive the forward call
    # (or takes no weak reference): the recomputation makes another one
    return ref is False or (ref is not None and ref() is None)


def _reads_dead(step, indexes):
    return any(_dead(step.externals[k]) for k in indexes)


def plan(steps):
    """The indexes of the nodes the recomputation need not run.

    Args:
        steps (list of forget_trace.Step): The nodes of the forward call.

    Returns:
        frozenset of int: The nodes to pass over: the tail after the last
        node that runs (or that ``keep`` kept and that retains an array
        made anew), less the kept ones.
    """
    read = [False] * len(steps)  # an output of the node is read
    last = -1  # the last node that runs
    for i in range(len(steps) - 1, -1, -1):
        step = steps[i]
        kept = step.outputs is not None
        runs = not kept and (
            step.node is None
            or step.retains_output
            or read[i]
            or _reads_dead(step, step.retained)  # the one of the forward died
        )
        if last < 0 and (runs or (kept and _reads_dead(step, step.retained))):
            last = i
        for k, source in enumerate(step.sources):
            if source is not None and source[0] >= 0 and (runs or k in step.retained):
                read[source[0]] = True
    return frozenset(i for i in range(last + 1, len(steps)) if steps[i].outputs is None)


def returned(steps, source, arrays):
    """The nodes whose outputs are all among the arrays the function
    returned, and which may stand in for themselves (a node held, no
    ``keep``): ``[(index, weak references to its outputs)]``.

    While those arrays live (the next node of the graph retains them, as
    the next ``forget`` keeps its inputs), the recomputation need not run
    such a node, nor what only it reads: it links the node of the forward
    call with its real outputs, as if ``keep`` had kept them, but holding
    them only weakly (no memory of their own). See :func:`restore`.
    """
    found = {}
    for a in arrays:
        where = source(a)
        if where is not None and where[0] >= 0:  # (-1: an input of forget)
            found.setdefault(where[0], {})[where[1]] = a
    picked = []
    for index, outs in sorted(found.items()):
        step = steps[index]
        if step.node is None or step.outputs is not None:
            continue
        if len(outs) != len(step.meta):
            continue
        try:
            refs = tuple(weakref.ref(outs[k]) for k in range(len(step.meta)))
        except TypeError:  # an array type that takes no weak reference
            continue
        picked.append((index, refs))
    return picked


def set_returned(steps, picked, arrays):
    """Sets (``arrays``: the live outputs, per picked node) or clears (None)
    the outputs of the nodes :func:`returned` picked."""
    for k, (index, _) in enumerate(picked):
        steps[index].outputs = None if arrays is None else arrays[k]


def restore(steps, picked):
    """Gives the picked nodes their outputs again for the recomputation;
    False (and nothing set) when one of them died: the plan made on them
    does not hold, every node runs."""
    arrays = [tuple(ref() for ref in refs) for _, refs in picked]
    if any(a is None for outs in arrays for a in outs):
        return False
    set_returned(steps, picked, arrays)
    return True


def placeholder(meta):
    """An array of the shape and dtype of ``meta`` that takes no memory,
    where a node passed over would have put its output."""
    if meta is None:
        return None
    xp, shape, dtype = meta
    return xp.lib.stride_tricks.as_strided(
        xp.zeros((), dtype), shape, (0,) * len(shape)
    )
