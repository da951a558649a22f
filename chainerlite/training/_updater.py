"""Chainer's first home of :class:`~chainerlite.training.Updater`, kept for
code that imports it from here (``chainerlite.training.updater`` defines it).
"""

from chainerlite.training.updater import Updater  # NOQA: F401
