import copy
import os
import pickle
import signal
import subprocess
import sys
import textwrap
import threading
import time
import warnings

import numpy
import pytest

from chainerlite import iterators
from chainerlite import serializers

_ITERATORS = [
    (iterators.MultithreadIterator, {'n_threads': 2}),
    (iterators.MultiprocessIterator, {'n_processes': 2}),
    (
        iterators.MultiprocessIterator,
        {'n_processes': 2, 'n_prefetch': 2, 'shared_mem': 256},
    ),
]


@pytest.fixture(params=_ITERATORS, ids=['thread', 'process', 'shared'])
def make(request):
    cls, options = request.param
    made = []

    def make(dataset, batch_size, **kwargs):
        it = cls(dataset, batch_size, **dict(options, **kwargs))
        made.append(it)
        return it

    yield make
    for it in made:
        it.finalize()


def _dataset():
    return [(i, numpy.full((2, 3), i, 'f'), {'t': numpy.int32(i)}) for i in range(5)]


def test_batches_match_the_serial_iterator(make):
    it = make(_dataset(), 2, shuffle=False)
    batches = [it.next() for _ in range(4)]
    assert [[ex[0] for ex in b] for b in batches] == [[0, 1], [2, 3], [4, 0], [1, 2]]
    example = batches[1][1]
    assert isinstance(example, tuple)
    numpy.testing.assert_array_equal(example[1], numpy.full((2, 3), 3, 'f'))
    assert example[1].dtype == numpy.float32 and example[2]['t'] == 3
    assert it.epoch == 1 and it.epoch_detail == pytest.approx(8 / 5)
    assert it.previous_epoch_detail == pytest.approx(6 / 5)


def test_shuffled_orders_are_the_serial_iterators_and_drawn_in_next(make):
    # each epoch's order is drawn from NumPy's generator by next() itself,
    # so a seed gives the serial iterator's batches (also across epochs) and
    # nothing draws from the generator between calls
    numpy.random.seed(1608018)
    serial = iterators.SerialIterator(list(range(7)), 3)
    expected = [serial.next() for _ in range(6)]
    numpy.random.seed(1608018)
    it = make(list(range(7)), 3)
    got = []
    for _ in range(6):
        got.append(it.next())
        state = numpy.random.get_state()
        time.sleep(0.05)
        assert numpy.random.get_state()[2] == state[2]
        numpy.testing.assert_array_equal(numpy.random.get_state()[1], state[1])
    assert got == expected


def test_no_repeat_and_reset(make):
    it = make(list(range(5)), 2, repeat=False)
    for _ in range(2):
        assert sorted(sum(list(it), [])) == list(range(5))
        with pytest.raises(StopIteration):
            it.next()
        it.reset()


def test_pickle_and_serialize_resume_where_the_caller_was(make):
    it = make(list(range(6)), 2)
    seen = it.next() + it.next()
    clone = pickle.loads(pickle.dumps(it))
    target = {}
    it.serialize(serializers.DictionarySerializer(target))
    resumed = make(list(range(6)), 2)
    resumed.serialize(serializers.NpzDeserializer(target))
    for other in (clone, resumed):
        assert other.epoch_detail == pytest.approx(4 / 6)
        assert sorted(seen + other.next()) == list(range(6))
        assert other.is_new_epoch
        other.finalize()


@pytest.mark.parametrize('shuffle', [False, True])
def test_snapshot_keys_are_chainers(shuffle, tmp_path):
    # Chainer 7.8.1: MultithreadIterator writes its order under '_order',
    # None without shuffling; MultiprocessIterator under 'order' (it fails
    # to serialize without an order: chainerlite leaves the key out)
    path = str(tmp_path / 'it.npz')
    keys = {}
    for cls, order_key in (
        (iterators.MultithreadIterator, '_order'),
        (iterators.MultiprocessIterator, 'order'),
    ):
        it = cls(list(range(5)), 2, shuffle=shuffle)
        first = it.next()
        target = {}
        it.serialize(serializers.DictionarySerializer(target))
        keys[cls] = sorted(target)
        serializers.save_npz(path, it)
        resumed = cls(list(range(5)), 2, shuffle=shuffle)
        serializers.load_npz(path, resumed)
        assert resumed.current_position == 2
        assert sorted(first + resumed.next() + resumed.next()[:1]) == list(range(5))
        it.finalize()
        resumed.finalize()
        if cls is iterators.MultithreadIterator or shuffle:
            assert order_key in target
        if cls is iterators.MultithreadIterator and not shuffle:
            assert target['_order'] is None or target['_order'][()] is None
    base = ['current_position', 'epoch', 'is_new_epoch', 'previous_epoch_detail']
    assert keys[iterators.MultithreadIterator] == sorted(base + ['_order'])


def test_copy_before_start_is_independent(make):
    it = make(list(range(4)), 2, repeat=False)
    other = copy.copy(it)
    assert sorted(sum(list(it), [])) == list(range(4))
    assert sorted(sum(list(other), [])) == list(range(4))
    other.finalize()


class _Failing(object):
    def __len__(self):
        return 4

    def __getitem__(self, i):
        if i == 2:
            raise KeyError('broken example')
        return i


def test_errors_in_the_dataset_reach_the_caller(make):
    it = make(_Failing(), 2, shuffle=False)
    assert it.next() == [0, 1]
    with pytest.raises(KeyError, match='broken example'):
        it.next()
    # the batch that failed is spent, as in Chainer (and SerialIterator):
    # the position had stayed behind the batches that followed
    assert (it.current_position, it.epoch, it.is_new_epoch) == (0, 1, True)
    assert it.epoch_detail == 1.0
    assert it.next() == [0, 1]
    assert (it.current_position, it.epoch) == (2, 1)


class _HeldSecondBatch(object):
    """Its second batch loads once a file exists (threads and processes
    alike), so that a Ctrl-C always comes while next() waits for it."""

    def __init__(self, release):
        self.release = release

    def __len__(self):
        return 6

    def __getitem__(self, i):
        deadline = time.monotonic() + 60
        while i in (2, 3) and not os.path.exists(self.release):
            assert time.monotonic() < deadline
            time.sleep(0.01)
        return i


@pytest.mark.parametrize('then', ['next', 'reset'])
def test_ctrl_c_while_a_batch_loads_loses_nothing(make, then, tmp_path):
    # the batch being waited for was dropped while the position stayed
    # before it (Chainer spends it, position and all)
    release = str(tmp_path / 'release')
    it = make(_HeldSecondBatch(release), 2, shuffle=False, repeat=False)
    assert it.next() == [0, 1]
    # a real SIGINT to the main thread: it wakes a wait on a lock, which
    # _thread.interrupt_main does not
    main = threading.main_thread().ident
    threading.Timer(0.2, signal.pthread_kill, (main, signal.SIGINT)).start()
    with pytest.raises(KeyboardInterrupt):
        it.next()
    open(release, 'w').close()
    assert it.current_position == 2
    if then == 'reset':
        it.reset()
        assert it.next() == [0, 1]
    assert [it.next() for _ in range(2)] == [[2, 3], [4, 5]]


def test_ctrl_c_after_a_batch_arrived_spends_it(monkeypatch):
    # a Ctrl-C once the workers' batch was received (here while the shared
    # memory is sized after it): waiting again would find nothing, so the
    # batch is spent as in Chainer and the next call goes on after it
    it = iterators.MultiprocessIterator(
        list(range(6)), 2, shuffle=False, repeat=False, n_processes=2
    )
    size = it._size_shared_memory

    def interrupted(batch):
        monkeypatch.setattr(it, '_size_shared_memory', size)
        raise KeyboardInterrupt

    monkeypatch.setattr(it, '_size_shared_memory', interrupted)
    with pytest.raises(KeyboardInterrupt):
        it.next()
    assert it.current_position == 2
    assert [it.next() for _ in range(2)] == [[2, 3], [4, 5]]
    it.finalize()


class _Slow(object):
    def __len__(self):
        return 2

    def __getitem__(self, i):
        time.sleep(0.3)
        return i


def test_multiprocess_warns_on_a_stalled_dataset():
    it = iterators.MultiprocessIterator(
        _Slow(), 2, n_processes=1, shuffle=False, dataset_timeout=0.05
    )
    with pytest.warns(iterators.MultiprocessIterator.TimeoutWarning):
        assert it.next() == [0, 1]
    it.finalize()
    with pytest.raises(NotImplementedError):
        it.reset()


def test_multithread_restarts_after_finalize():
    it = iterators.MultithreadIterator([1, 2], 2, shuffle=False)
    assert it.next() == [1, 2]
    it.finalize()
    it.reset()
    assert it.next() == [1, 2]
    it.finalize()


def test_large_arrays_bypass_small_shared_memory():
    data = [numpy.arange(100, dtype='f') + i for i in range(3)]
    it = iterators.MultiprocessIterator(
        data, 3, n_processes=1, shared_mem=64, shuffle=False
    )
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        batch = it.next()
    it.finalize()
    for got, want in zip(batch, data):
        numpy.testing.assert_array_equal(got, want)


@pytest.mark.skipif(not sys.platform.startswith('linux'), reason='reads /proc')
@pytest.mark.parametrize(
    'end', ["raise RuntimeError('boom')", 'os.kill(os.getpid(), signal.SIGKILL)']
)
def test_no_worker_outlives_the_main_process(tmp_path, end):
    # The main process dies (of an exception, or killed) with the iterator
    # alive; its workers must be gone soon after.
    script = tmp_path / 'main.py'
    script.write_text(
        textwrap.dedent('''
        import os, signal
        from chainerlite import iterators
        it = iterators.MultiprocessIterator(list(range(8)), 2, n_processes=2)
        it.next()
        children = open('/proc/{0}/task/{0}/children'.format(
            os.getpid())).read().split()
        print(' '.join(children), flush=True)
    ''')
        + end
        + '\n'
    )
    proc = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=60
    )
    workers = [int(p) for p in proc.stdout.split()]
    assert len(workers) == 2, proc.stderr
    deadline = time.time() + 10
    while time.time() < deadline and any(
        os.path.exists('/proc/%d' % p) for p in workers
    ):
        time.sleep(0.05)
    assert not any(os.path.exists('/proc/%d' % p) for p in workers)


def test_finalize_with_batches_in_flight_never_hangs(tmp_path):
    # finalize() right after an epoch, prefetched batches still being sent:
    # stopping a worker in the middle of a send used to leave the pool's
    # result queue locked and finalize() waiting forever (about 1 run in
    # 360 of this loop). In a subprocess, so that a hang fails the test.
    script = tmp_path / 'loop.py'
    script.write_text(
        textwrap.dedent('''
        import numpy
        from chainerlite import iterators
        for _ in range(60):
            data = [numpy.arange(10 ** (i % 4), dtype='f') for i in range(8)]
            it = iterators.MultiprocessIterator(
                data, 2, n_processes=2, n_prefetch=2, shuffle=False)
            got = [a for _ in range(8) for a in it.next()]
            it.finalize()
            assert len(got) == 16
        print('done')
    ''')
    )
    proc = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0 and proc.stdout.strip() == 'done', proc.stderr[-2000:]


def test_automatic_shared_memory_with_growing_examples():
    # Regions are sized from the first batch; later, larger examples still
    # arrive whole (through pipes).
    data = [numpy.arange(10 ** (i % 4), dtype='f') for i in range(8)]
    it = iterators.MultiprocessIterator(
        data, 2, n_processes=2, n_prefetch=2, shuffle=False
    )
    got = [a for _ in range(8) for a in it.next()]
    it.finalize()
    for g, want in zip(got, data + data):
        numpy.testing.assert_array_equal(g, want)


def test_multiprocess_arguments_as_chainer_takes_them():
    # n_prefetch below 1 counts as 1, n_processes=0 as one per CPU, and
    # shuffle is kept as given
    it = iterators.MultiprocessIterator(
        list(range(4)), 2, n_prefetch=0, n_processes=0, shuffle=False
    )
    try:
        assert it.n_prefetch == 1 and it.n_processes == os.cpu_count()
        assert it.shuffle is False and it.next() == [0, 1]
    finally:
        it.finalize()
    with pytest.raises(ValueError, match='n_processes'):
        iterators.MultiprocessIterator([1], 1, n_processes=-1)
