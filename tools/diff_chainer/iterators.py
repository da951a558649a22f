"""Runner for ``chainer.iterators``: the batches, epoch counters and
serialized state of the same iterator over the same dataset under the same
NumPy seed."""

import numpy
from hypothesis import strategies as st

from tools.diff_chainer import pair
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
        pair.run_case(libs, stages, tally, label)

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
