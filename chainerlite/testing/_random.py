"""Fixing the random state of tests.

Every seed derives from one base number, 0 unless the environment variable
``CHAINERLITE_TEST_SEED`` (or Chainer's ``CHAINER_TEST_RANDOM_SEED``) sets
another, so a failing test can be rerun with exactly the same draws.
"""

import functools
import importlib
import os
import unittest
import zlib

import numpy

from chainerlite.testing import parameterized

SEED_ENV = 'CHAINERLITE_TEST_SEED'


def base_seed():
    """The base of all test seeds (from the environment, default 0).

    Returns:
        int: The value of ``CHAINERLITE_TEST_SEED``, else of
        ``CHAINER_TEST_RANDOM_SEED``, else 0.

    Raises:
        ValueError: If the variable is not an integer.
    """
    for name in (SEED_ENV, 'CHAINER_TEST_RANDOM_SEED'):
        value = os.environ.get(name)
        if value:
            try:
                return int(value)
            except ValueError:
                raise ValueError(
                    '{} must be an integer, not {!r}'.format(name, value)
                ) from None
    return 0


def seed_for(name):
    """A seed for the test ``name``, fixed by the base seed.

    Args:
        name (str): The test's id; other tests do not change its seed.

    Returns:
        int: A 32-bit seed.
    """
    return zlib.crc32('{}:{}'.format(base_seed(), name).encode())


def _cupy_random():
    try:
        cuda = importlib.import_module('chainerlite.backends.cuda')
    except ImportError:
        return None
    if not getattr(cuda, 'available', False):
        return None
    return cuda.cupy.random


def _seed():
    """Seeds the random generators and returns what restores them."""
    seed = base_seed()
    state = numpy.random.get_state()
    numpy.random.seed(seed)
    cupy_random = _cupy_random()
    cupy_state = None
    if cupy_random is not None:
        cupy_state = cupy_random.get_random_state()
        cupy_random.seed(seed)
    return state, cupy_random, cupy_state


def _restore(saved):
    state, cupy_random, cupy_state = saved
    numpy.random.set_state(state)
    if cupy_random is not None:
        cupy_random.set_random_state(cupy_state)


def _wrap_function(f):
    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        saved = _seed()
        try:
            return f(*args, **kwargs)
        finally:
            _restore(saved)

    return wrapper


def _wrap_class(cls, setup_name, teardown_name):
    setup = getattr(cls, setup_name, None)
    teardown = getattr(cls, teardown_name, None)

    def new_setup(self, *args, **kwargs):
        self._chainerlite_random_state = _seed()
        if setup is not None:
            setup(self, *args, **kwargs)

    def new_teardown(self, *args, **kwargs):
        try:
            if teardown is not None:
                teardown(self, *args, **kwargs)
        finally:
            _restore(self._chainerlite_random_state)

    setattr(cls, setup_name, new_setup)
    setattr(cls, teardown_name, new_teardown)
    return cls


def fix_random(*, setup_method='setUp', teardown_method='tearDown'):
    """Makes a test draw the same random numbers on every run.

    The NumPy (and, when CUDA is available, CuPy) global random generators
    are seeded before the test (with ``CHAINERLITE_TEST_SEED``, 0 by
    default) and restored after it. On a function the
    seeding wraps the call. On a class it wraps the fixture methods, so the
    random inputs made in ``setUp`` are fixed too: ``setup_method`` and
    ``teardown_method`` name them for :class:`unittest.TestCase` classes;
    plain pytest classes use ``setup_method`` and ``teardown_method``.

    Args:
        setup_method (str): Setup method of unittest classes.
        teardown_method (str): Teardown method of unittest classes.

    Returns:
        callable: Decorator for test functions and classes (also those
        :func:`~chainerlite.testing.parameterize` made).

    """

    def decorate(obj):
        if isinstance(obj, type):
            if issubclass(obj, unittest.TestCase):
                return _wrap_class(obj, setup_method, teardown_method)
            return _wrap_class(obj, 'setup_method', 'teardown_method')
        return _wrap_function(obj)

    def decorator(obj):
        return parameterized.apply_to_classes(obj, decorate)

    return decorator
