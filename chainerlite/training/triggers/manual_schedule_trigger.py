"""Trigger that fires at given iterations or epochs."""

from __future__ import annotations

from chainerlite.training.triggers import _progress


class ManualScheduleTrigger(object):
    """Fires when the training reaches one of the scheduled points.

    A sparse call fires if any point was reached since the previous call.

    Args:
        points (int, float or list of them): The points of the schedule.
        unit (str): ``'iteration'`` or ``'epoch'``.

    Attributes:
        finished (bool): Whether every point has been reached (as of the
            last call).

    Raises:
        ValueError: If the unit is unknown.

    """

    def __init__(self, points, unit: str) -> None:
        _progress.check_unit('ManualScheduleTrigger', unit)
        if isinstance(points, (int, float)):
            points = [points]
        self.points = list(points)
        self.unit = unit
        self.finished = False
        self._progress = _progress.Progress(unit)

    def __call__(self, trainer):
        """Returns whether a point was reached since the previous call."""
        previous, current = self._progress.advance(trainer.updater)
        self.finished = current >= max(self.points)
        return any(previous < p <= current for p in self.points)

    def get_training_length(self):
        """Returns ``(last point, unit)``."""
        return max(self.points), self.unit

    def serialize(self, serializer):
        """Saves or loads the position of the previous call and ``finished``."""
        self._progress.serialize(serializer)
        try:
            self.finished = bool(serializer('finished', self.finished))
        except KeyError:  # written by an older Chainer: the next call sets it
            self.finished = False
