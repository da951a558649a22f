"""Linear warm-up of an optimizer attribute."""

from __future__ import annotations

import typing

from chainerlite.training.extensions import _shift


class WarmupShift(_shift.ShiftExtension):
    """Moves an optimizer attribute linearly from ``warmup_start`` to
    ``init`` over ``warmup_iter`` calls, then leaves it alone.

    Args:
        attr (str): Name of the attribute.
        warmup_start (float): Value at the start; the attribute's value
            by default (None).
        warmup_iter (int): Number of calls of the warm-up.
        init (float): Value after the warm-up; the attribute's value by
            default.
        optimizer: The optimizer; the trainer's ``'main'`` one by default.

    """

    def __init__(
        self,
        attr: str,
        warmup_start,
        warmup_iter,
        init: float | None = None,
        optimizer: typing.Any = None,
    ) -> None:
        super(WarmupShift, self).__init__(attr, init, None, optimizer)
        self._warmup_start = warmup_start
        self._warmup_iter = warmup_iter

    def initialize(self, trainer):
        """Takes ``warmup_start`` from the optimizer when it is None, then
        sets the attribute as the other schedules do."""
        if self._warmup_start is None:
            self._warmup_start = getattr(self._get_optimizer(trainer), self._attr)
        super().initialize(trainer)

    def __call__(self, trainer):
        """Advances the warm-up; once it is over the attribute is left
        alone, as in Chainer, so that another schedule (a decay) extended
        beside this one takes it from there."""
        if self._t >= self._warmup_iter:
            self._t += 1
            return
        super().__call__(trainer)

    def compute(self, t):
        if t >= self._warmup_iter:
            return self._init
        start = self._warmup_start
        return start + (self._init - start) * t / self._warmup_iter

    def serialize(self, serializer):
        """Saves or loads the call count (``_t``, Chainer's only key)."""
        self._serialize_count(serializer)
