"""Helpers for tests of multi-process code."""
from chainerlite.chainermn.testing.device import get_device  # NOQA
