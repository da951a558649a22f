"""The optimizer's update sharded over the ranks of one node.

When the wrapped optimizer's update works element by element (each new
element of a parameter and of its states depends on the same element of
the parameter, its gradient and its states only), the rank that sums a
slice of the gradients also updates that slice of the parameters, while
the sum is still in cache. The optimizer states live in one shared
buffer that every rank's rules view (each rank writes its slice only), so
they stay the same on every rank without being copied; after the second
barrier each rank brings the rest of its parameters up to date from them
(``MomentumSGD``: ``param += v``, the rule's last step), so each rank does
about half the update work. The result is bitwise that of the unsharded
update: the same operations on the same values.

The states leave the shared buffer (each rank gets its own copy again) at
the next exchange that is not sharded, and when the window is retired.
"""

import sys
import types

import numpy

import chainerlite
from chainerlite.chainermn import _mpi
from chainerlite.optimizers import momentum_sgd
from chainerlite.optimizers import sgd


def _sgd_finish(rule, array, grad, states):
    # no state: the whole (cheap) rule, from the mean gradient
    rule.update_core_cpu(types.SimpleNamespace(array=array, grad=grad))


def _momentum_finish(rule, array, grad, states):
    # the rule's last step, from the velocity its owner left
    array += states[0]


# the optimizers (exact types: a subclass may change the update) whose
# update is GradientMethod's, with: the number a rank that can shard its
# update publishes, the elementwise rule they create, and how a rank that
# does not own a slice brings its parameters there once the states are
# updated (the same operations on the same values as the rule's)
_ELEMENTWISE = {
    sgd.SGD: (1, sgd.SGDRule, _sgd_finish),
    momentum_sgd.MomentumSGD: (2, momentum_sgd.MomentumSGDRule, _momentum_finish),
}


def kind(optimizer, params, dtype):
    """The number of ``optimizer``'s elementwise update when updating
    slices of ``params`` (those of its target that have a gradient, all
    host arrays of ``dtype``) does exactly what ``optimizer.update()``
    would; 0 when it would not (hooks, loss scaling, debug mode, another
    dtype, a parameter left out of the exchange, another rule)."""
    known = _ELEMENTWISE.get(type(optimizer))
    if known is None or chainerlite.is_debug() or optimizer.target is None:
        return 0
    if optimizer._pre_update_hooks or optimizer._post_update_hooks:
        return 0
    if optimizer._loss_scale is not None or optimizer._loss_scaling_is_dynamic:
        return 0
    exchanged = {id(p) for p in params}
    for param in optimizer.target.params():
        if param.array is None:
            continue
        rule = param.update_rule
        if (
            id(param) not in exchanged
            or type(rule) is not known[1]
            or not rule.enabled
            or rule._pre_update_hooks
            or rule._post_update_hooks
            or rule._use_fp32_update
            or param._loss_scale is not None
            or not _plain(param.array, dtype, param.shape)
            or not _plain(param.grad, dtype, param.shape)
            or not all(
                _plain(s, dtype, param.shape) for s in (rule.state or {}).values()
            )
        ):
            return 0
    return known[0]


def _plain(array, dtype, shape):
    return (
        type(array) is numpy.ndarray
        and array.dtype == dtype
        and array.shape == shape
        and array.flags.c_contiguous
    )


class Shards(object):
    """The shared state buffers of one gradient window, for ``rule``'s
    kind of rule.

    Rank 0 allocates them (one flat ``dtype`` buffer the size of the
    gradients per state array of a rule); the others map them.
    """

    def __init__(self, node, size, dtype, rule):
        MPI = _mpi.get_mpi()
        self.rule_type = type(rule)
        n_states = len(rule.state)
        self._finish = next(
            known[2] for known in _ELEMENTWISE.values() if known[1] is type(rule)
        )
        nbytes = n_states * size * dtype.itemsize if node.rank == 0 else 0
        self.win = MPI.Win.Allocate_shared(nbytes, dtype.itemsize, comm=node)
        self.win.Lock_all(MPI.MODE_NOCHECK)
        self._raw = numpy.frombuffer(self.win.Shared_query(0)[0], dtype=dtype)
        self.states = [self._raw[k * size : (k + 1) * size] for k in range(n_states)]
        self.rules = []  # the rules whose states view the buffers
        self._views = {}  # (rule id, state name): the view it was given

    def adopt(self, params, offsets, part):
        """Makes the rules' states of ``params`` (prepared) views of the
        shared state buffers and counts their update, copying the
        rank's ``part`` (a slice of the flat layout) of a state that is not
        one yet; the other ranks copy theirs."""
        rules = [p.update_rule for p in params]
        self.keep(params)
        for param, rule, offset in zip(params, rules, offsets):
            rule.t += 1  # as its update would
            end = offset + param.size
            start, stop = max(part.start, offset), min(part.stop, end)
            for key, shared in zip(sorted(rule.state), self.states):
                state, view = rule.state[key], self._views.get((id(rule), key))
                if state is view:
                    continue
                view = shared[offset:end].reshape(param.shape)
                self._views[id(rule), key] = view
                if start < stop:
                    shared[start:stop] = state.reshape(-1)[
                        start - offset : stop - offset
                    ]
                rule.state[key] = view
        self.rules = rules

    def keep(self, params):
        """Detaches the states of the rules but those of ``params`` (when
        the states are still, so before the first barrier of a step)."""
        if [id(p.update_rule) for p in params] != [id(r) for r in self.rules]:
            self.detach()

    def detach(self):
        """Gives the rules' states their own copies again."""
        for rule in self.rules:
            state = rule.state or {}
            for key, value in state.items():
                if numpy.may_share_memory(value, self._raw):
                    state[key] = value.copy()
        self.rules = []
        self._views = {}

    def update(self, param, rule, local, piece, grad):
        """Updates elements ``local`` of ``param`` and the states' elements
        (``piece`` of the flat layout) from ``grad``."""
        array = param.array.reshape(-1)[local]
        state = rule._state
        rule._state = {
            key: shared[piece] for key, shared in zip(sorted(state), self.states)
        }
        try:
            rule.update_core_cpu(types.SimpleNamespace(array=array, grad=grad))
        finally:
            rule._state = state

    def finish(self, params, offsets, part, mean):
        """Updates the elements of ``params`` outside the rank's ``part``
        from the states the other ranks updated and the ``mean`` gradient
        (flat)."""
        for param, offset in zip(params, offsets):
            flat, end = param.array.reshape(-1), offset + param.size
            for start, stop in (
                (offset, min(end, part.start)),
                (max(offset, part.stop), end),
            ):
                if start < stop:
                    self._finish(
                        param.update_rule,
                        flat[start - offset : stop - offset],
                        mean[start:stop],
                        [shared[start:stop] for shared in self.states],
                    )

    def retire(self):
        """Stops using the buffers; they are freed once no array views them."""
        self.detach()
        self.states = None

    def viewed(self):
        """Whether an array (a state kept somewhere) still views them."""
        # the counts: the attribute's reference and the call's
        return sys.getrefcount(self._raw) > 2

    def free(self):
        self._raw = None
        self.win.Unlock_all()
        self.win.Free()
