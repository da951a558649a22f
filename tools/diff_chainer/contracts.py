"""Forward references for functions whose Chainer answer breaks the
function's own contract on an input Chainer does not check.

Each maker is asked (as every reference maker is) only where the two
libraries differ, and stands in only where Chainer answered and its answer
is refuted by the contract, decided from the call's arguments alone (never
from chainerlite's result). The reference is then an exception class that
Chainer itself raises for the same arguments elsewhere:

* ``sum_to(x, shape)`` documents an output of shape ``shape``; Chainer
  checks nothing and returns arrays of other shapes. A sum to ``shape`` is
  the adjoint of broadcasting ``shape`` to ``x.shape``, so where the type
  check of Chainer's ``broadcast_to`` refuses an array of shape ``shape``
  to ``x.shape``, its exception is the reference; where it accepts,
  Chainer's answer stands.
* ``permutate(x, indices)`` takes a permutation; Chainer checks that only
  in debug mode (``indices`` in range and without duplicates) and outside
  it returns a gather, or with ``inv`` reads uninitialized places. Where
  ``indices`` is no permutation of ``range(x.shape[axis])``, Chainer's
  exception for the call in debug mode is the reference; where debug mode
  lets it pass too (a permutation of another length), there is none, nor
  where an index is negative (debug mode refuses it, outside it counts
  from the end).
"""

import importlib
import inspect

import numpy

from tools.diff_chainer import compare
from tools.diff_chainer import references as R


def forward(name, args, kwargs):
    """The forward reference maker of ``chainer.functions.<name>`` called
    with ``args`` and ``kwargs`` (None if the name has no contract here)."""
    check = _CONTRACTS.get(name)
    return None if check is None else check(args, kwargs)


def _bound(lib, name, args, kwargs):
    fn = getattr(lib.functions, name)
    bound = inspect.signature(fn).bind(*args, **kwargs)
    bound.apply_defaults()
    return bound.arguments


def _chainer_answered(outcomes):
    theirs = outcomes[0]
    return not theirs.raised and isinstance(theirs.value, tuple)


def _sum_to(args, kwargs):
    def make(libs, scratch, outcomes):
        if not _chainer_answered(outcomes):
            return None
        a = _bound(libs[0], 'sum_to', args, kwargs)
        x, shape = a['x'], a['shape']
        if not isinstance(x, numpy.ndarray) or not isinstance(shape, tuple):
            return None
        if outcomes[0].value[1].shape == shape:
            return None  # the contract holds; Chainer's answer stands
        adjoint = compare.run(lambda: _check_broadcast(libs[0], shape, x.shape))
        return R.Reference(None, error=adjoint.error[0]) if adjoint.raised else None

    return make


def _check_broadcast(lib, shape, target):
    """``lib``'s type check of ``broadcast_to`` from an array of ``shape``
    (which may hold a negative size, so no array is made) to ``target``."""
    broadcast = importlib.import_module(f'{lib.__name__}.functions.array.broadcast')
    types = lib.utils.type_check.get_types(
        (numpy.zeros(()),), 'in_types', False, shapes=(shape,)
    )
    broadcast.BroadcastTo(target).check_type_forward(types)


def _permutate(args, kwargs):
    def make(libs, scratch, outcomes):
        if not _chainer_answered(outcomes):
            return None
        chainer = libs[0]
        a = _bound(chainer, 'permutate', args, kwargs)
        x, indices, axis = a['x'], a['indices'], a['axis']
        if not (isinstance(x, numpy.ndarray) and isinstance(indices, numpy.ndarray)):
            return None
        if not isinstance(axis, int) or not -x.ndim <= axis < x.ndim:
            return None
        if (indices < 0).any():
            return None  # debug mode refuses them; outside it they count from the end
        n = x.shape[axis]
        if numpy.array_equal(numpy.sort(indices.ravel()), numpy.arange(n)):
            return None  # a permutation: Chainer's answer stands
        with chainer.using_config('debug', True):
            checked = compare.run(lambda: chainer.functions.permutate(*args, **kwargs))
        return R.Reference(None, error=checked.error[0]) if checked.raised else None

    return make


_CONTRACTS = {'sum_to': _sum_to, 'permutate': _permutate}
