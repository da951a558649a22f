"""Exponential schedule of an optimizer attribute."""

from __future__ import annotations

import typing

from chainerlite.training.extensions import _shift


class ExponentialShift(_shift.ShiftExtension):
    """Multiplies an optimizer attribute by ``rate`` at each call.

    After ``t`` calls the value is ``init * rate ** t``, bounded by
    ``target``.

    Args:
        attr (str): Name of the attribute (e.g. ``'lr'``).
        rate (float): Factor per call (not negative).
        init (float): Initial value; the attribute's value by default.
        target (float): Value at which the schedule stops.
        optimizer: The optimizer; the trainer's ``'main'`` one by default.

    Raises:
        ValueError: If ``rate`` is negative.

    """

    def __init__(
        self,
        attr: str,
        rate: float,
        init: float | None = None,
        target: typing.Any = None,
        optimizer: typing.Any = None,
    ) -> None:
        if rate < 0:
            raise ValueError(
                'ExponentialShift: the rate must not be negative, got {}'.format(rate)
            )
        super(ExponentialShift, self).__init__(
            attr, init, target, optimizer, grows=rate > 1
        )
        self._rate = rate

    def compute(self, t):
        return self._init * self._rate**t
