import numpy
import pytest

from chainerlite import iterators
from chainerlite import serializers

# (the iterator is experimental, as in Chainer: making one warns)
pytestmark = pytest.mark.filterwarnings(
    'ignore:DaliIterator is experimental:FutureWarning'
)


class FakePipeline:
    """DALI's pipeline interface over a fixed list of samples."""

    def __init__(self, n, batch_size, epoch_size=None):
        self.samples = numpy.arange(n)
        self.batch_size = batch_size
        self.built = 0
        self._epoch_size = {'reader': n} if epoch_size is None else epoch_size
        self._next = 0

    def build(self):
        self.built += 1

    def epoch_size(self):
        return self._epoch_size

    def run(self):
        idx = (self._next + numpy.arange(self.batch_size)) % len(self.samples)
        self._next += self.batch_size
        return (self.samples[idx],)


def test_epochs_and_positions():
    pipe = FakePipeline(6, 4)
    it = iterators.DaliIterator(pipe)
    assert pipe.built == 0 and it.previous_epoch_detail is None
    (batch,) = next(it)
    assert pipe.built == 1
    numpy.testing.assert_array_equal(batch, [0, 1, 2, 3])
    assert (it.epoch, it.current_position, it.is_new_epoch) == (0, 4, False)
    assert it.epoch_detail == pytest.approx(4 / 6)
    (batch,) = next(it)
    numpy.testing.assert_array_equal(batch, [4, 5, 0, 1])
    assert (it.epoch, it.current_position, it.is_new_epoch) == (1, 2, True)
    assert it.previous_epoch_detail == pytest.approx(4 / 6)
    next(it)
    assert pipe.built == 1


def test_no_repeat_stops_after_one_epoch():
    it = iterators.DaliIterator(FakePipeline(4, 2), repeat=False)
    assert len(list(it)) == 2
    assert not it.repeat


def test_serialize_round_trip(tmp_path):
    it = iterators.DaliIterator(FakePipeline(6, 4))
    next(it)
    next(it)
    path = str(tmp_path / 'it.npz')
    serializers.save_npz(path, it)
    other = iterators.DaliIterator(FakePipeline(6, 4))
    serializers.load_npz(path, other)
    assert (other.epoch, other.current_position, other.is_new_epoch) == (1, 2, True)
    assert other.previous_epoch_detail == pytest.approx(4 / 6)


@pytest.mark.parametrize('size', [{}, 0, {'reader': -1}])
def test_bad_epoch_size(size):
    it = iterators.DaliIterator(FakePipeline(4, 2, epoch_size=size))
    with pytest.raises(ValueError, match='DaliIterator'):
        next(it)


@pytest.mark.parametrize('key', ['epoch', 'current_position'])
def test_a_negative_position_in_a_snapshot_is_refused(key):
    it = iterators.DaliIterator(FakePipeline(6, 4))
    next(it)
    state = serializers.npz.serialize(it)
    state[key] = numpy.asarray(-1)
    other = iterators.DaliIterator(FakePipeline(6, 4))
    with pytest.raises(ValueError, match="DaliIterator.serialize: .*'{}'".format(key)):
        serializers.NpzDeserializer(state).load(other)
    assert (other.epoch, other.current_position) == (0, 0)


def test_experimental_warning():
    with pytest.warns(FutureWarning, match='DaliIterator is experimental'):
        iterators.DaliIterator(FakePipeline(4, 2))


def test_no_repeat_ends_at_position_zero():
    it = iterators.DaliIterator(FakePipeline(5, 3), repeat=False)
    next(it)
    next(it)
    assert (it.epoch, it.current_position, it.is_new_epoch) == (1, 0, True)
    assert it.epoch_detail == 1.0
    with pytest.raises(StopIteration):
        next(it)


def test_a_snapshot_without_previous_epoch_detail():
    # an older Chainer's snapshot: the value is inferred as Chainer does
    # (with the epoch size the unbuilt pipeline stands for, 1)
    target = {
        'current_position': numpy.asarray(6),
        'epoch': numpy.asarray(0),
        'is_new_epoch': numpy.asarray(False),
    }
    it = iterators.DaliIterator(FakePipeline(7, 3))
    it.serialize(serializers.NpzDeserializer(target))
    assert (it.current_position, it.previous_epoch_detail) == (6, 3.0)
    fresh = iterators.DaliIterator(FakePipeline(7, 3))
    target['current_position'] = numpy.asarray(0)
    fresh.serialize(serializers.NpzDeserializer(target))
    assert fresh.previous_epoch_detail is None
