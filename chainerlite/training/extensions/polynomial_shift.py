"""Polynomial decay of an optimizer attribute."""

from __future__ import annotations

import typing

from chainerlite.training.extensions import _shift


class PolynomialShift(_shift.ShiftExtension):
    """Decays an optimizer attribute polynomially over ``max_count`` calls.

    After ``t`` calls the value is
    ``init * (1 - t / max_count) ** rate`` (and ``0`` from ``max_count``
    on for a positive rate), bounded by ``target``.

    Args:
        attr (str): Name of the attribute.
        rate (float): Exponent of the decay (negative: the value grows).
        max_count (int): Number of calls of the whole schedule.
        init (float): Initial value; the attribute's value by default.
        target (float): Value at which the schedule stops.
        optimizer: The optimizer; the trainer's ``'main'`` one by default.

    """

    def __init__(
        self,
        attr: str,
        rate: float,
        max_count,
        init: float | None = None,
        target: typing.Any = None,
        optimizer: typing.Any = None,
    ) -> None:
        super(PolynomialShift, self).__init__(
            attr, init, target, optimizer, grows=rate < 0
        )
        self._rate = rate
        self._max_count = max_count

    def compute(self, t):
        decay = max(1 - t / self._max_count, 0)
        if decay == 0 and self._rate < 0:
            # The growing schedule diverges at max_count: stay at the end.
            return self._target if self._target is not None else (self._last_value)
        return self._init * decay**self._rate
