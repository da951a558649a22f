"""Runner for the in-memory parts of ``chainer.datasets``: the examples,
lengths and slices of the same datasets and splits (seeded ones with the
same seed) built from generated base datasets."""

import numpy
from hypothesis import strategies as st

from tools.diff_chainer import pair
from tools.diff_chainer import strategies as S

NOT_COVERED = {
    'get_cifar10': 'downloads a data set',
    'get_cifar100': 'downloads a data set',
    'get_fashion_mnist': 'downloads a data set',
    'get_fashion_mnist_labels': 'a fixed list; no generated input',
    'get_kuzushiji_mnist': 'downloads a data set',
    'get_kuzushiji_mnist_labels': 'a fixed list; no generated input',
    'get_mnist': 'downloads a data set',
    'get_ptb_words': 'downloads a data set',
    'get_ptb_words_vocabulary': 'downloads a data set',
    'get_svhn': 'downloads a data set',
}


def _examples(dataset):
    """Every example, the length and a slice with a step."""
    return {
        'items': [dataset[i] for i in range(len(dataset))],
        'len': len(dataset),
        'slice': dataset[::2] if len(dataset) else [],
    }


def _splits(parts):
    return [_examples(p) for p in parts]


# name -> function(lib, base arrays, n, draw-independent ints) giving a result
def _cases(lib, arrays, k, seed):
    D = lib.datasets
    a, b = arrays
    order = numpy.random.RandomState(seed).permutation(len(a))
    return {
        'TupleDataset': lambda: _examples(D.TupleDataset(a, b)),
        'DictDataset': lambda: _examples(D.DictDataset(x=a, y=b)),
        'SubDataset': lambda: _examples(D.SubDataset(a, k // 2, k, order)),
        'ConcatenatedDataset': lambda: _examples(D.ConcatenatedDataset(a, b)),
        'TransformDataset': lambda: _examples(D.TransformDataset(a, lambda x: x * 2)),
        'split_dataset': lambda: _splits(D.split_dataset(a, k, order)),
        'split_dataset_random': lambda: _splits(D.split_dataset_random(a, k, seed)),
        'split_dataset_n': lambda: _splits(D.split_dataset_n(a, max(k, 1), order)),
        'split_dataset_n_random': lambda: _splits(
            D.split_dataset_n_random(a, max(k, 1), seed)
        ),
        'get_cross_validation_datasets': lambda: [
            _splits(pair_)
            for pair_ in D.get_cross_validation_datasets(a, max(k, 1), order)
        ],
        'get_cross_validation_datasets_random': lambda: [
            _splits(pair_)
            for pair_ in D.get_cross_validation_datasets_random(a, max(k, 1), seed)
        ],
    }


def run(qualified, libs, tally, examples, seconds):
    name = qualified.rpartition('.')[2]
    if name in NOT_COVERED:
        return NOT_COVERED[name]
    if name not in _cases(libs[0], (numpy.zeros(0), numpy.zeros(0)), 0, 0):
        return 'reads files or takes a reader or writer; no runner builds one yet'

    def draw_case(data):
        n = data.draw(st.integers(0, 7))
        k = data.draw(st.integers(-1, n + 1))
        seed = data.draw(S.seeds)
        a = S.make_array(seed, (n, 2), numpy.float32)
        b = numpy.arange(n, dtype=numpy.int32)

        def stage(lib, s):
            return _cases(lib, (a, b), k, seed)[name]()

        pair.run_case(libs, [('examples', stage)], tally, f'{name} n={n} k={k}')

    pair.explore(draw_case, examples, seconds)
