"""Triggers that fire when an observed value reaches a new best."""

from __future__ import annotations

import typing

from chainerlite import reporter
from chainerlite.training import util

if typing.TYPE_CHECKING:
    from chainerlite.training.util import TriggerSpec


class BestValueTrigger(object):
    """Fires when the mean of an observed value improves on the best so far.

    The value under ``key`` is averaged over each interval of ``trigger``;
    at the end of an interval the mean is compared with the best mean so
    far, and the trigger fires if ``compare(best, mean)`` holds (always at
    the first interval). A key not observed over an interval is a
    ``KeyError``.

    Args:
        key (str): Key of the observed value.
        compare (callable): ``compare(best, new)`` returns True when
            ``new`` is better.
        trigger: Interval of the comparisons (see
            :func:`~chainerlite.training.get_trigger`).

    """

    def __init__(
        self,
        key: str,
        compare: typing.Callable[[float, float], bool],
        trigger: TriggerSpec = (1, 'epoch'),
    ) -> None:
        self._key = key
        self._best_value = None
        self._interval_trigger = util.get_trigger(trigger)
        self._init_summary()
        self._compare = compare

    def __call__(self, trainer):
        """Accumulates the observed value; returns whether it improved."""
        observation = trainer.observation
        if self._key in observation:
            self._summary.add({self._key: observation[self._key]})
        if not self._interval_trigger(trainer):
            return False
        stats = self._summary.compute_mean()
        if self._key not in stats:
            raise KeyError(
                '{}: {!r} was not observed since the previous comparison'.format(
                    type(self).__name__, self._key
                )
            )
        value = float(stats[self._key])
        self._init_summary()
        if self._best_value is None or self._compare(self._best_value, value):
            self._best_value = value
            return True
        return False

    def _init_summary(self):
        self._summary = reporter.DictSummary()

    def serialize(self, serializer):
        """Saves or loads the interval position, the running summary and the
        best value."""
        if hasattr(self._interval_trigger, 'serialize'):
            self._interval_trigger.serialize(serializer['interval_trigger'])
        self._summary.serialize(serializer['summary'])
        best = serializer('best_value', self._best_value)
        self._best_value = None if best is None else float(best)


class MaxValueTrigger(BestValueTrigger):
    """Fires when the mean of ``key`` reaches a new maximum.

    Args:
        key (str): Key of the observed value.
        trigger: Interval of the comparisons.

    """

    def __init__(self, key: str, trigger: TriggerSpec = (1, 'epoch')) -> None:
        super(MaxValueTrigger, self).__init__(
            key, lambda best, new: new > best, trigger
        )


class MinValueTrigger(BestValueTrigger):
    """Fires when the mean of ``key`` reaches a new minimum.

    Args:
        key (str): Key of the observed value.
        trigger: Interval of the comparisons.

    """

    def __init__(self, key: str, trigger: TriggerSpec = (1, 'epoch')) -> None:
        super(MinValueTrigger, self).__init__(
            key, lambda best, new: new < best, trigger
        )
