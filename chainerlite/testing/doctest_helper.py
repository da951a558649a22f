"""Conditions for the ``:skipif:`` option of Sphinx doctests.

Each function returns True when the doctest should be skipped.
"""

import os

from chainerlite.testing import helper

# The most GPUs tests may use (Chainer's variable), unset for no limit.
GPU_LIMIT_ENV = 'CHAINER_TEST_GPU_LIMIT'


def skipif(condition):
    """Returns ``condition``: skip when it is true."""
    return condition


def skipif_not_enough_cuda_devices(device_count):
    """Whether the GPU limit of the test run is below ``device_count``.

    Args:
        device_count (int): How many GPUs the doctest needs.

    Returns:
        bool: True when ``CHAINER_TEST_GPU_LIMIT`` is set to fewer devices.

    Raises:
        ValueError: If ``CHAINER_TEST_GPU_LIMIT`` is not an integer.
    """
    limit = os.environ.get(GPU_LIMIT_ENV)
    if limit is None:
        return False
    try:
        return int(limit) < device_count
    except ValueError:
        raise ValueError(
            '{} must be an integer, not {!r}'.format(GPU_LIMIT_ENV, limit)
        ) from None


def skipif_requires_satisfied(*requirements):
    """Whether every requirement (``'numpy>=1.16'``, ...) is installed.

    Returns:
        bool: True when all the packages are installed at matching versions.
    """
    return all(helper._installed(r) for r in requirements)
