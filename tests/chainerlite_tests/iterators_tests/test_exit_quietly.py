"""Nothing prints at interpreter exit for an iterator that was never
finalized: held in a reference cycle (collected, if at all, while the
interpreter shuts down), in a module global, or with batches in flight.
A MultithreadIterator in a cycle printed an ImportError traceback."""

import subprocess
import sys

import pytest

_MAKE = {
    'serial': 'iterators.SerialIterator(data, 2)',
    'thread': 'iterators.MultithreadIterator(data, 2, n_threads=2)',
    'process': 'iterators.MultiprocessIterator(data, 2, n_processes=2)',
    'process-prefetch': (
        'iterators.MultiprocessIterator(data, 2, n_processes=2, n_prefetch=3, '
        'shared_mem=4096)'
    ),
}

# Three iterators, held three ways, each two batches in.
_SCRIPT = """
import numpy
from chainerlite import iterators

data = [numpy.full(3, i, '>f4') for i in range(10)]


def make():
    it = {}
    it.next()
    it.next()
    return it


class Holder(object):
    pass


holder = Holder()
holder.it = make()
holder.me = holder
holder.it.holder = holder
del holder

in_global = make()

in_cycle = make()
in_cycle.self = in_cycle
del in_cycle
"""


@pytest.mark.parametrize('kind', sorted(_MAKE))
def test_nothing_prints_at_exit(kind):
    proc = subprocess.run(
        [sys.executable, '-c', _SCRIPT.format(_MAKE[kind])],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0
    assert proc.stderr == ''


_COLLECTED_IN_A_WORKER = """
import gc
import numpy
from chainerlite import iterators
from chainerlite.iterators import _workers

serve = _workers._serve


def collecting_serve(*args):
    # a worker's garbage collector meets the copy of the parent's garbage
    gc.collect()
    return serve(*args)


_workers._serve = collecting_serve
data = [numpy.full(3, i, '>f4') for i in range(10)]


class Holder(object):
    pass


holder = Holder()
holder.it = iterators.MultiprocessIterator(data, 2, n_processes=2)
holder.me = holder
holder.it.next()
del holder  # garbage in a cycle when the next pool forks
it = iterators.MultiprocessIterator(data, 2, n_processes=2)
it.next()
it.next()
"""


def test_a_worker_never_stops_its_parents_pools():
    # the forked worker holds a copy of an iterator in a reference cycle; its
    # collection there ran the parent's finalizer, which tried to stop
    # workers that are not its children ("can only join a child process")
    proc = subprocess.run(
        [sys.executable, '-c', _COLLECTED_IN_A_WORKER],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0
    assert proc.stderr == ''
