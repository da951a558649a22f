"""Trigger that fires once (and optionally again on resume)."""

from __future__ import annotations

import warnings


class OnceTrigger(object):
    """Fires at its first call only.

    Args:
        call_on_resume (bool): Also fire at the first call after the
            trainer is resumed from a snapshot (and at the very first call
            of a fresh trainer).

    Attributes:
        finished (bool): Whether it will not fire anymore.

    """

    def __init__(self, call_on_resume: bool = False) -> None:
        self._flag_first = True
        self._flag_resumed = call_on_resume

    @property
    def finished(self):
        return not (self._flag_first or self._flag_resumed)

    def __call__(self, trainer):
        """Returns True at the first call (and after a resume)."""
        fire = not self.finished
        self._flag_first = False
        self._flag_resumed = False
        return fire

    def serialize(self, serializer):
        """Saves or loads whether it has fired."""
        try:
            self._flag_first = serializer('_flag_first', self._flag_first)
        except KeyError:
            warnings.warn(
                'the saved OnceTrigger state is missing (it was written by '
                'an older version): the trigger is taken as already fired'
            )
            self._flag_first = False
