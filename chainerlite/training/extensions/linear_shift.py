"""Linear schedule of an optimizer attribute."""

from __future__ import annotations

import typing

from chainerlite.training.extensions import _shift


class LinearShift(_shift.ShiftExtension):
    """Moves an optimizer attribute linearly between two values.

    The value is ``value_range[0]`` up to ``time_range[0]`` calls,
    ``value_range[1]`` from ``time_range[1]`` calls on, and linear in
    between.

    Args:
        attr (str): Name of the attribute.
        value_range (tuple of float): First and last values.
        time_range (tuple of int): Call counts where the change starts and
            ends.
        optimizer: The optimizer; the trainer's ``'main'`` one by default.

    """

    def __init__(
        self, attr: str, value_range, time_range, optimizer: typing.Any = None
    ) -> None:
        super(LinearShift, self).__init__(attr, value_range[0], None, optimizer)
        self._value_range = value_range
        self._time_range = time_range

    def compute(self, t):
        (v1, v2), (t1, t2) = self._value_range, self._time_range
        if t <= t1:
            return v1
        if t >= t2:
            return v2
        return v1 + (v2 - v1) * (t - t1) / (t2 - t1)
