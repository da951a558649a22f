import os

import numpy
import pytest

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
    cp = chainerlite.chainermn.create_multi_node_checkpointer('run', comm, path=path)
    model = links.Linear(2, 2)
    for iteration in (1, 2, 3):
        model.W.array[...] = iteration
        if iteration < 3 or comm.rank == 0:  # rank 0 alone has iteration 3
            cp.save(model, iteration)
    mine = sorted(
        i for _, r, i in cp._parse_filenames(os.listdir(path)) if r == comm.rank
    )
    assert mine == ([1, 2, 3] if comm.rank == 0 else [1, 2])
    comm.mpi_comm.barrier()
    restored = links.Linear(2, 2)
    cp2 = chainerlite.chainermn.create_multi_node_checkpointer('run', comm, path=path)
    cp2.maybe_load(restored)
    expected = 2 if comm.size > 1 else 3
    numpy.testing.assert_array_equal(restored.W.array, expected)
    assert isinstance(cp.get_stats(), str)
    comm.mpi_comm.barrier()
    cp.finalize()


def _rank_files(comm, directory):
    return sorted(
        i
        for _, r, i in checkpoint._MultiNodeCheckpointer(
            'run', comm, 1, 1, None
        )._parse_filenames(os.listdir(directory))
        if r == comm.rank
    )


def test_keeps_cp_interval_newest_once_gc_interval_more_pile_up(comm, tmp_path):
    path = _shared_tmp(comm, tmp_path)
    cp = chainerlite.chainermn.create_multi_node_checkpointer(
        'run', comm, cp_interval=2, gc_interval=1, path=path
    )
    model = links.Linear(2, 2)
    kept = []
    for iteration in range(1, 6):
        cp.save(model, iteration)
        kept.append(_rank_files(comm, path))
    # 3 files are 1 beyond the 2 kept, not more: collected at 4 files.
    assert kept == [[1], [1, 2], [1, 2, 3], [3, 4], [3, 4, 5]]
    comm.mpi_comm.barrier()
    cp.finalize()


def test_trainer_extension_saves_every_iteration_and_cleans_up(
    comm, tmp_path, tiny_trainer
):
    # As ChainerMN's MNIST example uses it: no path (the trainer's out),
    # maybe_load before the run. Each iteration is saved (the default
    # trigger); a run that ends normally removes its checkpoints, so the
    # next run starts from iteration 0.
    out = os.path.join(_shared_tmp(comm, tmp_path), 'result')
    seen = []
    for _ in range(2):
        trainer = tiny_trainer(comm, out, (3, 'iteration'))
        cp = chainerlite.chainermn.create_multi_node_checkpointer('run', comm)
        cp.maybe_load(trainer, trainer.updater.get_optimizer('main'))
        assert trainer.updater.iteration == 0
        trainer.extend(cp)
        trainer.extend(lambda t: seen.append(_rank_files(comm, out)), priority=0)
        trainer.run()
        assert _rank_files(comm, out) == []
        comm.mpi_comm.barrier()
    assert seen == [[1], [1, 2], [1, 2, 3]] * 2


def test_rejects_intervals_below_one(comm):
    with pytest.raises(ValueError, match='at least 1'):
        chainerlite.chainermn.create_multi_node_checkpointer('run', comm, cp_interval=0)


def test_stats_report():
    stats = checkpoint._CheckpointStats()
    assert 'no checkpoint' in stats.report()
    stats.start()
    stats.end()
    assert stats.report().startswith('1 checkpoints')
