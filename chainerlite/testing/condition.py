"""Decorators that run a flaky test several times."""

import functools
import unittest


class QuietTestRunner(object):
    """Runs a test suite into a ``unittest.TestResult``, printing nothing."""

    def run(self, suite):
        """Runs ``suite`` and returns its ``unittest.TestResult``."""
        result = unittest.TestResult()
        suite(result)
        return result


def _skip_exceptions():
    try:
        import pytest
    except ImportError:
        return (unittest.SkipTest,)
    return (unittest.SkipTest, pytest.skip.Exception)


def _reset(instance):
    """Tears the test fixture down and sets it up again between trials."""
    if isinstance(instance, unittest.TestCase):
        instance.tearDown()
        instance.setUp()
        return
    teardown = getattr(instance, 'teardown_method', None)
    setup = getattr(instance, 'setup_method', None)
    if teardown is not None:
        teardown(None)
    if setup is not None:
        setup(None)


def repeat_with_success_at_least(times, min_success):
    """Runs a test up to ``times`` times; it passes on ``min_success`` wins.

    Between trials the test's fixture is torn down and set up again
    (``tearDown``/``setUp`` for unittest classes, ``teardown_method``/
    ``setup_method`` for pytest classes). Trials stop as soon as the outcome
    is decided. A skip raised by the test stops it at once.

    Args:
        times (int): The most trials to run.
        min_success (int): The trials that must pass.

    Returns:
        callable: Decorator for test methods or functions.

    """
    if not 0 <= min_success <= times:
        raise ValueError(
            'need 0 <= min_success <= times, got min_success={} times={}'.format(
                min_success, times
            )
        )

    def decorator(f):
        @functools.wraps(f)
        def wrapper(*args, **kwargs):
            instance = args[0] if args else None
            successes = 0
            failures = []
            for trial in range(times):
                if successes >= min_success:
                    break
                if times - trial + successes < min_success:
                    break
                if trial > 0 and instance is not None and hasattr(instance, '__dict__'):
                    _reset(instance)
                try:
                    f(*args, **kwargs)
                except _skip_exceptions():
                    raise
                except Exception as e:
                    failures.append(e)
                else:
                    successes += 1
            if successes < min_success:
                raise AssertionError(
                    '{} passed {} of {} trials but needs {}; last failure: {!r}'.format(
                        f.__name__, successes, trial + 1, min_success, failures[-1]
                    )
                ) from failures[-1]

        return wrapper

    return decorator


def repeat(times):
    """Runs a test ``times`` times; every trial must pass.

    Args:
        times (int): The number of trials.

    Returns:
        callable: Decorator for test methods or functions.

    """
    return repeat_with_success_at_least(times, times)


def retry(times):
    """Runs a test up to ``times`` times until one trial passes.

    Args:
        times (int): The most trials to run.

    Returns:
        callable: Decorator for test methods or functions.

    """
    return repeat_with_success_at_least(times, 1)
