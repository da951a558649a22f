"""Runner for ``chainer.iterators``: the batches, epoch counters and
serialized state of the same iterator over the same dataset under the same
NumPy seed.

Where Chainer's ``MultiprocessIterator`` fails to serialize (without
shuffling its order is None, which it copies), the reference is Chainer's
``SerialIterator`` over the same dataset, seed and arguments after the same
batches: the two save the same keys and values wherever both answer.
"""

import numpy
from hypothesis import strategies as st

from tools.diff_chainer import compare
from tools.diff_chainer import pair
from tools.diff_chainer import references
from tools.diff_chainer import strategies as S

NOT_COVERED = {
    'DaliIterator': 'needs NVIDIA DALI and a GPU',
    'OrderSampler': 'the abstract base class',
}
MAX_BATCHES = 12


def run(qualified, libs, tally, examples, seconds):
    name = qualified.rpartition('.')[2]
    if name in NOT_COVERED:
        return NOT_COVERED[name]
    examples = min(examples, 20) if name == 'MultiprocessIterator' else examples

    def draw_case(data):
        n = data.draw(st.integers(1, 7))
        batch_size = data.draw(st.integers(1, 4))
        repeat = data.draw(st.booleans())
        shuffle = data.draw(st.sampled_from([None, True, False]))
        seed = data.draw(S.seeds)
        label = (
            f'{name} n={n} batch_size={batch_size} repeat={repeat} shuffle={shuffle}'
        )
        if name == 'ShuffleOrderSampler':
            stages = [('order', lambda lib, s: _order(lib, seed, n))]
        else:
            stages = [
                (
                    'batches',
                    lambda lib, s: _batches(
                        lib, s, name, seed, n, batch_size, repeat, shuffle
                    ),
                )
            ]
            stages.append(('serialize', _serialized))
        makers = None
        if name == 'MultiprocessIterator':
            args = (seed, n, batch_size, repeat, shuffle)
            makers = {'serialize': _as_serial_iterator(args)}
        pair.run_case(libs, stages, tally, label, makers)

    pair.explore(draw_case, examples, seconds)


def _order(lib, seed, n):
    sampler = lib.iterators.ShuffleOrderSampler(numpy.random.RandomState(seed))
    return sampler(numpy.arange(n), 0)


def _batches(lib, s, name, seed, n, batch_size, repeat, shuffle):
    numpy.random.seed(seed)
    kwargs = {'n_processes': 1} if name == 'MultiprocessIterator' else {}
    it = getattr(lib.iterators, name)(
        list(range(n)), batch_size, repeat, shuffle, **kwargs
    )
    s['it'] = it
    out = []
    try:
        for _ in range(MAX_BATCHES):
            batch = it.next()
            out.append(
                (batch, it.epoch, it.is_new_epoch, it.epoch_detail, it.current_position)
            )
    except StopIteration:
        out.append('StopIteration')
    except Exception:
        it.finalize()  # MultiprocessIterator's workers
        raise
    return out


def _serialized(lib, s):
    try:
        return pair.serialized('it')(lib, s)
    finally:
        s['it'].finalize()


def _as_serial_iterator(args):
    """The reference maker of a ``MultiprocessIterator`` case's serialized
    state where Chainer raised: Chainer's ``SerialIterator`` run alike."""

    def make(libs, scratch, outcomes):
        if not outcomes[0].raised:
            return None
        s = {}
        batches = compare.run(lambda: _batches(libs[0], s, 'SerialIterator', *args))
        if batches.raised:
            return None
        saved = compare.run(lambda: _serialized(libs[0], s))
        return None if saved.raised else references.Reference(saved.value)

    return make
