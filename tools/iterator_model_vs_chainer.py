"""Checks the iterator model of the tests against Chainer 7.8.1.

Run it with a Python where Chainer is installed (not chainerlite's):
``python tools/iterator_model_vs_chainer.py serial thread process``. It
compares the batches, ``epoch``, ``epoch_detail``, ``is_new_epoch``,
``previous_epoch_detail`` and ``current_position`` of Chainer's iterators
with tests/chainerlite_tests/iterators_tests/_reference_positions.py over
dataset lengths, batch sizes (up to several times the length), repeat,
and orders (none, ShuffleOrderSampler, permutations, draws of another
epoch size).
"""

import importlib.util
import itertools
import os
import sys
import warnings

import numpy
from chainer import iterators

_MODEL = os.path.join(
    os.path.dirname(os.path.abspath(__file__)),
    '..',
    'tests',
    'chainerlite_tests',
    'iterators_tests',
    '_reference_positions.py',
)
_CLASSES = {
    'serial': (iterators.SerialIterator, {}),
    'thread': (iterators.MultithreadIterator, {'n_threads': 2}),
    'process': (iterators.MultiprocessIterator, {'n_processes': 2}),
}


def main(kinds):
    spec = importlib.util.spec_from_file_location('_reference_positions', _MODEL)
    model = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(model)
    warnings.simplefilter('ignore')
    checked = 0
    for kind in kinds:
        cls, options = _CLASSES[kind]
        for n, b, repeat, mode in itertools.product(
            [1, 2, 3, 5, 7],
            [1, 2, 3, 4, 5, 7, 11, 16, 23],
            [True, False],
            ['none', 'shuffle', 'permute', 'draw'],
        ):

            def sampler():
                if mode == 'shuffle':
                    return iterators.ShuffleOrderSampler(numpy.random.RandomState(5))
                size = n if mode == 'permute' else n + 2
                return model.StatelessSampler(size, n, mode == 'permute')

            if mode == 'none':
                expected = model.expected_batches(n, b, repeat, None, 9)
                it = cls(list(range(n)), b, repeat, shuffle=False, **options)
            else:
                expected = model.expected_batches(n, b, repeat, sampler(), 9)
                it = cls(list(range(n)), b, repeat, order_sampler=sampler(), **options)
            got = model.observe(it, 9)
            if hasattr(it, 'finalize'):
                it.finalize()
            if got != expected:
                print('differs:', kind, n, b, repeat, mode)
                print(' Chainer:', got)
                print(' model:  ', expected)
                return 1
            checked += 1
    print('Chainer and the model agree on', checked, 'cases')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:] or ['serial']))
