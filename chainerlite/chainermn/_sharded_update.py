"""The optimizer's update shared out over the ranks of one node.

Each parameter that can be shared out gets an owner rank: the largest
first, each to the rank with the fewest elements so far (every rank
computes the same owners). Every rank then runs the optimizer's own update
from the mean gradients (:meth:`GradientMethod.update_from_grads`): the
``'pre'`` hooks see every gradient (``GradientClipping`` its global norm),
the update rules of the rank's own parameters run, and the communicator
hands each owner's new parameter, its rule's ``t`` and its states to the
other ranks (``allgather_owned``) before the ``'post'`` hooks. Each
parameter is updated once, by its own rule on the same values, so the
result is bitwise that of every rank updating everything, for any rule.

A parameter is updated by every rank instead when it is not a
C-contiguous float32 or float64 NumPy array (a float16 one may be updated
through a float32 copy that its rule keeps to itself), when its rule is
disabled or a state is not a C-contiguous NumPy array. The first update
after a broadcast (a start, a resume) runs whole on every rank: it makes
the rules' states, so that every rank then shares out the same way. The
gradients of
parameters another rank updated stay the mean gradients (the rule's own
changes to them, e.g. dividing by the loss scale, happen on the owner).
"""

import numpy

from chainerlite import optimizer as optimizer_module

_SHARED_DTYPES = (numpy.dtype(numpy.float32), numpy.dtype(numpy.float64))


def applies(actual, comm):
    """Whether ``actual``'s update is shared out over ``comm``'s ranks:
    a gradient method with the base update, on ranks sharing one node."""
    from chainerlite.chainermn.communicators import mpi_communicator_base

    return (
        isinstance(actual, optimizer_module.GradientMethod)
        and type(actual).update is optimizer_module.GradientMethod.update
        and isinstance(comm, mpi_communicator_base.MpiCommunicatorBase)
        and comm.size > 1
        and comm.shares_node_memory()
    )


def _contiguous(array):
    return type(array) is numpy.ndarray and array.flags.c_contiguous


def _shareable(param):
    rule = param.update_rule
    return (
        _contiguous(param.array)
        and param.array.dtype in _SHARED_DTYPES
        and rule.enabled
        and rule.state is not None
        and all(_contiguous(value) for value in rule.state.values())
    )


def _owners(params, size):
    """The owner rank of each of ``params`` (None: every rank updates it)."""
    owners = [None] * len(params)
    load = [0] * size
    order = sorted(
        (i for i, p in enumerate(params) if _shareable(p)),
        key=lambda i: -params[i].size,
    )
    for index in order:
        rank = load.index(min(load))
        owners[index] = rank
        load[rank] += params[index].size
    return owners


def detach(resident, params):
    """Gives the rules of ``params`` their own copies of the states that
    live in the communicator's shared memory (before every rank writes
    them); ``resident`` maps each rule's id to the states made shared."""
    for param in params:
        rule = param.update_rule
        shared = resident.pop(id(rule), {})
        state = rule.state or {}
        for key, view in shared.items():
            if state.get(key) is view:
                state[key] = view.copy()


def update(actual, comm, resident):
    """Updates ``actual``'s target from the mean gradients, each rank the
    rules of its own parameters; returns whether the update was done.

    The states of the parameters shared out are made to live in the
    communicator's shared memory, where their owner's rule updates them in
    place and the other ranks read them without a copy; ``resident``
    records them (see :func:`detach`).
    """
    params = [p for p in actual.target.params() if p.array is not None]
    owners = _owners(params, comm.size)
    detach(resident, [p for p, o in zip(params, owners) if o is None])
    mine = [p for p, o in zip(params, owners) if o is None or o == comm.rank]
    shared = [(p, o) for p, o in zip(params, owners) if o is not None]
    if not shared:
        return actual.update_from_grads()

    def exchange():
        arrays, array_owners, places = [], [], []
        for param, owner in shared:
            rule = param.update_rule
            keys = sorted(rule.state)
            count = numpy.array(rule.t, dtype=numpy.int64)
            for array in [param.array, count] + [rule.state[k] for k in keys]:
                arrays.append(array)
                array_owners.append(owner)
            places.append((rule, count, keys))
        slots = iter(comm.allgather_owned(arrays, array_owners))
        for rule, count, keys in places:
            next(slots)  # the parameter: its own array holds the values
            rule.t = int(count)
            next(slots)
            shared_states = resident.setdefault(id(rule), {})
            for key in keys:
                rule.state[key] = shared_states[key] = next(slots)

    return actual.update_from_grads(mine, exchange)
