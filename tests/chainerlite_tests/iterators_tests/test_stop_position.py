"""Where the differential harness (tools/diff_chainer) found the iterators
unlike Chainer 7.8.1: the call that stops an iterator without repeat moves
``previous_epoch_detail`` to the end of the epoch (nothing else moves), and
MultithreadIterator's snapshot holds its order under ``_order``."""

import pytest

from chainerlite import iterators
from chainerlite import serializers

_ITERATORS = {
    'serial': (iterators.SerialIterator, {}),
    'thread': (iterators.MultithreadIterator, {}),
    'process': (iterators.MultiprocessIterator, {'n_processes': 1}),
}


@pytest.mark.parametrize('kind', sorted(_ITERATORS))
def test_stopping_call_sets_previous_epoch_detail(kind):
    cls, options = _ITERATORS[kind]
    it = cls([0, 1, 2], 2, repeat=False, shuffle=False, **options)
    try:
        it.next()
        it.next()
        assert it.previous_epoch_detail == pytest.approx(2 / 3)
        for _ in range(2):
            with pytest.raises(StopIteration):
                it.next()
            state = (it.epoch, it.epoch_detail, it.previous_epoch_detail)
            assert state == (1, 1.0, 1.0)
            assert (it.is_new_epoch, it.current_position) == (True, 0)
        saved = {}
        it.serialize(serializers.DictionarySerializer(saved))
        assert float(saved['previous_epoch_detail']) == 1.0
    finally:
        it.finalize()


@pytest.mark.parametrize('kind', sorted(_ITERATORS))
def test_order_key_of_the_snapshot_is_chainers(kind):
    cls, options = _ITERATORS[kind]
    key, other = ('_order', 'order') if kind == 'thread' else ('order', '_order')
    it = cls(list(range(5)), 2, shuffle=True, **options)
    fresh = cls(list(range(5)), 2, shuffle=True, **options)
    try:
        it.next()
        saved = {}
        it.serialize(serializers.DictionarySerializer(saved))
        assert key in saved and other not in saved
        # a snapshot that has the order under the other key loads too
        saved[other] = saved.pop(key)
        order = saved[other].tolist()
        fresh.serialize(serializers.NpzDeserializer(saved))
        assert fresh.current_position == 2
        rest = [i for _ in range(2) for i in fresh.next()]
        assert rest[:3] == order[2:]  # the loaded order goes on
    finally:
        it.finalize()
        fresh.finalize()
