"""Backprop-mode context managers, at the path where Chainer keeps them."""
from chainerlite._core import force_backprop_mode, no_backprop_mode  # NOQA
