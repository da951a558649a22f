import pytest

import chainerlite
from chainerlite.training import extensions
import chainerlite.chainermn
from chainerlite.chainermn.extensions import _multi_node_snapshot


@pytest.mark.parametrize(
    'sets, size, expected',
    [
        ([0], 4, [{0}, {1, 2, 3}]),
        ([[0, 1], [2, 3]], 4, [{0, 1}, {2, 3}]),
        ([], 3, [{0, 1, 2}]),
        ([range(0, 6, 2)], 6, [{0, 2, 4}, {1, 3, 5}]),
    ],
)
def test_parse_replica_sets(sets, size, expected):
    assert _multi_node_snapshot._parse_replica_sets(sets, size) == expected


def test_parse_replica_sets_rejects_overlap():
    with pytest.raises(ValueError, match='more than one'):
        _multi_node_snapshot._parse_replica_sets([[0, 1], [1]], 3)


def test_master_writes_and_replicas_autoload(comm, tmp_path, tiny_trainer):
    out = comm.bcast_obj(str(tmp_path) if comm.rank == 0 else None)
    trainer = tiny_trainer(comm, out)
    snap = chainerlite.chainermn.extensions.multi_node_snapshot(
        comm, extensions.snapshot(target=trainer.updater, autoload=True), []
    )
    assert snap.is_master == (comm.rank == 0)
    snap.initialize(trainer)
    for _ in range(3):
        trainer.updater.update()
    snap(trainer)
    snap.finalize()
    comm.mpi_comm.barrier()
    resumed = tiny_trainer(comm, out)
    snap2 = chainerlite.chainermn.extensions.multi_node_snapshot(
        comm, extensions.snapshot(target=resumed.updater, autoload=True), []
    )
    snap2.initialize(resumed)
    assert resumed.updater.iteration == 3
    snap2.finalize()
