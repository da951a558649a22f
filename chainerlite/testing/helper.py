"""Helpers for running and selecting tests."""

import importlib.metadata
import pkgutil
import unittest
from unittest import mock

from chainerlite.testing import parameterized
from chainerlite.testing.warning import assert_warns  # NOQA: F401 (Chainer's path)


def run_module(name, file):
    """Runs the tests of a file with pytest when it is executed as a script.

    Put ``testing.run_module(__name__, __file__)`` at the end of a test
    file; ``python test_foo.py`` then runs its tests.

    Args:
        name (str): The caller's ``__name__``.
        file (str): The caller's ``__file__``.

    Returns:
        int or None: pytest's exit code, or ``None`` when ``name`` is not
        ``'__main__'``.

    """
    if name != '__main__':
        return None
    import pytest

    return pytest.main([file, '-v'])


def _installed(requirement):
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    req = Requirement(requirement)
    if canonicalize_name(req.name) == 'chainer':
        # the tests run against chainerlite, which is Chainer at its API level
        import chainerlite

        version = chainerlite.__version__
    else:
        try:
            version = importlib.metadata.version(req.name)
        except importlib.metadata.PackageNotFoundError:
            return False
    return req.specifier.contains(version, prereleases=True)


def _skip_decorator(skip, reason):
    # pytest's mark where pytest is installed (it also skips plain pytest
    # classes); unittest's skip otherwise, so these helpers need no pytest.
    try:
        import pytest
    except ImportError:
        mark = unittest.skipIf(skip, reason)
    else:
        mark = pytest.mark.skipif(skip, reason=reason)

    def decorator(obj):
        return parameterized.apply_to_classes(obj, mark)

    return decorator


def with_requires(*requirements):
    """Skips a test unless the given distributions are installed.

    A requirement on ``chainer`` is met by chainerlite at the Chainer
    version it implements (``chainerlite.__version__``).

    Args:
        *requirements (str): Requirement strings such as ``'scipy>=1.0'``.

    Returns:
        callable: Decorator of test functions and classes (also those
        :func:`~chainerlite.testing.parameterize` made) that adds a
        ``skipif`` mark.

    """
    missing = [r for r in requirements if not _installed(r)]
    return _skip_decorator(bool(missing), 'requires {}'.format(', '.join(missing)))


def without_requires(*requirements):
    """Runs a test only when some of the given distributions are missing.

    Used for the behaviour of code whose optional dependency is absent, such
    as the error raised by a function that needs SciPy.

    Args:
        *requirements (str): Requirement strings such as ``'scipy'``.

    Returns:
        callable: Decorator that skips the test when every requirement is
        installed.

    """
    installed = all(_installed(r) for r in requirements)
    return _skip_decorator(installed, 'runs without {}'.format(', '.join(requirements)))


def patch(target, *args, **kwargs):
    """:func:`unittest.mock.patch` whose mock still calls the original.

    Unless ``new`` or ``wraps`` is given, the mock wraps the patched object,
    so the code under test keeps working while the test inspects the calls
    (``called``, ``call_args``).

    Args:
        target (str): The dotted name of the object to patch.
        *args: Passed to :func:`unittest.mock.patch`.
        **kwargs: Passed to :func:`unittest.mock.patch`.

    Returns:
        The patcher (a context manager and decorator).

    """
    if not args and 'new' not in kwargs and 'wraps' not in kwargs:
        kwargs['wraps'] = pkgutil.resolve_name(target)
    return mock.patch(target, *args, **kwargs)
