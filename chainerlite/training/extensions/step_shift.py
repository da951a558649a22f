"""Step schedule of an optimizer attribute."""

from __future__ import annotations

import typing

from chainerlite.training.extensions import _shift


class StepShift(_shift.ShiftExtension):
    """Multiplies an optimizer attribute by ``gamma`` every ``step`` calls.

    After ``t`` calls the value is ``init * gamma ** (t // step)``, bounded
    by ``target``.

    Args:
        attr (str): Name of the attribute.
        gamma (float): Factor per step.
        step (int): Number of calls per step.
        init (float): Initial value; the attribute's value by default.
        target (float): Value at which the schedule stops.
        optimizer: The optimizer; the trainer's ``'main'`` one by default.

    """

    def __init__(
        self,
        attr: str,
        gamma: float,
        step,
        init: float | None = None,
        target: typing.Any = None,
        optimizer: typing.Any = None,
    ) -> None:
        super(StepShift, self).__init__(attr, init, target, optimizer, grows=gamma > 1)
        self._gamma = gamma
        self._step = step

    def compute(self, t):
        return self._init * self._gamma ** (t // self._step)
