"""allgather_owned: each array takes its owner rank's bytes."""

import numpy
import pytest


def _arrays(rank):
    return [
        numpy.full((3, 5), rank, dtype=numpy.float32),
        numpy.array(rank * 7, dtype=numpy.int64),
        numpy.arange(130, dtype=numpy.float64) + rank,
        numpy.full(4, rank, dtype=numpy.float16),
    ]


@pytest.mark.parametrize('shared_memory', [True, False])
def test_each_array_takes_its_owners_values(comm, shared_memory):
    if not shared_memory:
        comm._node_mean = False  # an Allgatherv, as across nodes
    owners = [i % comm.size for i in range(4)]
    for step in range(3):  # the halves of the window in turn
        arrays = [numpy.array(a + step, a.dtype) for a in _arrays(comm.rank)]
        comm.allgather_owned(arrays, owners)
        for index, (array, owner) in enumerate(zip(arrays, owners)):
            expected = _arrays(owner)[index] + step
            assert array.tobytes() == expected.tobytes()
    # another layout on every rank: a new window
    arrays = _arrays(comm.rank)[:2]
    comm.allgather_owned(arrays, [comm.size - 1, 0])
    assert arrays[0].tobytes() == _arrays(comm.size - 1)[0].tobytes()


def test_lengths_must_match(comm):
    with pytest.raises(ValueError, match='allgather_owned: 4 arrays but 1 owners'):
        comm.allgather_owned(_arrays(0), [0])


def test_different_layouts_are_an_error_on_every_rank(comm2):
    if not comm2.shares_node_memory():
        pytest.skip('the ranks are not all on one node')
    comm2.allgather_owned(_arrays(comm2.rank), [0, 1, 0, 1])
    arrays = _arrays(comm2.rank)[: 4 - comm2.rank]
    with pytest.raises(ValueError, match='allgather_owned: the arrays of rank 1'):
        comm2.allgather_owned(arrays, [0] * len(arrays))
