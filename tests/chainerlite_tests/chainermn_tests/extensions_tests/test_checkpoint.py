import os

import numpy

import chainerlite
from chainerlite import links
from chainerlite.chainermn.extensions import checkpoint
import chainerlite.chainermn


def _shared_tmp(comm, tmp_path):
    return comm.bcast_obj(str(tmp_path) if comm.rank == 0 else None)


def test_filenames_round_trip(comm):
    cp = chainerlite.chainermn.create_multi_node_checkpointer('run', comm)
    names = cp._filenames([3, 17])
    assert list(cp._parse_filenames(names)) == [
        ('run', comm.rank, 3),
        ('run', comm.rank, 17),
    ]


def test_resumes_from_newest_common_iteration(comm, tmp_path):
    path = _shared_tmp(comm, tmp_path)
    cp = chainerlite.chainermn.create_multi_node_checkpointer(
        'run', comm, gc_interval=2, path=path
    )
    model = links.Linear(2, 2)
    for iteration in (1, 2, 3):
        model.W.array[...] = iteration
        if iteration < 3 or comm.rank == 0:  # rank 0 alone has iteration 3
            cp.save(model, iteration)
    mine = sorted(
        i for _, r, i in cp._parse_filenames(os.listdir(path)) if r == comm.rank
    )
    assert mine == ([2, 3] if comm.rank == 0 else [1, 2])
    comm.mpi_comm.barrier()
    restored = links.Linear(2, 2)
    cp2 = chainerlite.chainermn.create_multi_node_checkpointer('run', comm, path=path)
    cp2.maybe_load(restored)
    expected = 2 if comm.size > 1 else 3
    numpy.testing.assert_array_equal(restored.W.array, expected)
    assert isinstance(cp.get_stats(), str)
    comm.mpi_comm.barrier()
    cp.finalize()


def test_stats_report():
    stats = checkpoint._CheckpointStats()
    assert 'no checkpoint' in stats.report()
    stats.start()
    stats.end()
    assert stats.report().startswith('1 checkpoints')
