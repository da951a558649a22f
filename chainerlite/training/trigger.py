"""Old home of the trigger helpers (``chainer.training.trigger``): the
interval trigger and :func:`get_trigger`, as in :mod:`chainerlite.training`."""

from chainerlite.training.triggers.interval_trigger import IntervalTrigger  # NOQA
from chainerlite.training.util import get_trigger  # NOQA
