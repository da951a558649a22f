"""Multi-step schedule of an optimizer attribute."""

from __future__ import annotations

import bisect
import typing

from chainerlite.training.extensions import _shift


class MultistepShift(_shift.ShiftExtension):
    """Multiplies an optimizer attribute by ``gamma`` at given call counts.

    After ``t`` calls the value is ``init * gamma ** k`` where ``k`` is the
    number of entries of ``step_value`` that are at most ``t``.

    Args:
        attr (str): Name of the attribute.
        gamma (float): Factor per step.
        step_value (list of int): Call counts at which a step happens.
        init (float): Initial value; the attribute's value when ``None``.
        optimizer: The optimizer; the trainer's ``'main'`` one by default.

    """

    def __init__(
        self,
        attr: str,
        gamma: float,
        step_value,
        init: float,
        optimizer: typing.Any = None,
    ) -> None:
        super(MultistepShift, self).__init__(attr, init, None, optimizer)
        self._gamma = gamma
        self._step_value = sorted(step_value)

    def compute(self, t):
        return self._init * self._gamma ** bisect.bisect_right(self._step_value, t)

    def serialize(self, serializer):
        """Saves or loads the call count and, as Chainer's keys, the number
        of steps taken (``_current_step``, which follows from the count)."""
        self._serialize_count(serializer)
        serializer('_current_step', bisect.bisect_right(self._step_value, self._t))
