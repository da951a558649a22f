import numpy
import pytest

from chainerlite import iterators
import chainerlite.chainermn


@pytest.mark.parametrize('paired', [False, True])
def test_multi_node_iterator_gives_the_masters_batches(comm, paired):
    data = numpy.arange(10, dtype=numpy.float32)
    if paired:
        data = list(zip(data, data * 2))
    numpy.random.seed(comm.rank)  # each rank would shuffle differently
    it = chainerlite.chainermn.iterators.create_multi_node_iterator(
        iterators.SerialIterator(data, 3, repeat=False), comm, rank_master=comm.size - 1
    )
    batches = list(it)
    everyone = comm.allgather_obj([repr(b) for b in batches])
    assert all(b == everyone[-1] for b in everyone)
    assert it.epoch == 1 and it.is_new_epoch
    assert sorted(float(v[0] if paired else v) for b in batches for v in b) == list(
        range(10)
    )


def test_multi_node_iterator_rejects_other_examples(comm):
    it = chainerlite.chainermn.iterators.create_multi_node_iterator(
        iterators.SerialIterator(['text'] * 4, 2), comm
    )
    with pytest.raises(TypeError, match='numbers or arrays'):
        it.next()


def test_synchronized_iterator_same_order(comm):
    numpy.random.seed(comm.rank)
    it = chainerlite.chainermn.iterators.create_synchronized_iterator(
        iterators.SerialIterator(numpy.arange(20), 6, shuffle=True), comm
    )
    batches = [list(map(int, it.next())) for _ in range(8)]
    assert all(b == batches for b in comm.allgather_obj(batches))


def test_synchronized_iterator_needs_shuffling(comm):
    with pytest.raises(TypeError, match='ShuffleOrderSampler'):
        chainerlite.chainermn.iterators.create_synchronized_iterator(
            iterators.SerialIterator(numpy.arange(4), 2, shuffle=False), comm
        )
