"""The hooks that keep chosen outputs in ``F.forget`` and reuse them.

In the forward call, :class:`KeepRecorder` numbers the nodes the function
applies itself (a node applied inside another node's forward is not
numbered) and keeps the node and output arrays of those the policy picks,
with the number of random draws their forward made. In the recomputation,
:class:`KeptReuser` numbers the nodes the same way and has the engine link
each kept node with its kept outputs instead of running its forward
(``_core.substitute_forward``), passing over its draws in the replay.
"""

import itertools

from chainerlite import _core
from chainerlite import function_hook
from chainerlite.functions.util import forget_policy
from chainerlite.functions.util import forget_tag
from chainerlite.utils import random_state

_ids = itertools.count()


class _Walk(object):
    # Numbers the nodes the function applies itself. Mutable state, off the
    # hook: setting a hook's attribute tells the core that its callbacks
    # may have changed.
    def __init__(self):
        self.count = 0  # nodes numbered so far
        self.running = []  # the nodes being applied, innermost last

    def enter(self):
        # the number of the node whose forward begins, or None for one
        # applied inside another node's forward
        index = None
        if not self.running:
            index = self.count
            self.count += 1
        self.running.append(index)
        return index

    def leave(self):
        return self.running.pop()


class KeepRecorder(function_hook.FunctionHook):
    """Keeps the nodes and outputs that ``policy`` picks.

    Args:
        policy (callable): ``(Site) -> bool``.
        seeds (list): The recording of the forward call's random draws.

    Attributes:
        kept (dict): Index -> (node, output arrays, number of draws).
    """

    forward_postprocess_out_data = True

    def __init__(self, policy, seeds):
        self.name = 'forget_keep_{}'.format(next(_ids))
        self.kept = {}
        self._policy = policy
        self._seeds = seeds
        self._walk = _Walk()
        self._before = []  # (draws, tags) when the running node began

    def forward_preprocess(self, function, in_data):
        if self._walk.enter() is not None:
            self._before.append((len(self._seeds), forget_tag.current_tags()))

    def forward_postprocess(self, function, in_data, out_data):
        index = self._walk.leave()
        if index is None:
            return
        draws, tags = self._before.pop()
        if self._policy(forget_policy.Site(index, function, tags, out_data)):
            self.kept[index] = (function, out_data, len(self._seeds) - draws)


class KeptReuser(function_hook.FunctionHook):
    """Links the kept nodes and outputs in place of running them again.

    Args:
        kept (dict): What :class:`KeepRecorder` kept.
    """

    def __init__(self, kept):
        self.name = 'forget_reuse_{}'.format(next(_ids))
        self._kept = kept
        self._walk = _Walk()

    def forward_preprocess(self, function, in_data):
        index = self._walk.enter()
        entry = self._kept.get(index)
        if entry is None:
            return
        node, outputs, draws = entry
        if type(node) is not type(function):
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
            # the node it created (the engine links the kept one)
            function.__dict__.update(state)
        if draws:
            random_state.skip(draws)
        _core.substitute_forward(node, outputs)

    def forward_postprocess(self, function, in_data):
        self._walk.leave()
