"""Datasets, iterators and converters: orders under a seed, epochs, padding."""

import numpy

from tools.surface_probes import _values


def _data(n=7):
    return [(numpy.full(2, i, numpy.float32), numpy.int32(i)) for i in range(n)]


def _labels(batch):
    return [int(example[1]) for example in batch]


def _walk(it, steps, labels=_labels, position=False):
    # each batch's labels and where the iterator stands after it
    out = []
    for _ in range(steps):
        try:
            batch = it.next()
        except StopIteration:
            out.append('stop')
            break
        out.append(
            [
                labels(batch),
                it.epoch,
                round(it.epoch_detail, 4),
                it.is_new_epoch,
                it.previous_epoch_detail,
            ]
            + ([it.current_position] if position else [])
        )
    return out


def serial_shuffled(c):
    numpy.random.seed(3)
    return _walk(c.chainer.iterators.SerialIterator(_data(), 3), 6)


def serial_in_order_no_repeat(c):
    it = c.chainer.iterators.SerialIterator(_data(), 3, repeat=False, shuffle=False)
    return _walk(it, 5)


def serial_reset_and_order_sampler(c):
    it = c.chainer.iterators.SerialIterator(
        _data(),
        4,
        order_sampler=c.chainer.iterators.ShuffleOrderSampler(
            numpy.random.RandomState(5)
        ),
    )
    first = _walk(it, 3)
    it.reset()
    return first, _walk(it, 2)


def serial_serialized_midway(c):
    numpy.random.seed(4)
    it = c.chainer.iterators.SerialIterator(_data(), 3)
    _walk(it, 2)
    s = c.chainer.serializers.DictionarySerializer()
    it.serialize(s)
    numpy.random.seed(9)
    again = c.chainer.iterators.SerialIterator(_data(), 3)
    again.serialize(c.chainer.serializers.NpzDeserializer(s.target))
    return sorted(s.target), _walk(again, 3)


def multithread_in_order(c):
    it = c.chainer.iterators.MultithreadIterator(
        _data(), 3, repeat=False, shuffle=False, n_threads=2
    )
    out = _walk(it, 4)
    it.finalize()
    return out


def concat_examples(c):
    conv = c.chainer.dataset.concat_examples
    ragged = [(numpy.arange(n, dtype=numpy.float32), numpy.int32(n)) for n in (1, 3, 2)]
    dicts = [{'a': numpy.ones(2, numpy.float32) * i, 'b': i} for i in range(3)]
    return (
        conv(_data(3)),
        conv(ragged, padding=-1),
        conv(ragged, padding=(0, -5)),
        conv(dicts),
        conv([numpy.ones(2), numpy.zeros(2)]),
    )


def tuple_and_dict_datasets(c):
    D = c.chainer.datasets
    t = D.TupleDataset(numpy.arange(5), numpy.arange(5) * 2)
    d = D.DictDataset(x=numpy.arange(5), y=numpy.arange(5) * 2)
    return len(t), t[1], t[1:3], len(d), d[2], d[1:3]


def splits(c):
    D = c.chainer.datasets
    base = list(range(10))
    a, b = D.split_dataset(base, 4)
    r1, r2 = D.split_dataset_random(base, 6, seed=2)
    folds = D.get_cross_validation_datasets_random(base, 3, seed=1)
    return list(a), list(b), list(r1), list(r2), [(list(x), list(y)) for x, y in folds]


def sub_concat_transform(c):
    D = c.chainer.datasets
    sub = D.SubDataset(list(range(10)), 2, 6, order=numpy.arange(10)[::-1])
    cat = D.ConcatenatedDataset([1, 2], [3])
    tr = D.TransformDataset(list(range(4)), lambda v: v * 10)
    return list(sub), list(cat), len(cat), list(tr), tr[1:3]


PROBES = _values.probes(globals(), __name__)
