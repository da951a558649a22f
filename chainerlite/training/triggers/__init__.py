"""Triggers: callables of the trainer that say when something happens."""

from chainerlite.training.triggers.early_stopping_trigger import EarlyStoppingTrigger  # NOQA
from chainerlite.training.triggers.interval_trigger import IntervalTrigger  # NOQA
from chainerlite.training.triggers.manual_schedule_trigger import ManualScheduleTrigger  # NOQA
from chainerlite.training.triggers.minmax_value_trigger import BestValueTrigger  # NOQA
from chainerlite.training.triggers.minmax_value_trigger import MaxValueTrigger  # NOQA
from chainerlite.training.triggers.minmax_value_trigger import MinValueTrigger  # NOQA
from chainerlite.training.triggers.once_trigger import OnceTrigger  # NOQA
from chainerlite.training.triggers.time_trigger import TimeTrigger  # NOQA
