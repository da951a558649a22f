"""Common base of the extensions that schedule an optimizer attribute."""

import numpy

from chainerlite.serializers import _checks
from chainerlite.training import extension


class ShiftExtension(extension.Extension):
    """Sets ``optimizer.<attr>`` to ``compute(t)`` after each call.

    ``t`` counts the calls; :meth:`initialize` sets the value of ``t`` (the
    last value set, when resumed from a snapshot). ``init`` (the value at
    ``t = 0`` for most schedules) defaults to the attribute's value at
    initialization. A ``target`` bounds the value: the schedule stops there
    once it passes it (``grows`` tells in which direction it moves).

    Subclasses implement ``compute(t)``.
    """

    def __init__(self, attr, init=None, target=None, optimizer=None, grows=False):
        self._attr = attr
        self._init = init
        self._target = target
        self._optimizer = optimizer
        self._grows = grows
        self._t = 0
        self._last_value = None

    def compute(self, t):
        raise NotImplementedError

    def _get_optimizer(self, trainer):
        return self._optimizer or trainer.updater.get_optimizer('main')

    def initialize(self, trainer):
        """Sets the attribute to its initial (or resumed) value, which is
        the last value set from then on (saved as such, as Chainer's)."""
        optimizer = self._get_optimizer(trainer)
        if self._init is None:
            self._init = getattr(optimizer, self._attr)
        if self._last_value is not None:
            value = self._last_value
        else:
            value = self._bounded(self.compute(self._t))
        setattr(optimizer, self._attr, value)
        self._last_value = value

    def __call__(self, trainer):
        """Advances the schedule by one step and sets the attribute."""
        self._t += 1
        value = self._bounded(self.compute(self._t))
        setattr(self._get_optimizer(trainer), self._attr, value)
        self._last_value = value

    def _bounded(self, value):
        target = self._target
        if target is None:
            return value
        if self._grows and abs(value) > abs(target):
            return target
        if not self._grows and abs(value) < abs(target):
            return target
        return value

    def _serialize_count(self, serializer):
        """Saves or loads the step count alone: the schedules whose value
        follows from it save no last value in Chainer's snapshots."""
        self._t = _checks.load_count(
            serializer, '_t', self._t, type(self).__name__ + '.serialize'
        )
        if _checks.loading(serializer):
            self._last_value = None  # initialize computes it from the count

    def serialize(self, serializer):
        """Saves or loads the step count and the last value set."""
        self._t = _checks.load_count(
            serializer, '_t', self._t, type(self).__name__ + '.serialize'
        )
        last = serializer('_last_value', self._last_value)
        if isinstance(last, numpy.ndarray):
            last = last.item()
        self._last_value = last
