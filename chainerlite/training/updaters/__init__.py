"""Updaters: how one iteration of training is run."""

from chainerlite.training.updaters.multiprocess_parallel_updater import (
    MultiprocessParallelUpdater,
)  # NOQA
from chainerlite.training.updaters.parallel_updater import ParallelUpdater  # NOQA
from chainerlite.training.updaters.standard_updater import StandardUpdater  # NOQA
