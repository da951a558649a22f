"""Ratio of two sums of observed values (a micro average)."""

from __future__ import annotations

import typing

from chainerlite import reporter
from chainerlite.serializers import _checks
from chainerlite.training import extension
from chainerlite.training import util
from chainerlite.training.triggers import _progress
from chainerlite import variable

if typing.TYPE_CHECKING:
    from chainerlite.training.util import TriggerSpec


def _value(value):
    return value.array if isinstance(value, variable.Variable) else value


class MicroAverage(extension.Extension):
    """Reports ``sum(numerator) / sum(denominator)`` over each interval.

    For example, with the number of correct predictions and the number of
    examples reported at each iteration, it reports the accuracy over all
    the examples of the interval (rather than the mean of the per-batch
    accuracies).

    Args:
        numerator_key (str): Key of the numerator in the observation.
        denominator_key (str): Key of the denominator.
        result_key (str): Key under which the ratio is reported.
        trigger: Interval of the reports (``(1, 'epoch')``).

    """

    priority = extension.PRIORITY_EDITOR

    def __init__(
        self,
        numerator_key,
        denominator_key,
        result_key,
        trigger: TriggerSpec = (1, 'epoch'),
    ) -> None:
        self._trigger = util.get_trigger(trigger)
        self._numerator_key = numerator_key
        self._denominator_key = denominator_key
        self._result_key = result_key
        # sums start as int 0, as Chainer's: int observations stay ints
        self._numerator = 0
        self._denominator = 0

    def __call__(self, trainer):
        """Accumulates the sums; reports the ratio when triggered."""
        observation = trainer.observation
        if not (
            self._numerator_key in observation and self._denominator_key in observation
        ):
            return
        self._numerator += _value(observation[self._numerator_key])
        self._denominator += _value(observation[self._denominator_key])
        if self._trigger(trainer):
            reporter.report(
                {self._result_key: float(self._numerator) / self._denominator}
            )
            self._numerator = 0
            self._denominator = 0

    def serialize(self, serializer):
        """Saves or loads the running sums (what Chainer's snapshot holds).

        The reporting trigger is not saved; once loaded, it fires where the
        uninterrupted run would (see ``triggers._progress.forget_position``).
        """
        if _checks.loading(serializer):
            _progress.forget_position(self._trigger)
        self._numerator = serializer('_numerator', self._numerator)
        self._denominator = serializer('_denominator', self._denominator)
