"""The call that stops an iterator without repeat moves
``previous_epoch_detail`` to the end of the epoch, as Chainer 7.8.1 does
(found by the differential harness, tools/diff_chainer); nothing else moves."""

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
