"""Trigger that fires at regular intervals of training time."""

from __future__ import annotations


class TimeTrigger(object):
    """Fires each time ``trainer.elapsed_time`` passes a multiple of
    ``period``.

    After a long gap it fires once, not once per missed period.

    Args:
        period (float): Interval in seconds.

    """

    def __init__(self, period: float) -> None:
        if not period > 0:
            raise ValueError(
                'TimeTrigger: the period must be positive, got {!r}'.format(period)
            )
        self._period = float(period)
        self._next_time = float(period)

    def __call__(self, trainer):
        """Returns whether the next multiple of the period was passed."""
        elapsed = trainer.elapsed_time
        if elapsed < self._next_time:
            return False
        self._next_time = (elapsed // self._period + 1) * self._period
        return True

    def serialize(self, serializer):
        """Saves or loads the time of the next firing."""
        self._next_time = serializer('_next_time', self._next_time)
