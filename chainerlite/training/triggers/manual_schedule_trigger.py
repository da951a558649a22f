"""Trigger that fires at given iterations or epochs."""

from __future__ import annotations

import warnings

from chainerlite.training.triggers import _progress


class ManualScheduleTrigger(object):
    """Fires when the training reaches one of the scheduled points.

    A sparse call fires if any point was reached since the previous call.

    Args:
        points (int, float or list of them): The points of the schedule
            (a tuple is taken as a list; Chainer's trigger fails on one).
        unit (str): ``'iteration'`` or ``'epoch'``.

    Attributes:
        finished (bool): Whether the trigger fired at the last point (or,
            after loading a snapshot without it, the next call found the
            training past the last point).

    Raises:
        ValueError: If the unit is unknown.

    """

    def __init__(self, points, unit: str) -> None:
        _progress.check_unit('ManualScheduleTrigger', unit)
        if isinstance(points, tuple):
            points = list(points)
        self.points = points if isinstance(points, list) else [points]
        self.unit = unit
        self.finished = False
        # set where a snapshot without ``finished`` was loaded: the next
        # call works it out from the position
        self._finished_unknown = False
        self._progress = _progress.Progress(unit)

    def __call__(self, trainer):
        """Returns whether a point was reached since the previous call."""
        previous, current = self._progress.advance(trainer.updater)
        fire = any(previous < p <= current for p in self.points)
        if (fire or self._finished_unknown) and current >= max(self.points):
            self.finished = True
        self._finished_unknown = False
        return fire

    def get_training_length(self):
        """Returns ``(last point, unit)``."""
        return max(self.points), self.unit

    def serialize(self, serializer):
        """Saves or loads the position of the previous call and ``finished``."""
        self._progress.serialize(serializer)
        try:
            self.finished = bool(serializer('finished', self.finished))
        except KeyError:
            warnings.warn(
                'the saved ManualScheduleTrigger state has no finished flag '
                '(it was written by an older version): the next call sets it '
                'from the position'
            )
            self.finished = False
            self._finished_unknown = True
