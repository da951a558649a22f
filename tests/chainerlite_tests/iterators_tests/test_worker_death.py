"""A MultiprocessIterator worker that dies makes next() raise a clear
error at once instead of waiting forever (Chainer waits forever); the
position does not move and the next call loads the batch again with new
workers. Each case runs in a subprocess with a timeout, so that a hang
fails the test."""

import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith('linux'), reason='sends signals to forked workers'
)

_PRELUDE = '''
import os, random, signal, threading, time
import numpy
from chainerlite import iterators

class Slow(object):
    def __init__(self, n, delay):
        self.n, self.delay = n, delay
    def __len__(self):
        return self.n
    def __getitem__(self, i):
        time.sleep(self.delay)
        return numpy.full(3, i, '>f4')

def workers(it):
    return [w.process.pid for w in it._pool._workers]
'''


def _run(body, timeout=60):
    proc = subprocess.run(
        [sys.executable, '-c', _PRELUDE + textwrap.dedent(body)],
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


def test_killed_worker_raises_at_once_and_the_batch_is_loaded_again():
    out = _run('''
        it = iterators.MultiprocessIterator(Slow(8, 0.2), 4, n_processes=2,
                                            shuffle=False)
        assert [int(a[0]) for a in it.next()] == [0, 1, 2, 3]
        os.kill(workers(it)[0], signal.SIGKILL)  # loading the next batch
        start = time.monotonic()
        try:
            it.next()
        except RuntimeError as error:
            print(time.monotonic() - start)
            print(error)
        assert it.epoch_detail == 0.5
        assert [int(a[0]) for a in it.next()] == [4, 5, 6, 7]
        assert it.epoch == 1 and it.is_new_epoch
        it.finalize()
    ''')
    seconds, message = out.splitlines()
    assert float(seconds) < 5
    assert 'worker process' in message and 'SIGKILL' in message


def test_a_crash_in_the_dataset_is_reported():
    out = _run('''
        class Crashing(Slow):
            def __getitem__(self, i):
                if i == 5:
                    os._exit(3)
                return i
        it = iterators.MultiprocessIterator(Crashing(8, 0), 4, n_processes=2,
                                            shuffle=False)
        it.next()
        try:
            it.next()
        except RuntimeError as error:
            print(error)
        it.finalize()
    ''')
    assert 'exited with code 3' in out


def test_idle_worker_killed_is_replaced_without_loss():
    _run('''
        it = iterators.MultiprocessIterator(Slow(8, 0), 2, n_processes=3,
                                            shuffle=False)
        it.next()
        time.sleep(0.3)  # the next batch is loaded: every worker is idle
        os.kill(workers(it)[2], signal.SIGKILL)
        time.sleep(0.3)
        got = [int(a[0]) for _ in range(7) for a in it.next()]
        assert got == [2, 3, 4, 5, 6, 7] + list(range(8)), got
        it.finalize()
    ''')


def test_workers_killed_at_random_never_hang_the_caller():
    # Workers are killed at random moments from another thread: every
    # next() returns the right batch or raises, and the iterator goes on.
    out = _run(
        '''
        rng = random.Random(0)
        it = iterators.MultiprocessIterator(Slow(10, 0.002), 5, n_processes=2,
                                            n_prefetch=2, shuffle=False)
        stop = threading.Event()
        def killer():
            while not stop.is_set():
                time.sleep(rng.uniform(0, 0.05))
                pool = it._pool
                try:
                    pid = rng.choice([w.process.pid for w in pool._workers])
                    os.kill(pid, signal.SIGKILL)
                except (AttributeError, IndexError, ProcessLookupError):
                    pass
        thread = threading.Thread(target=killer)
        thread.start()
        errors = served = 0
        expected = 0
        while served < 60:
            try:
                batch = it.next()
            except RuntimeError as error:
                assert 'worker process' in str(error), error
                errors += 1
                continue
            assert [int(a[0]) for a in batch] == [
                (expected + j) % 10 for j in range(5)]
            expected = (expected + 5) % 10
            served += 1
        stop.set()
        thread.join()
        it.finalize()
        print(errors)
    ''',
        timeout=120,
    )
    assert int(out) > 0


def test_replacing_workers_after_their_tasks_keeps_every_batch():
    _run('''
        it = iterators.MultiprocessIterator(Slow(10, 0), 3, n_processes=2,
                                            shuffle=False, maxtasksperchild=1,
                                            n_prefetch=2)
        seen = set()
        got = []
        for _ in range(10):
            got += [int(a[0]) for a in it.next()]
            seen.update(workers(it))
        assert got == [i % 10 for i in range(30)], got
        assert len(seen) > 4
        it.finalize()
    ''')
