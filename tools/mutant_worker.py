"""Runs one set of test files once unmutated, then once per mutant.

One process serves many mutants, so numpy, chainerlite and pytest are
imported once. Usage (``tools/mutants.py`` starts it)::

    python -m tools.mutant_worker JOB.json RESULT.json

JOB.json holds ``{"files": [...], "mutants": [spec, ...], "timeout": s}``;
RESULT.json receives one ``{"mutant", "result", "calls", "changed"}`` per
mutant. pytest's own output goes to stdout.
"""

import json
import signal
import sys

import pytest

from tools import mutant_plugin

PYTEST_ARGS = ('-x', '-q', '-p', 'no:cacheprovider')


class _Timeout(BaseException):
    """Raised by SIGALRM; pytest reports it as a failing test."""


class _Alarm:
    """Raises :class:`_Timeout` after ``seconds``; ``fired`` tells if it did."""

    def __init__(self, seconds):
        self.seconds = seconds
        self.fired = False

    def _ring(self, signum, frame):
        self.fired = True
        raise _Timeout

    def __enter__(self):
        signal.signal(signal.SIGALRM, self._ring)
        signal.alarm(self.seconds)
        return self

    def __exit__(self, *exc):
        signal.alarm(0)
        return exc[0] is _Timeout


def run_tests(files, timeout, plugins=()):
    """Runs pytest on ``files``; its exit code, or None after a timeout."""
    rc = None
    with _Alarm(timeout) as alarm:
        rc = int(pytest.main([*files, *PYTEST_ARGS], plugins=list(plugins)))
    return None if alarm.fired else rc


def classify(rc, mutant):
    """The result of one mutant from pytest's exit code.

    A run that fails although the mutant changed no gradient is an
    ``error`` (flaky tests), not a kill.
    """
    if rc is None:
        return 'timeout'
    if rc == 0:
        if mutant.calls and not mutant.changed:
            return 'not applicable'
        return 'survived'
    if rc == pytest.ExitCode.TESTS_FAILED and mutant.changed:
        return 'killed'
    return 'error'


def run_job(files, specs, timeout):
    """Results of the mutants ``specs`` against the test files ``files``."""
    base = run_tests(files, timeout)
    results = []
    for spec in specs:
        mutant = mutant_plugin.Mutant.parse(spec)
        if base != 0:
            results.append(
                {
                    'mutant': spec,
                    'result': 'error',
                    'calls': 0,
                    'changed': 0,
                    'note': 'baseline rc %s' % base,
                }
            )
            continue
        try:
            rc = run_tests(files, timeout, [mutant_plugin.MutantPlugin(mutant)])
        finally:
            mutant.restore()
        results.append(
            {
                'mutant': spec,
                'result': classify(rc, mutant),
                'calls': mutant.calls,
                'changed': mutant.changed,
            }
        )
    return results


def main(argv):
    job_path, result_path = argv
    with open(job_path) as f:
        job = json.load(f)
    results = run_job(job['files'], job['mutants'], job['timeout'])
    with open(result_path, 'w') as f:
        json.dump(results, f)


if __name__ == '__main__':
    main(sys.argv[1:])
