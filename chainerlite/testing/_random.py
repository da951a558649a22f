"""Fixing the random state of tests."""

import functools
import importlib
import unittest

import numpy

_SEED = 0


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
    state = numpy.random.get_state()
    numpy.random.seed(_SEED)
    cupy_random = _cupy_random()
    cupy_state = None
    if cupy_random is not None:
        cupy_state = cupy_random.get_random_state()
        cupy_random.seed(_SEED)
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
    are seeded before the test and restored after it. On a function the
    seeding wraps the call. On a class it wraps the fixture methods, so the
    random inputs made in ``setUp`` are fixed too: ``setup_method`` and
    ``teardown_method`` name them for :class:`unittest.TestCase` classes;
    plain pytest classes use ``setup_method`` and ``teardown_method``.

    Args:
        setup_method (str): Setup method of unittest classes.
        teardown_method (str): Teardown method of unittest classes.

    Returns:
        callable: Decorator for test functions and classes.

    """
    def decorator(obj):
        if isinstance(obj, type):
            if issubclass(obj, unittest.TestCase):
                return _wrap_class(obj, setup_method, teardown_method)
            return _wrap_class(obj, 'setup_method', 'teardown_method')
        return _wrap_function(obj)

    return decorator
