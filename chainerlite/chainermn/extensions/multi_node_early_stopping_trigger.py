"""Early stopping on a value averaged over the ranks."""

import numpy

from chainerlite import reporter
from chainerlite.training.triggers import early_stopping_trigger


class _MeanOverRanks(reporter.DictSummary):
    """A summary whose means are also averaged over the ranks."""

    def __init__(self, comm):
        super(_MeanOverRanks, self).__init__()
        self.comm = comm

    def compute_mean(self):
        local = super(_MeanOverRanks, self).compute_mean()
        keys = sorted(set().union(*self.comm.allgather_obj(sorted(local))))
        sums = numpy.array(
            [[float(local[k]), 1.0] if k in local else [0.0, 0.0] for k in keys],
            dtype=numpy.float64,
        ).reshape(-1, 2)
        totals = self.comm.allreduce(sums)
        return {k: total / count for k, (total, count) in zip(keys, totals) if count}


class MultiNodeEarlyStoppingTrigger(early_stopping_trigger.EarlyStoppingTrigger):
    """:class:`~chainer.training.triggers.EarlyStoppingTrigger` over all ranks.

    At each check, the mean of ``monitor`` since the last check is averaged
    over the ranks before it is compared with the best so far, so every
    rank stops at the same iteration. Every rank must call it.

    Args:
        comm: ChainerMN communicator.
        Other arguments: as ``EarlyStoppingTrigger``.
    """

    def __init__(
        self,
        comm,
        check_trigger=(1, 'epoch'),
        monitor='main/loss',
        patience=None,
        mode='auto',
        verbose=False,
        max_trigger=(100, 'epoch'),
        **kwargs,
    ):
        self.comm = comm
        super(MultiNodeEarlyStoppingTrigger, self).__init__(
            check_trigger=check_trigger,
            monitor=monitor,
            patience=patience,
            mode=mode,
            verbose=verbose,
            max_trigger=max_trigger,
            **kwargs,
        )

    def _value_at_check(self, observation):
        # Every rank takes part in the mean at every check, whether or not
        # it observed the value now (a rank that skipped the collective
        # would leave the others waiting in it); the check is skipped on
        # every rank alike where no rank has a value.
        mean = self._summary.compute_mean()
        if self.monitor not in mean:
            self._warn_missing()
            return None
        return float(mean[self.monitor])

    # The base class starts a fresh DictSummary after each check; every
    # summary it makes here is one that averages over the ranks.
    @property
    def _summary(self):
        return self.__dict__['_ranks_summary']

    @_summary.setter
    def _summary(self, value):
        self.__dict__['_ranks_summary'] = _MeanOverRanks(self.comm)
