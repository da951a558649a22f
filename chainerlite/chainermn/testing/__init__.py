"""Helpers for tests of multi-process code."""

from chainerlite.chainermn.testing.device import get_device  # NOQA
from chainerlite.chainermn.testing.launch import find_mpiexec  # NOQA
