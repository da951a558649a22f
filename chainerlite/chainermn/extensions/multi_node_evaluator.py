"""Evaluators whose result covers the data of every process."""

import copy
import itertools

import numpy

from chainerlite import backend
from chainerlite import configuration
from chainerlite import function
from chainerlite.dataset import convert
from chainerlite.training import extension

_MISSING = object()  # pads the shorter ranks' results when interleaving


def _to_float(value):
    return float(backend.CpuDevice().send(getattr(value, 'array', value)))


def create_multi_node_evaluator(actual_evaluator, communicator):
    """Makes ``actual_evaluator`` report the mean over all ranks.

    Each rank evaluates its own part of the data; the evaluator's
    ``evaluate()`` then returns, on every rank, the mean of each reported
    value over the ranks (one allreduce of all the values). Every rank
    must report the same keys.

    Returns:
        The same evaluator object, with ``evaluate`` replaced.
    """
    local_evaluate = actual_evaluator.evaluate

    def evaluate():
        local = local_evaluate()
        keys = sorted(local)
        all_keys = communicator.allgather_obj(keys)
        for rank, theirs in enumerate(all_keys):
            if theirs != keys:
                raise ValueError(
                    'multi-node evaluator: rank {} reported {} but rank {} '
                    'reported {}'.format(rank, theirs, communicator.rank, keys)
                )
        values = numpy.array([_to_float(local[k]) for k in keys], dtype=numpy.float64)
        means = communicator.allreduce(values) / communicator.size
        return {key: float(mean) for key, mean in zip(keys, means)}

    actual_evaluator.evaluate = evaluate
    return actual_evaluator


class GenericMultiNodeEvaluator(extension.Extension):
    """Evaluates on every rank and combines all the results on rank 0.

    For each batch of ``iterator``, :meth:`calc_local` computes a local
    result (by default ``eval_func`` or ``target`` applied to the converted
    batch, without backprop and with ``train`` off). Rank 0 gathers the
    per-batch results of all ranks, interleaved batch by batch (rank 0's
    first, rank 1's first, ..., rank 0's second, ...), and returns
    :meth:`aggregate` of them; other ranks return None. Subclasses override
    ``calc_local`` and ``aggregate``.
    """

    trigger = 1, 'epoch'
    default_name = 'validation'
    priority = extension.PRIORITY_WRITER

    def __init__(
        self,
        comm,
        iterator,
        target,
        device=None,
        converter=convert.concat_examples,
        root=0,
        **kwargs,
    ):
        self.comm = comm
        self.iterator = iterator
        self.target = target
        self.device = device
        self.converter = converter
        self.root = root
        self.eval_func = kwargs.pop('eval_func', None)
        self.eval_hook = kwargs.pop('eval_hook', None)
        if kwargs:
            raise TypeError(
                'GenericMultiNodeEvaluator: unexpected argument(s) {}'.format(
                    ', '.join(sorted(kwargs))
                )
            )

    def __call__(self, trainer=None):
        if self.eval_hook:
            self.eval_hook(self)
        if hasattr(self.iterator, 'reset'):
            self.iterator.reset()
            it = self.iterator
        else:
            it = copy.copy(self.iterator)
        local = []
        with configuration.using_config('train', False), function.no_backprop_mode():
            for batch in it:
                in_arrays = convert._call_converter(self.converter, batch, self.device)
                if isinstance(in_arrays, tuple):
                    local.append(self.calc_local(*in_arrays))
                elif isinstance(in_arrays, dict):
                    local.append(self.calc_local(**in_arrays))
                else:
                    local.append(self.calc_local(in_arrays))
        gathered = self.comm.gather_obj(local, root=self.root)
        if self.comm.rank != self.root:
            return None
        interleaved = [
            r
            for batch in itertools.zip_longest(*gathered, fillvalue=_MISSING)
            for r in batch
            if r is not _MISSING
        ]
        return self.aggregate(interleaved)

    def calc_local(self, *args, **kwargs):
        """The result of one batch on this rank (``eval_func`` or ``target``)."""
        func = self.eval_func or self.target
        return func(*args, **kwargs)

    def aggregate(self, results):
        """Combines the gathered per-batch results (here: returns them)."""
        return results
