"""Trigger that fires at regular intervals of training time."""

from __future__ import annotations


class TimeTrigger(object):
    """Fires when ``trainer.elapsed_time`` has passed the next multiple of
    ``period``.

    Each firing moves the next time on by one period, so after a gap of
    several periods it fires at each of the following calls until it has
    caught up (as Chainer's does).

    Args:
        period (float): Interval in seconds.

    """

    def __init__(self, period: float) -> None:
        if not period > 0:
            raise ValueError(
                'TimeTrigger: the period must be positive, got {!r}'.format(period)
            )
        self._period = period
        self._next_time = period

    def __call__(self, trainer):
        """Returns whether the time of the next firing has passed."""
        if trainer.elapsed_time <= self._next_time:
            return False
        self._next_time += self._period
        return True

    def serialize(self, serializer):
        """Saves or loads the time of the next firing (key ``next_time``,
        as in Chainer's snapshots)."""
        self._next_time = serializer('next_time', self._next_time)
