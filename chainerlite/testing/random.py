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


# What restores the generators, one entry per fixed section still open.
_fixed_sections = []
# The sections do_setup opened, innermost last.
_setup_sections = []


def _seed(seed=None):
    """Seeds the random generators (with the base seed by default) and
    returns what restores them."""
    if seed is None:
        seed = base_seed()
    state = numpy.random.get_state()
    numpy.random.seed(seed)
    cupy_random = _cupy_random()
    cupy_state = None
    if cupy_random is not None:
        cupy_state = cupy_random.get_random_state()
        cupy_random.seed(seed)
    saved = state, cupy_random, cupy_state
    _fixed_sections.append(saved)
    return saved


def _restore(saved):
    state, cupy_random, cupy_state = saved
    numpy.random.set_state(state)
    if cupy_random is not None:
        cupy_random.set_random_state(cupy_state)
    _fixed_sections.remove(saved)


def generate_seed():
    """Draws a seed for another generator inside a fixed test.

    The seed comes from NumPy's global generator, which :func:`fix_random`
    (or :func:`do_setup`) has seeded, so a test that seeds its own generator
    with it draws the same numbers on every run.

    Returns:
        int: A seed in ``[0, 2**31)``.

    Raises:
        AssertionError: Outside a test decorated with :func:`fix_random` and
            outside :func:`do_setup` ... :func:`do_teardown`.
    """
    assert _fixed_sections, (
        'generate_seed: the random generators are not fixed here; decorate '
        'the test with chainerlite.testing.fix_random() or call do_setup()'
    )
    return int(numpy.random.randint(2**31))


def do_setup(deterministic=True):
    """Seeds NumPy's (and CuPy's) global generators until :func:`do_teardown`.

    Args:
        deterministic (bool): Seed with the base seed (see
            :func:`base_seed`); ``False`` seeds from the operating system's
            entropy, so each run differs.
    """
    seed = base_seed() if deterministic else int.from_bytes(os.urandom(4), 'little')
    _setup_sections.append(_seed(seed))


def do_teardown():
    """Restores the generators as they were before the matching
    :func:`do_setup`.

    Raises:
        RuntimeError: If no :func:`do_setup` is open.
    """
    if not _setup_sections:
        raise RuntimeError('do_teardown: there is no do_setup to undo')
    _restore(_setup_sections.pop())


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
