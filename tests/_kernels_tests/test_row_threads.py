"""``row_threads.run_parts``: the parts cover the rows once, run in the
caller's context, wait for each other and pass exceptions on."""

import os
import subprocess
import sys
import threading

import numpy as np
import pytest

from chainerlite._kernels import row_threads


def test_parts_cover_the_rows_once():
    seen = []
    lock = threading.Lock()

    def run(begin, end):
        with lock:
            seen.append((begin, end, threading.get_ident()))

    row_threads.run_parts(run, 10, 3)
    assert sorted((b, e) for b, e, _ in seen) == [(0, 3), (3, 6), (6, 10)]
    main = [e for b, e, ident in seen if ident == threading.get_ident()]
    assert main == [3]  # the calling thread runs the first part
    seen.clear()
    row_threads.run_parts(run, 5, 1)
    assert [(b, e) for b, e, _ in seen] == [(0, 5)]


def test_parts_run_in_the_callers_numpy_error_state():
    states = []

    def run(begin, end):
        states.append(np.geterr()['under'])

    with np.errstate(under='raise'):
        row_threads.run_parts(run, 4, 2)
    assert states == ['raise', 'raise']


def test_an_exception_in_a_worker_is_raised_after_every_part_ended():
    done = []

    def run(begin, end):
        if begin > 0:
            raise ValueError('part {}'.format(begin))
        done.append(begin)

    with pytest.raises(ValueError, match='part'):
        row_threads.run_parts(run, 9, 3)
    assert done == [0]


def test_the_callers_exception_stops_the_others_and_waits_for_them():
    stopped = threading.Event()
    finished = []

    def run(begin, end):
        if begin == 0:
            raise KeyboardInterrupt
        stopped.wait(5)
        finished.append(begin)

    with pytest.raises(KeyboardInterrupt):
        row_threads.run_parts(run, 4, 2, stop=stopped.set)
    assert finished == [2]  # the worker had ended before the raise


@pytest.mark.skipif(not hasattr(os, 'fork'), reason='no fork')
def test_a_forked_child_makes_its_own_workers():
    program = (
        'import os, sys\n'
        'from chainerlite._kernels import row_threads\n'
        'parts = []\n'
        'row_threads.run_parts(lambda b, e: parts.append(b), 4, 2)\n'
        'pid = os.fork()\n'
        'if pid == 0:\n'
        '    row_threads.run_parts(lambda b, e: parts.append(b), 4, 2)\n'
        '    os._exit(0 if len(parts) == 4 else 3)\n'
        '_, status = os.waitpid(pid, 0)\n'
        'sys.exit(os.waitstatus_to_exitcode(status))\n'
    )
    done = subprocess.run([sys.executable, '-c', program], timeout=60)
    assert done.returncode == 0
