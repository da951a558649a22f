import numpy
import pytest

import chainerlite.chainermn
from chainerlite.chainermn.datasets import scatter


@pytest.mark.parametrize(
    'length, size, force, expected',
    [
        (10, 3, False, [(0, 0, 4), (1, 4, 7), (2, 7, 10)]),
        (10, 3, True, [(0, 0, 4), (1, 3, 7), (2, 6, 10)]),
        (1, 3, True, [(0, 0, 1), (1, 0, 1), (2, 0, 1)]),
        (0, 2, True, [(0, 0, 0), (1, 0, 0)]),
    ],
)
def test_scatter_index_ranges(length, size, force, expected):
    assert list(scatter._scatter_index(length, size, force)) == expected


@pytest.mark.parametrize('root', [0, -1])
@pytest.mark.parametrize('shuffle', [False, True])
@pytest.mark.parametrize('data', [list(range(11)), numpy.arange(11) * 2, []])
def test_scatter_dataset_covers_everything(comm, root, shuffle, data):
    root = root % comm.size
    mine = chainerlite.chainermn.scatter_dataset(
        data if comm.rank == root else None, comm, root=root, shuffle=shuffle, seed=3
    )
    parts = comm.allgather_obj([int(v) for v in mine[:]])
    assert len(set(len(p) for p in parts)) == 1  # equal lengths
    assert sorted(set(sum(parts, []))) == sorted(int(v) for v in data)
    assert len(parts[0]) == -(-len(data) // comm.size)


def test_scatter_dataset_without_equal_length(comm):
    mine = chainerlite.chainermn.scatter_dataset(
        list(range(5)), comm, force_equal_length=False
    )
    parts = comm.allgather_obj(list(mine))
    assert sum(parts, []) == list(range(5))


def test_scatter_index(comm):
    begin, end = chainerlite.chainermn.scatter_index(9, comm)
    ranges = comm.allgather_obj((begin, end))
    assert ranges[0][0] == 0 and ranges[-1][1] == 9
    assert len(set(e - b for b, e in ranges)) == 1


def test_create_empty_dataset():
    empty = chainerlite.chainermn.datasets.create_empty_dataset(numpy.arange(4))
    assert len(empty) == 4 and all(e == () for e in empty)
