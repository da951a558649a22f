import numpy
import pytest

from chainerlite import iterators
from chainerlite import serializers


def test_epochs_and_wrapping_batches():
    it = iterators.SerialIterator([1, 2, 3, 4, 5], 2, shuffle=False)
    assert it.previous_epoch_detail is None
    assert [it.next() for _ in range(3)] == [[1, 2], [3, 4], [5, 1]]
    assert it.epoch == 1 and it.is_new_epoch
    assert it.epoch_detail == pytest.approx(6 / 5)
    assert it.previous_epoch_detail == pytest.approx(4 / 5)


def test_without_repeat_the_last_batch_is_short_then_stop():
    it = iterators.SerialIterator([1, 2, 3], 2, repeat=False, shuffle=False)
    assert list(it) == [[1, 2], [3]]
    with pytest.raises(StopIteration):
        it.next()
    it.reset()
    assert it.next() == [1, 2] and it.epoch == 0


def test_shuffle_visits_every_example_once_per_epoch():
    it = iterators.SerialIterator(list(range(10)), 5)
    first = it.next() + it.next()
    second = it.next() + it.next()
    assert sorted(first) == sorted(second) == list(range(10))
    assert first != second


def test_order_sampler_sets_the_epoch_size():
    sampler = lambda order, pos: numpy.array([0, 0, 1, 1])  # NOQA
    it = iterators.SerialIterator(['a', 'b'], 3, order_sampler=sampler)
    assert it.next() == ['a', 'a', 'b']
    assert it.epoch_detail == pytest.approx(0.75)


def test_argument_errors():
    with pytest.raises(ValueError, match='shuffle'):
        iterators.SerialIterator(
            [1], 1, shuffle=True, order_sampler=iterators.ShuffleOrderSampler()
        )
    with pytest.raises(ValueError, match='empty'):
        iterators.SerialIterator([], 1)
    with pytest.raises(ValueError, match='batch_size'):
        iterators.SerialIterator([1], 0)
    it = iterators.SerialIterator(
        [1, 2], 3, order_sampler=lambda order, pos: numpy.arange(len(order) + 1)
    )
    with pytest.raises(ValueError, match='order sampler'):
        it.next()


def test_resume_mid_epoch_from_a_snapshot():
    it = iterators.SerialIterator(list(range(6)), 2)
    seen = it.next() + it.next()
    target = {}
    it.serialize(serializers.DictionarySerializer(target))
    resumed = iterators.SerialIterator(list(range(6)), 2)
    resumed.serialize(serializers.NpzDeserializer(target))
    assert resumed.epoch_detail == pytest.approx(4 / 6)
    assert resumed.previous_epoch_detail == pytest.approx(2 / 6)
    assert sorted(seen + resumed.next()) == list(range(6))
    assert resumed.is_new_epoch


def test_shuffle_order_sampler_uses_its_random_state():
    a = iterators.ShuffleOrderSampler(numpy.random.RandomState(1))
    b = iterators.ShuffleOrderSampler(numpy.random.RandomState(1))
    order = numpy.arange(8)
    numpy.testing.assert_array_equal(a(order, 0), b(order, 0))
    assert sorted(a(order, 0)) == list(range(8))


def test_copies_move_independently():
    import copy

    it = iterators.SerialIterator([1, 2, 3, 4], 2, shuffle=False)
    it.next()
    other = copy.copy(it)
    other.reset()
    assert it.epoch_detail == pytest.approx(0.5)
    assert other.epoch_detail == 0 and other.next() == [1, 2]
    assert it.next() == [3, 4]


def test_order_is_loaded_in_place_and_copies_keep_theirs():
    import copy

    it = iterators.SerialIterator(list(range(6)), 2, shuffle=True)
    it.next()
    other = copy.copy(it)
    before = other._order.copy()
    saved = {}
    it.serialize(serializers.DictionarySerializer(saved))
    order = it._order
    assert saved['order'] is order
    saved['order'] = numpy.roll(saved['order'].copy(), 1)
    it.serialize(serializers.NpzDeserializer(saved))
    assert it._order is order
    numpy.testing.assert_array_equal(order, saved['order'])
    numpy.testing.assert_array_equal(other._order, before)


def test_state_tells_where_the_iterator_stands():
    it = iterators.SerialIterator(list(range(4)), 3, shuffle=True)
    it.next()
    state = it._state
    assert (state.current_position, state.epoch, state.is_new_epoch) == (3, 0, False)
    assert state.order is it._order


@pytest.mark.parametrize(
    'make',
    [
        lambda sampler: iterators.SerialIterator(list('abc'), 2, order_sampler=sampler),
        lambda sampler: iterators.MultithreadIterator(
            list('abc'), 2, order_sampler=sampler, n_threads=2
        ),
    ],
)
def test_an_order_sampler_returning_none_keeps_the_dataset_order(make):
    calls = []

    def sampler(order, position):
        calls.append(position)
        return None

    it = make(sampler)
    batches = [it.next() for _ in range(3)]
    assert batches == [['a', 'b'], ['c', 'a'], ['b', 'c']]
    assert it.epoch == 2 and it.epoch_detail == pytest.approx(2.0)
    # asked once, for the first epoch; an order of None is never reshuffled
    assert calls == [0]
    if hasattr(it, 'finalize'):
        it.finalize()


@pytest.mark.parametrize(
    'cls, options',
    [(iterators.SerialIterator, {}), (iterators.MultithreadIterator, {'n_threads': 2})],
    ids=['serial', 'thread'],
)
def test_batch_size_and_order_sampler_set_later(cls, options):
    # as Chainer's attributes: read for each batch chosen from then on (the
    # thread iterator's batch already loading keeps its size)
    with cls(list(range(5)), 2, shuffle=False, **options) as it:
        assert it.next() == [0, 1]
        it.batch_size = 3
        assert it.batch_size == 3
        later = [it.next(), it.next()]
        if cls is iterators.MultithreadIterator:
            assert later == [[2, 3], [4, 0, 1]]
        else:
            assert later == [[2, 3, 4], [0, 1, 2]]
        with pytest.raises(ValueError, match='batch_size'):
            it.batch_size = 0
        with pytest.raises(TypeError, match='batch_size must be an integer'):
            it.batch_size = 2.0
        assert it.batch_size == 3
        it.batch_size = numpy.int64(2)
        assert type(it.batch_size) is int and it.batch_size == 2

    def rotate(order, position):
        return numpy.roll(order, 1)

    with cls(list(range(4)), 2, **options) as it:
        it.order_sampler = rotate
        assert it.order_sampler is rotate
        first = it.next() + it.next()
        assert it.next() + it.next() == list(numpy.roll(first, 1))


@pytest.mark.parametrize('size', [2.0, 1.5, '2', None])
def test_a_batch_size_not_a_whole_number_is_refused(size):
    # Chainer's iterators took it and failed at the first batch, slicing
    # with it (TypeError); here the constructor says which argument
    with pytest.raises(TypeError, match='batch_size must be an integer'):
        iterators.SerialIterator(list(range(5)), size)


def test_chainers_private_names():
    # code written for Chainer reads these
    it = iterators.SerialIterator([1, 2, 3], 2, shuffle=False)
    assert (it._repeat, it._shuffle, it._epoch_size) == (True, False, 3)
    assert it._previous_epoch_detail == -1.0
    it.next()
    assert it._previous_epoch_detail == 0.0
    it._previous_epoch_detail = 0.5
    assert it.previous_epoch_detail == 0.5
    it._previous_epoch_detail = -1.0
    assert it.previous_epoch_detail is None
