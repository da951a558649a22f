"""Trigger helpers: :func:`get_trigger` turns a trigger spec into a
callable."""

from __future__ import annotations

import typing

from chainerlite.training.triggers import interval_trigger

#: What a trigger argument accepts: ``(period, unit)`` with the unit
#: ``'epoch'`` or ``'iteration'``, a callable that takes the trainer and
#: says whether to fire, or None.
TriggerSpec = typing.Union[
    typing.Tuple[float, str], typing.Callable[[typing.Any], bool], None
]


def _never_fire_trigger(trainer):
    return False


def get_trigger(trigger: TriggerSpec) -> typing.Callable[[typing.Any], bool]:
    """Returns a trigger callable for a trigger specification.

    Args:
        trigger: A callable (returned as is), ``None`` (a trigger that never
            fires) or a ``(period, unit)`` pair such as ``(1, 'epoch')``
            (an :class:`~chainerlite.training.triggers.IntervalTrigger`).

    Returns:
        callable: A function of the trainer that returns a bool.

    Raises:
        TypeError: If ``trigger`` is none of the above.
        ValueError: If the unit of a pair is not ``'epoch'`` or
            ``'iteration'``, or its period is not positive.

    """
    if callable(trigger):
        return trigger
    if trigger is None:
        return _never_fire_trigger
    if isinstance(trigger, (tuple, list)) and len(trigger) == 2:
        return interval_trigger.IntervalTrigger(*trigger)
    raise TypeError(
        'a trigger must be a callable, None or a (period, unit) pair such '
        'as (1, \'epoch\'); got {!r}'.format(trigger)
    )
