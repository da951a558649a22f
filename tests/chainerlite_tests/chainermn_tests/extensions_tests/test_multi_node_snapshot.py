import numpy
import pytest

import chainerlite
from chainerlite import iterators
from chainerlite import links
from chainerlite import optimizers
from chainerlite import training
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


def _trainer(comm, out):
    model = links.Classifier(links.Linear(3, 2))
    opt = chainerlite.chainermn.create_multi_node_optimizer(optimizers.SGD(), comm)
    opt.setup(model)
    data = chainerlite.datasets.TupleDataset(
        numpy.ones((4, 3), numpy.float32), numpy.array([0, 1, 0, 1], 'i')
    )
    updater = training.StandardUpdater(iterators.SerialIterator(data, 2), opt)
    return training.Trainer(updater, out=out)


def test_master_writes_and_replicas_autoload(comm, tmp_path):
    out = comm.bcast_obj(str(tmp_path) if comm.rank == 0 else None)
    trainer = _trainer(comm, out)
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
    resumed = _trainer(comm, out)
    snap2 = chainerlite.chainermn.extensions.multi_node_snapshot(
        comm, extensions.snapshot(target=resumed.updater, autoload=True), []
    )
    snap2.initialize(resumed)
    assert resumed.updater.iteration == 3
    snap2.finalize()
