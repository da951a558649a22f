"""A snapshot is untrusted: values that make no sense (an order that is not
a permutation, a position outside the epoch, negative counts) are refused
with a ValueError naming the key, and nothing at all is loaded."""

import io

import numpy as np
import pytest

from chainerlite import functions as F
from chainerlite import iterators
from chainerlite import links as L
from chainerlite import optimizers
from chainerlite import serializers
from chainerlite import training
from chainerlite.training import extensions


def _state(obj):
    return serializers.npz.serialize(obj)


def _iterator(kind, shuffle=True, order_sampler=None):
    data = list(range(5))
    if order_sampler is not None:
        shuffle = None
    if kind == 'serial':
        return iterators.SerialIterator(
            data, 2, shuffle=shuffle, order_sampler=order_sampler
        )
    return iterators.MultithreadIterator(
        data, 2, shuffle=shuffle, order_sampler=order_sampler, n_threads=1
    )


def _where(it):
    order = None if it._order is None else it._order.copy()
    return it.current_position, it.epoch, it.is_new_epoch, order


BAD_POSITIONS = [
    ('epoch', -1, 'an integer >= 0'),
    ('current_position', -1, 'from 0 to 4'),
    ('current_position', 5, 'from 0 to 4'),
    ('order', [0, 0, 1, 2, 3], 'a permutation of range'),
    ('order', [0, 1, 2, 3, 7], 'a permutation of range'),
    ('order', [0, 1, 2, 3, -4], 'a permutation of range'),
    ('previous_epoch_detail', np.nan, 'not past the loaded epoch_detail'),
    ('previous_epoch_detail', 7.5, 'not past the loaded epoch_detail'),
]


@pytest.mark.parametrize('kind', ['serial', 'multithread'])
@pytest.mark.parametrize('key, value, message', BAD_POSITIONS)
def test_an_iterator_refuses_a_position_that_makes_no_sense(kind, key, value, message):
    source = _iterator(kind)
    source.next(), source.next()
    state = _state(source)
    state[key] = np.asarray(value)
    target = _iterator(kind)
    target.next()
    before = _where(target)
    with pytest.raises(ValueError, match="key '{}' must be .*{}".format(key, message)):
        serializers.NpzDeserializer(state).load(target)
    after = _where(target)
    assert after[:3] == before[:3]
    np.testing.assert_array_equal(after[3], before[3])
    target.finalize()


def test_an_order_of_an_older_chainer_is_checked_too():
    source = _iterator('serial')
    state = _state(source)
    state['_order'] = np.array([4, 4, 4, 4, 4])
    del state['order']
    with pytest.raises(ValueError, match="key '_order' must be a permutation"):
        serializers.NpzDeserializer(state).load(_iterator('serial'))
    state['_order'] = np.array([4, 3, 2, 1, 0])
    target = _iterator('serial')
    serializers.NpzDeserializer(state).load(target)
    assert target._order.tolist() == [4, 3, 2, 1, 0]


class _Oversample(iterators.OrderSampler):
    # an order that repeats examples: not a permutation, and valid
    def __call__(self, current_order, current_position):
        return np.array([0, 0, 1, 1, 2, 3, 4])


def test_a_custom_order_sampler_may_repeat_examples_but_not_leave_the_dataset():
    source = _iterator('serial', order_sampler=_Oversample())
    source.next()
    state = _state(source)
    target = _iterator('serial', order_sampler=_Oversample())
    serializers.NpzDeserializer(state).load(target)
    assert target.current_position == 2
    state['order'] = np.array([0, 0, 1, 1, 2, 3, 5])
    with pytest.raises(ValueError, match="key 'order' must be indexes of the dataset"):
        serializers.NpzDeserializer(state).load(target)
    state['order'] = np.array([0, 0, 1, 1, 2, 3, 4])
    state['current_position'] = np.array(7)  # the epoch has 7 examples
    with pytest.raises(ValueError, match='from 0 to 6'):
        serializers.NpzDeserializer(state).load(target)


def test_without_shuffle_no_order_is_read_and_the_dataset_length_bounds():
    source = _iterator('serial', shuffle=False)
    state = _state(source)
    state['order'] = np.array([9, 9])  # ignored: the iterator has no order
    state['current_position'] = np.array(4)
    target = _iterator('serial', shuffle=False)
    serializers.NpzDeserializer(state).load(target)
    assert target.current_position == 4 and target._order is None


def _trainer(out, iterator=None):
    model = _Model()
    optimizer = optimizers.MomentumSGD(lr=0.1)
    optimizer.setup(model)
    iterator = iterator or iterators.SerialIterator(_data(), 3)
    updater = training.updaters.StandardUpdater(iterator, optimizer)
    trainer = training.Trainer(updater, (4, 'iteration'), out=str(out))
    trainer.extend(extensions.LogReport(trigger=(1, 'iteration')))
    trainer.extend(extensions.ExponentialShift('lr', 0.5), trigger=(1, 'iteration'))
    return trainer, model, optimizer


def _data():
    rng = np.random.RandomState(0)
    x = rng.uniform(-1, 1, (8, 3)).astype(np.float32)
    return [(x[i], np.float32(x[i].sum())) for i in range(8)]


class _Model(L.Linear):
    def __init__(self):
        super().__init__(3, 1, initialW=np.full((1, 3), 0.25, np.float32))

    def forward(self, x, t):
        return F.mean_squared_error(super().forward(x)[:, 0], t)


BAD_TRAINER_VALUES = [
    ('updater/iterator:main/order', [0, 1, 2, 3, 4, 5, 6, 6], 'permutation'),
    ('updater/iterator:main/epoch', -2, 'an integer >= 0'),
    ('updater/iteration', -1, 'an integer >= 0'),
    ('updater/optimizer:main/t', -3, 'an integer >= 0'),
    ('updater/optimizer:main/epoch', -1, 'an integer >= 0'),
    ('updater/optimizer:main/W/t', -1, 'an integer >= 0'),
    ('extensions/ExponentialShift/_t', -4, 'an integer >= 0'),
    ('extension_triggers/LogReport/previous_iteration', -5, 'an integer >= -1'),
    ('extension_triggers/LogReport/previous_epoch_detail', np.inf, 'finite'),
    ('extensions/LogReport/_log', '{"not": "a list"}', 'JSON text of a list'),
    ('extensions/LogReport/_log', '[{"unclosed"', 'JSON text of a list'),
]


@pytest.mark.parametrize('key, value, message', BAD_TRAINER_VALUES)
def test_a_trainer_snapshot_with_a_bad_value_loads_nothing(
    tmp_path, key, value, message
):
    trainer, _, _ = _trainer(tmp_path / 'a')
    trainer.run()
    state = _state(trainer)
    assert key in state
    state[key] = np.asarray(value)
    buf = io.BytesIO()
    np.savez(buf, **state)

    fresh, model, optimizer = _trainer(tmp_path / 'b')
    before = (model.W.array.copy(), optimizer.t, optimizer.lr, fresh.updater.iteration)
    with pytest.raises(ValueError, match="key '{}' must be .*{}".format(key, message)):
        buf.seek(0)
        serializers.load_npz(buf, fresh)
    np.testing.assert_array_equal(model.W.array, before[0])
    assert (optimizer.t, optimizer.lr, fresh.updater.iteration) == before[1:]
    assert fresh.updater.get_iterator('main').current_position == 0

    state[key] = _state(trainer)[key]  # the same snapshot, mended, loads
    buf = io.BytesIO()
    np.savez(buf, **state)
    buf.seek(0)
    serializers.load_npz(buf, fresh)
    assert fresh.updater.iteration == 4
