"""Inverse decay of an optimizer attribute."""

from __future__ import annotations

import typing

from chainerlite.training.extensions import _shift


class InverseShift(_shift.ShiftExtension):
    """Sets an optimizer attribute to ``init * (1 + gamma * t) ** -power``.

    Args:
        attr (str): Name of the attribute.
        gamma (float): Scale of the call count (not negative).
        power (float): Exponent (negative: the value grows).
        init (float): Initial value; the attribute's value by default.
        target (float): Value at which the schedule stops.
        optimizer: The optimizer; the trainer's ``'main'`` one by default.

    Raises:
        ValueError: If ``gamma`` is negative.

    """

    def __init__(
        self,
        attr: str,
        gamma: float,
        power,
        init: float | None = None,
        target: typing.Any = None,
        optimizer: typing.Any = None,
    ) -> None:
        if gamma < 0:
            raise ValueError(
                'InverseShift: gamma must not be negative, got {}'.format(gamma)
            )
        super(InverseShift, self).__init__(
            attr, init, target, optimizer, grows=power < 0
        )
        self._gamma = gamma
        self._power = power

    def compute(self, t):
        return self._init * (1 + self._gamma * t) ** (-self._power)
