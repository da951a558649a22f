"""Training loop abstraction (``chainerlite.training``), as in Chainer."""

from chainerlite.training import extension  # NOQA
from chainerlite.training import extensions  # NOQA
from chainerlite.training import trainer  # NOQA
from chainerlite.training import triggers  # NOQA
from chainerlite.training import updater  # NOQA
from chainerlite.training import updaters  # NOQA
from chainerlite.training import util  # NOQA

from chainerlite.training.extension import Extension  # NOQA
from chainerlite.training.extension import make_extension  # NOQA
from chainerlite.training.extension import PRIORITY_EDITOR  # NOQA
from chainerlite.training.extension import PRIORITY_READER  # NOQA
from chainerlite.training.extension import PRIORITY_WRITER  # NOQA
from chainerlite.training.trainer import Trainer  # NOQA
from chainerlite.training.updater import Updater  # NOQA
from chainerlite.training.updaters import ParallelUpdater  # NOQA
from chainerlite.training.updaters import StandardUpdater  # NOQA
from chainerlite.training.util import get_trigger  # NOQA
from chainerlite.training.triggers.interval_trigger import IntervalTrigger  # NOQA
from chainerlite.training import trigger  # NOQA
