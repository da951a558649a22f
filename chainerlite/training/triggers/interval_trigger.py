"""Trigger that fires at a regular interval of iterations or epochs."""

from __future__ import annotations

from chainerlite.training.triggers import _progress
from chainerlite.utils import _chainer_errors


class IntervalTrigger(object):
    """Fires each time the training crosses a multiple of ``period``.

    It fires once per crossed boundary even when it is not called at every
    iteration (a sparse call fires if any boundary was crossed since the
    previous call), and it remembers its position in snapshots.

    Args:
        period (int or float): Length of the interval, in ``unit``.
        unit (str): ``'iteration'`` or ``'epoch'``.

    Raises:
        ValueError: If the unit is unknown or the period is not positive
            (a zero one is also a ``ZeroDivisionError``).

    """

    def __init__(self, period: float, unit: str) -> None:
        _progress.check_unit('IntervalTrigger', unit)
        if not period > 0:
            # a zero period is also the ZeroDivisionError Chainer 7.8.1
            # raises when the trigger is first called
            error = _chainer_errors.ZeroError if period == 0 else ValueError
            raise error(
                'IntervalTrigger: the period must be positive, got {!r}'.format(period)
            )
        self.period = period
        self.unit = unit
        #: epochs-unit only: how many whole periods the training has done
        #: at the last call (as a float, Chainer's ``epoch_detail //
        #: period``); it stays 0 for an iterations unit
        self.count = 0
        self._progress = _progress.Progress(unit)

    def __call__(self, trainer):
        """Returns whether a boundary was crossed since the previous call."""
        previous, current = self._progress.advance(trainer.updater)
        if self.unit == 'epoch':
            self.count = current // self.period
        return previous // self.period != current // self.period

    def get_training_length(self):
        """Returns ``(period, unit)``: the length when used as a stop
        trigger."""
        return self.period, self.unit

    def serialize(self, serializer):
        """Saves or loads the position of the previous call."""
        self._progress.serialize(serializer)

    def __str__(self):
        return '{}({}, {!r})'.format(type(self).__name__, self.period, self.unit)
