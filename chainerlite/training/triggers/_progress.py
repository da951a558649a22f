"""Where the training was at the previous call of a trigger.

A trigger that fires when the training crosses a point (an interval
boundary, a scheduled point) compares the updater's position now with the
one at its previous call, so that it fires even when it is not called at
every iteration. The position is saved in snapshots.
"""

import warnings

from chainerlite.serializers import _checks

_UNITS = ('epoch', 'iteration')


def check_unit(trigger_name, unit):
    if unit not in _UNITS:
        raise ValueError(
            '{}: the unit must be \'epoch\' or \'iteration\', got {!r}'.format(
                trigger_name, unit
            )
        )


class Progress(object):
    """The position (iteration or epoch detail) at the previous call.

    Args:
        unit (str): ``'iteration'`` or ``'epoch'``.

    """

    def __init__(self, unit):
        self.unit = unit
        # A negative value means unknown (an old snapshot without it): the
        # position of the updater's previous iteration is used instead.
        self._previous_iteration = 0
        self._previous_epoch_detail = 0.0

    def advance(self, updater):
        """Returns ``(previous, current)`` positions and records the
        current one."""
        if self.unit == 'iteration':
            current = updater.iteration
            previous = self._previous_iteration
            if previous < 0:
                previous = current - 1
        else:
            current = updater.epoch_detail
            previous = self._previous_epoch_detail
            if previous < 0:
                previous = updater.previous_epoch_detail
                if previous is None:
                    previous = 0.0
        self._previous_iteration = updater.iteration
        epoch_detail = getattr(updater, 'epoch_detail', None)
        if epoch_detail is not None:
            self._previous_epoch_detail = epoch_detail
        return previous, current

    def serialize(self, serializer):
        try:
            self._previous_iteration = _checks.load_count(
                serializer,
                'previous_iteration',
                self._previous_iteration,
                'trigger.serialize',
                minimum=-1,  # -1: not called yet
            )
        except KeyError:
            warnings.warn(
                'the saved trigger state has no previous iteration (it was '
                'written by an older version): the trigger assumes it was '
                'called at the previous iteration'
            )
            self._previous_iteration = -1
        try:
            self._previous_epoch_detail = _checks.load_finite(
                serializer,
                'previous_epoch_detail',
                self._previous_epoch_detail,
                'trigger.serialize',
            )
        except KeyError:
            warnings.warn(
                'the saved trigger state has no previous epoch detail (it '
                'was written by an older version): the trigger assumes it '
                'was called at the previous iteration'
            )
            self._previous_epoch_detail = -1.0


def forget_position(trigger):
    """Makes ``trigger`` take the updater's previous position at its next
    call, as one loaded from a snapshot that does not hold its position
    (the reporting trigger of ``PlotReport`` or ``MicroAverage``, which
    Chainer's snapshots leave out): after a resume it then fires where the
    uninterrupted run would. A trigger without a :class:`Progress` is left
    as it is.
    """
    progress = getattr(trigger, '_progress', None)
    if isinstance(progress, Progress):
        progress._previous_iteration = -1
        progress._previous_epoch_detail = -1.0
