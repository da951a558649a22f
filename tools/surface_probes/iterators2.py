"""Iterators beyond data.py's walks: arguments and their refusals, batches
that wrap epochs, custom order samplers, serialize keys and resumes (also
from snapshots without ``previous_epoch_detail``), the three iterators
side by side, and the Iterator base class."""

import warnings

import numpy

from tools.surface_probes import _values
from tools.surface_probes import data

attempt = _values.attempt


def _data(n=5):
    return [numpy.int32(i) for i in range(n)]


def _walk(it, steps):
    return data._walk(it, steps, lambda batch: [int(b) for b in batch], True)


def _kinds(c):
    its = c.chainer.iterators
    return (
        ('serial', its.SerialIterator, {}),
        ('thread', its.MultithreadIterator, {'n_threads': 2}),
        ('process', its.MultiprocessIterator, {'n_processes': 2}),
    )


def _each(c, make, skip=()):
    out = {}
    for name, cls, extra in _kinds(c):
        if name in skip:
            continue
        it = None
        try:
            it = make(cls, extra)
            out[name] = ['ok', _values.summary(it if not callable(it) else it())]
        except Exception as e:  # noqa: BLE001 - the exception is the result
            out[name] = [
                'raise',
                type(e).__name__,
                [k.__name__ for k in type(e).__mro__],
            ]
    return out


def _finalized(it, fn):
    try:
        return fn(it)
    finally:
        it.finalize()


def shuffle_with_sampler_refused(c):
    sampler = c.chainer.iterators.ShuffleOrderSampler(numpy.random.RandomState(0))
    out = {}
    for shuffle in (True, False):
        out[str(shuffle)] = _each(
            c,
            lambda cls, extra, s=shuffle: cls(
                _data(), 2, shuffle=s, order_sampler=sampler, **extra
            ),
        )
    return out


def batch_larger_than_dataset(c):
    return _each(
        c,
        lambda cls, extra: _finalized(
            cls(_data(3), 7, shuffle=False, **extra), lambda it: _walk(it, 3)
        ),
    )


def batch_larger_no_repeat(c):
    return _each(
        c,
        lambda cls, extra: _finalized(
            cls(_data(3), 7, repeat=False, shuffle=False, **extra),
            lambda it: _walk(it, 3),
        ),
    )


def exact_multiple_no_repeat(c):
    return _each(
        c,
        lambda cls, extra: _finalized(
            cls(_data(6), 3, repeat=False, shuffle=False, **extra),
            lambda it: _walk(it, 4) + [_walk(it, 1)],
        ),
    )


def custom_order_sampler(c):
    class Reverse(c.chainer.iterators.OrderSampler):
        def __init__(self):
            self.calls = []

        def __call__(self, current_order, current_position):
            self.calls.append([list(map(int, current_order)), current_position])
            return numpy.arange(len(current_order))[::-1]

    def make(cls, extra):
        sampler = Reverse()
        it = cls(_data(4), 3, order_sampler=sampler, **extra)
        return _finalized(it, lambda it: [_walk(it, 4), sampler.calls])

    return _each(c, make, skip=('process',))


def order_sampler_changes_length(c):
    def short(order, position):
        return numpy.arange(len(order) - 1)

    return _each(
        c,
        lambda cls, extra: _finalized(
            cls(_data(4), 3, order_sampler=short, **extra), lambda it: _walk(it, 3)
        ),
        skip=('process',),
    )


def shuffle_sampler_draws(c):
    its = c.chainer.iterators
    s = its.ShuffleOrderSampler(numpy.random.RandomState(7))
    numpy.random.seed(11)
    g = its.ShuffleOrderSampler()
    return [
        s(numpy.arange(6), 0),
        s(numpy.arange(3), 2),
        g(numpy.zeros(4), 0),
        attempt(lambda: its.OrderSampler()(numpy.arange(2), 0)),
        isinstance(s, its.OrderSampler),
    ]


def serial_serialize_keys(c):
    ch = c.chainer
    out = []
    for kwargs in ({}, {'shuffle': False}):
        numpy.random.seed(1)
        it = ch.iterators.SerialIterator(_data(5), 2, **kwargs)
        it.next()
        s = ch.serializers.DictionarySerializer()
        it.serialize(s)
        out.append({k: v for k, v in s.target.items()})
    return out


def multithread_serialize_keys(c):
    ch = c.chainer
    out = []
    for kwargs in ({}, {'shuffle': False}):
        numpy.random.seed(1)
        it = ch.iterators.MultithreadIterator(_data(5), 2, **kwargs)
        it.next()
        s = ch.serializers.DictionarySerializer()
        out.append(attempt(lambda: it.serialize(s)))
        out.append({k: v for k, v in s.target.items()})
        it.finalize()
    return out


def multiprocess_serialize_keys(c):
    ch = c.chainer
    numpy.random.seed(1)
    it = ch.iterators.MultiprocessIterator(_data(5), 2, n_processes=1)
    it.next()
    s = ch.serializers.DictionarySerializer()
    it.serialize(s)
    it.finalize()
    return {k: v for k, v in s.target.items()}


def multiprocess_serialize_in_order(c):
    ch = c.chainer
    it = ch.iterators.MultiprocessIterator(_data(5), 2, n_processes=1, shuffle=False)
    it.next()
    s = ch.serializers.DictionarySerializer()
    out = [attempt(lambda: it.serialize(s)), {k: v for k, v in s.target.items()}]
    it.finalize()
    return out


def resume_mid_epoch(c):
    ch = c.chainer

    def make(cls, extra):
        numpy.random.seed(2)
        it = cls(_data(5), 2, **extra)
        first = _walk(it, 2)
        s = ch.serializers.DictionarySerializer()
        it.serialize(s)
        rest = _walk(it, 3)
        it.finalize()
        numpy.random.seed(99)
        again = cls(_data(5), 2, **extra)
        again.serialize(ch.serializers.NpzDeserializer(s.target))
        resumed = _walk(again, 3)
        again.finalize()
        return [first, rest, resumed, rest[:1] == resumed[:1]]

    return _each(c, make)


def resume_without_previous_epoch_detail(c):
    ch = c.chainer
    out = {}
    for steps in (0, 1, 3):
        for name, cls, extra in _kinds(c):
            if name == 'thread':
                continue
            numpy.random.seed(5)
            it = cls(_data(5), 2, **extra)
            _walk(it, steps)
            s = ch.serializers.DictionarySerializer()
            it.serialize(s)
            it.finalize()
            target = {k: v for k, v in s.target.items() if k != 'previous_epoch_detail'}
            again = cls(_data(5), 2, **extra)
            again.serialize(ch.serializers.NpzDeserializer(target))
            out['%s %d' % (name, steps)] = [
                again.previous_epoch_detail,
                again.epoch_detail,
                _walk(again, 1),
            ]
            again.finalize()
    return out


def resume_from_old_order_key(c):
    # a snapshot that names the order '_order' (Chainer before v5) loads
    ch = c.chainer
    numpy.random.seed(3)
    it = ch.iterators.SerialIterator(_data(5), 2)
    it.next()
    target = {
        'current_position': numpy.asarray(2),
        'epoch': numpy.asarray(0),
        'is_new_epoch': numpy.asarray(False),
        '_order': numpy.array([4, 3, 2, 1, 0]),
        'previous_epoch_detail': numpy.asarray(0.0),
    }
    it.serialize(ch.serializers.NpzDeserializer(target))
    return _walk(it, 3)


def reset_midway(c):
    def make(cls, extra):
        numpy.random.seed(8)
        it = cls(_data(5), 2, **extra)
        first = _walk(it, 3)
        it.reset()
        after = [it.epoch, it.current_position, it.previous_epoch_detail]
        return _finalized(it, lambda it: [first, after, _walk(it, 3)])

    return _each(c, make)


def reset_no_repeat_after_stop(c):
    def make(cls, extra):
        it = cls(_data(3), 2, repeat=False, shuffle=False, **extra)
        first = _walk(it, 3)
        it.reset()
        return _finalized(it, lambda it: [first, _walk(it, 3)])

    return _each(c, make)


def python_iteration_and_context(c):
    def make(cls, extra):
        with cls(_data(5), 2, repeat=False, shuffle=False, **extra) as it:
            same = iter(it) is it
            batches = [[int(b) for b in batch] for batch in it]
        return [same, batches, it.epoch, it.is_new_epoch]

    return _each(c, make)


def attributes(c):
    its = c.chainer.iterators
    d = _data(4)
    s = its.SerialIterator(d, 2)
    t = its.MultithreadIterator(d, 2, n_threads=3, repeat=False)
    p = its.MultiprocessIterator(
        d, 2, n_processes=2, n_prefetch=0, shared_mem=64, dataset_timeout=None
    )
    out = [
        [s.batch_size, s.repeat, s.dataset is d, type(s.order_sampler).__name__],
        [t.batch_size, t.repeat, t.n_threads, t.dataset is d],
        [
            p.batch_size,
            p.repeat,
            p.shuffle,
            p.n_processes,
            p.n_prefetch,
            p.shared_mem,
            p.dataset_timeout,
            issubclass(p.TimeoutWarning, RuntimeWarning),
        ],
        its.SerialIterator(d, 2, shuffle=False).order_sampler,
        attempt(lambda: setattr(s, 'repeat', False)),
        [s.epoch_detail, s.previous_epoch_detail, s.current_position],
    ]
    t.finalize()
    p.finalize()
    return out


def attributes_set_later(c):
    def rotate(order, position):
        return numpy.roll(order, 2)

    def make(cls, extra):
        it = cls(_data(5), 2, shuffle=False, **extra)
        out = [_walk(it, 1)]
        for name, value in (('batch_size', 3), ('order_sampler', rotate)):
            out.append(attempt(lambda: setattr(it, name, value)))
        out.append(_walk(it, 4))
        it.finalize()
        return out

    return _each(c, make, skip=('process',))


def order_sampler_set_later(c):
    def rotate(order, position):
        return numpy.roll(order, 2)

    def make(cls, extra):
        numpy.random.seed(6)
        it = cls(_data(5), 2, **extra)
        out = [_walk(it, 1)]
        it.order_sampler = rotate
        out.append(_walk(it, 5))
        it.finalize()
        return out

    return _each(c, make, skip=('process',))


def base_iterator(c):
    Iterator = c.chainer.dataset.Iterator
    it = Iterator()
    out = [
        attempt(lambda: it.next()),
        attempt(lambda: next(it)),
        iter(it) is it,
        it.serialize(c.chainer.serializers.DictionarySerializer()),
        it.finalize(),
    ]
    with Iterator() as entered:
        out.append(type(entered).__name__)
    return out


def multiprocess_dict_and_shared_memory(c):
    its = c.chainer.iterators
    data = [
        {'x': numpy.full(3, i, numpy.float32), 'y': numpy.int64(i)} for i in range(4)
    ]
    out = []
    for shared_mem in (None, 1 << 10):
        it = its.MultiprocessIterator(
            data, 3, repeat=False, shuffle=False, n_processes=2, shared_mem=shared_mem
        )
        out.append(
            _finalized(
                it,
                lambda it: [
                    [sorted(b) for b in batch]
                    + [[str(b['x'].dtype), float(b['x'].sum())] for b in batch]
                    for batch in it
                ],
            )
        )
    return out


def finalized_multiprocess(c):
    its = c.chainer.iterators
    it = its.MultiprocessIterator(_data(4), 2, n_processes=1)
    it.next()
    it.finalize()
    it.finalize()
    return [attempt(lambda: it.reset()), it.epoch, it.current_position]


def copy_of_multiprocess(c):
    import copy

    def rotate(order, position):
        return numpy.roll(order, 1)

    its = c.chainer.iterators
    it = its.MultiprocessIterator(_data(5), 2, n_processes=1, order_sampler=rotate)
    first = _walk(it, 2)
    other = copy.copy(it)
    out = [first, _walk(other, 3), _walk(it, 3), other.order_sampler is rotate]
    it.finalize()
    other.finalize()
    return out


def _rotate(order, position):
    # an order sampler that pickles (by name)
    return numpy.roll(order, 1)


def _copied_and_pickled(cls):
    import copy
    import pickle

    it = cls(_data(5), 2, order_sampler=_rotate)
    _walk(it, 2)
    twin = copy.copy(it)
    clone = attempt(lambda: pickle.loads(pickle.dumps(it)))
    out = [_walk(it, 2), _walk(twin, 2)]
    if clone[0] == 'ok':
        clone = pickle.loads(pickle.dumps(twin))
        out.append(_walk(clone, 2))
        clone.finalize()
    else:
        out.append(clone)
    it.finalize()
    twin.finalize()
    return out


def copies_and_pickles(c):
    return _copied_and_pickled(c.chainer.iterators.SerialIterator)


def copies_and_pickles_of_a_started_multithread_iterator(c):
    return _copied_and_pickled(c.chainer.iterators.MultithreadIterator)


def resume_from_mismatched_snapshots(c):
    ch = c.chainer
    out = []
    plain = ch.iterators.SerialIterator(_data(5), 2, shuffle=False)
    plain.next()
    s = ch.serializers.DictionarySerializer()
    plain.serialize(s)
    shuffled = ch.iterators.SerialIterator(_data(5), 2)
    out.append(
        attempt(lambda: shuffled.serialize(ch.serializers.NpzDeserializer(s.target)))
    )
    numpy.random.seed(2)
    shuffled = ch.iterators.SerialIterator(_data(5), 2)
    shuffled.next()
    t = ch.serializers.DictionarySerializer()
    shuffled.serialize(t)
    again = ch.iterators.SerialIterator(_data(5), 2, shuffle=False)
    out.append(
        attempt(lambda: again.serialize(ch.serializers.NpzDeserializer(t.target)))
    )
    out.append(_walk(again, 3))
    types = {
        k: [type(v).__name__, str(getattr(v, 'dtype', ''))] for k, v in t.target.items()
    }
    out.append(types)
    loaded = ch.iterators.SerialIterator(_data(5), 2)
    loaded.serialize(ch.serializers.NpzDeserializer(t.target))
    out.append(
        [
            type(loaded.epoch).__name__,
            type(loaded.current_position).__name__,
            type(loaded.is_new_epoch).__name__,
            type(loaded.previous_epoch_detail).__name__,
        ]
    )
    return out


class _Pipeline(object):
    # the members of a DALI pipeline DaliIterator uses
    def __init__(self, batch_size, size):
        self.batch_size = batch_size
        self.size = size
        self.calls = []

    def build(self):
        self.calls.append('build')

    def epoch_size(self):
        self.calls.append('epoch_size')
        return {'reader': self.size}

    def run(self):
        self.calls.append('run')
        return len(self.calls)


def _dali_walk(it, steps):
    # the pipeline's run count stands for the batch
    return data._walk(it, steps, lambda batch: batch, True)


def dali_iterator_walks(c):
    D = c.chainer.iterators.DaliIterator
    out = []
    for batch_size, size, repeat in (
        (3, 7, True),
        (3, 7, False),
        (5, 2, True),
        (4, 8, False),
    ):
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter('always')
            pipe = _Pipeline(batch_size, size)
            it = D(pipe, repeat=repeat)
        before = [
            it.epoch,
            it.current_position,
            it.epoch_size,
            it.batch_size,
            it.repeat,
        ]
        out.append(
            [[w.category.__name__ for w in seen], before, _dali_walk(it, 5), pipe.calls]
        )
        it.reset()
        out.append([it.epoch, it.current_position, it.previous_epoch_detail])
    return out


def dali_iterator_serialized(c):
    ch = c.chainer
    D = ch.iterators.DaliIterator
    it = D(_Pipeline(3, 7))
    _dali_walk(it, 2)
    s = ch.serializers.DictionarySerializer()
    it.serialize(s)
    again = D(_Pipeline(3, 7))
    again.serialize(ch.serializers.NpzDeserializer(s.target))
    old = {k: v for k, v in s.target.items() if k != 'previous_epoch_detail'}
    older = D(_Pipeline(3, 7))
    loaded_old = attempt(lambda: older.serialize(ch.serializers.NpzDeserializer(old)))
    return [
        {k: v for k, v in s.target.items()},
        [again.epoch, again.current_position, again.previous_epoch_detail],
        _dali_walk(again, 2),
        loaded_old,
        [older.epoch, older.current_position, older.previous_epoch_detail],
    ]


PROBES = _values.probes(globals(), __name__)
