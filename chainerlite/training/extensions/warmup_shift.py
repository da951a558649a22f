"""Linear warm-up of an optimizer attribute."""

from __future__ import annotations

import typing

from chainerlite.training.extensions import _shift


class WarmupShift(_shift.ShiftExtension):
    """Moves an optimizer attribute linearly from ``warmup_start`` to
    ``init`` over ``warmup_iter`` calls, then keeps it at ``init``.

    Args:
        attr (str): Name of the attribute.
        warmup_start (float): Value at the start.
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

    def compute(self, t):
        if t >= self._warmup_iter:
            return self._init
        start = self._warmup_start
        return start + (self._init - start) * t / self._warmup_iter

    def serialize(self, serializer):
        """Saves or loads the call count (``_t``, Chainer's only key)."""
        self._serialize_count(serializer)
