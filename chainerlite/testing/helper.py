"""Helpers for running and selecting tests."""

import importlib.metadata

import pytest


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
    return pytest.main([file, '-v'])


def _installed(requirement):
    from packaging.requirements import Requirement

    req = Requirement(requirement)
    try:
        version = importlib.metadata.version(req.name)
    except importlib.metadata.PackageNotFoundError:
        return False
    return req.specifier.contains(version, prereleases=True)


def with_requires(*requirements):
    """Skips a test unless the given distributions are installed.

    Args:
        *requirements (str): Requirement strings such as ``'scipy>=1.0'``.

    Returns:
        pytest.MarkDecorator: A ``skipif`` mark.

    """
    missing = [r for r in requirements if not _installed(r)]
    return pytest.mark.skipif(
        bool(missing), reason='requires {}'.format(', '.join(missing)))
