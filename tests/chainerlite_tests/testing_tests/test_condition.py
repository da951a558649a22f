import unittest

import pytest

from chainerlite.testing import condition


def _flaky(outcomes):
    """Returns a function that fails or passes following ``outcomes``."""
    calls = []

    def f():
        ok = outcomes[len(calls)]
        calls.append(ok)
        assert ok

    return f, calls


def test_retry_passes_after_failures():
    f, calls = _flaky([False, False, True, True])
    condition.retry(3)(f)()
    assert calls == [False, False, True]


def test_retry_fails_when_every_trial_fails():
    f, calls = _flaky([False] * 5)
    with pytest.raises(AssertionError, match='passed 0 of 3'):
        condition.retry(3)(f)()
    assert len(calls) == 3


def test_repeat_needs_every_trial():
    f, calls = _flaky([True, True, False, True])
    with pytest.raises(AssertionError):
        condition.repeat(4)(f)()
    assert calls == [True, True, False]
    g, calls = _flaky([True] * 4)
    condition.repeat(4)(g)()
    assert len(calls) == 4


def test_at_least():
    f, calls = _flaky([True, False, True, False, False])
    condition.repeat_with_success_at_least(5, 2)(f)()
    assert calls == [True, False, True]
    with pytest.raises(ValueError):
        condition.repeat_with_success_at_least(2, 3)


def test_skip_propagates():
    calls = []

    def f():
        calls.append(1)
        pytest.skip('not here')

    with pytest.raises(pytest.skip.Exception):
        condition.retry(3)(f)()
    assert calls == [1]


class _Case(unittest.TestCase):
    log = []

    def setUp(self):
        self.log.append('setUp')

    def tearDown(self):
        self.log.append('tearDown')

    @condition.retry(3)
    def runTest(self):
        self.log.append('run')
        assert self.log.count('run') == 2


def test_unittest_fixture_is_reset_between_trials():
    _Case.log = []
    result = unittest.TestResult()
    _Case().run(result)
    assert result.wasSuccessful()
    assert _Case.log == ['setUp', 'run', 'tearDown', 'setUp', 'run', 'tearDown']
