import numpy
import pytest

import chainerlite
from chainerlite import functions
from chainerlite import links
from chainerlite import optimizers
import chainerlite.chainermn


def _mlp(seed):
    numpy.random.seed(seed)
    model = chainerlite.Sequential(
        links.Linear(4, 8), functions.tanh, links.Linear(8, 3)
    )
    return model


def _loss(model, x, t):
    return functions.softmax_cross_entropy(model(x), t)


def test_first_update_broadcasts_then_averages(comm):
    model = _mlp(comm.rank)  # a different start on each rank
    opt = chainerlite.chainermn.create_multi_node_optimizer(
        optimizers.SGD(lr=0.5), comm
    )
    assert opt.setup(model) is opt
    opt.update()
    assert opt.t == 0
    start = [p.array.copy() for _, p in sorted(model.namedparams())]
    for got in comm.allgather_obj(start):
        for a, b in zip(got, start):
            numpy.testing.assert_array_equal(a, b)
    for i, (_, p) in enumerate(sorted(model.namedparams())):
        p.grad = numpy.full_like(p.array, comm.rank + i)
    opt.update()
    assert opt.t == 1
    base = (comm.size - 1) / 2
    for i, ((_, p), before) in enumerate(zip(sorted(model.namedparams()), start)):
        numpy.testing.assert_allclose(
            p.array, before - 0.5 * (base + i), rtol=1e-6, atol=1e-6
        )


def test_a_training_step_makes_one_mpi_call(comm, mpi_calls):
    model = _mlp(0)
    opt = chainerlite.chainermn.create_multi_node_optimizer(
        optimizers.MomentumSGD(), comm
    )
    opt.setup(model)
    opt.update()  # the broadcast
    x = numpy.ones((2, 4), dtype=numpy.float32)
    t = numpy.zeros(2, dtype=numpy.int32)
    mpi_calls.clear()
    for _ in range(3):
        opt.update(_loss, model, x, t)
    # no barrier or broadcast per step; nothing at all with one process;
    # within one node, the shared-memory mean makes the node's communicator
    # once, then only synchronizes on it
    if comm.size == 1:
        assert mpi_calls == {}
    elif comm._shared_memory() is not None:
        assert mpi_calls == {'Split_type': 1}
    else:
        assert mpi_calls == {'Allreduce': 3}


def test_new_link_is_broadcast_again(comm):
    model = chainerlite.Chain()
    with model.init_scope():
        model.a = links.Linear(2, 3)
    opt = chainerlite.chainermn.create_multi_node_optimizer(optimizers.SGD(), comm)
    opt.setup(model)
    opt.update()
    with model.init_scope():
        model.c = links.Linear(3, 2)
    model.c.W.array[...] = comm.rank
    opt.setup(model)
    opt.update()
    assert opt.t == 0
    numpy.testing.assert_array_equal(model.c.W.array, 0)


def test_attributes_are_the_wrapped_optimizers(comm):
    actual = optimizers.MomentumSGD(lr=0.1)
    opt = chainerlite.chainermn.create_multi_node_optimizer(actual, comm)
    opt.lr = 0.25
    assert actual.lr == 0.25 and opt.lr == 0.25


def test_double_buffering_needs_pure_nccl(comm):
    with pytest.raises(ValueError, match='pure_nccl'):
        chainerlite.chainermn.create_multi_node_optimizer(
            optimizers.SGD(), comm, double_buffering=True
        )


def test_two_ranks_train_as_one_process(comm):
    """Each rank trains on its share of every batch; the parameters end as
    those of one process trained on the whole batches."""
    rng = numpy.random.RandomState(0)
    x = rng.randn(12 * comm.size, 4).astype(numpy.float32)
    t = rng.randint(0, 3, len(x)).astype(numpy.int32)
    reference = _mlp(1)
    ref_opt = optimizers.MomentumSGD(lr=0.1)
    ref_opt.setup(reference)
    model = _mlp(1 + comm.rank)
    opt = chainerlite.chainermn.create_multi_node_optimizer(
        optimizers.MomentumSGD(lr=0.1), comm
    )
    opt.setup(model)
    opt.update()  # rank 0's start everywhere
    share = 4
    for step in range(3):
        batch = slice(step * share * comm.size, (step + 1) * share * comm.size)
        ref_opt.update(_loss, reference, x[batch], t[batch])
        mine = slice(
            batch.start + comm.rank * share, batch.start + (comm.rank + 1) * share
        )
        opt.update(_loss, model, x[mine], t[mine])
    for (name, p), (_, q) in zip(
        sorted(model.namedparams()), sorted(reference.namedparams())
    ):
        numpy.testing.assert_allclose(
            p.array, q.array, rtol=1e-5, atol=1e-6, err_msg=name
        )


def _batch(step, rank):
    # each rank its own data, the same at the same step of every run
    rng = numpy.random.RandomState(1000 * step + rank)
    x = rng.uniform(-1, 1, (5, 4)).astype(numpy.float32)
    return x, rng.randint(0, 3, 5).astype(numpy.int32)


def _steps(opt, model, comm, start, stop):
    for step in range(start, stop):
        opt.update(_loss, model, *_batch(step, comm.rank))


def _params(model):
    return [p.array.copy() for _, p in sorted(model.namedparams())]


@pytest.mark.parametrize(
    'make_optimizer',
    [
        lambda: optimizers.MomentumSGD(lr=0.1),  # sharded within one node
        lambda: optimizers.Adam(alpha=0.01),
    ],
    ids=['MomentumSGD', 'Adam'],
)
def test_a_resumed_job_loses_no_update(comm, tmp_path, make_optimizer):
    from chainerlite import serializers

    def new(seed):
        model = _mlp(seed)
        opt = chainerlite.chainermn.create_multi_node_optimizer(make_optimizer(), comm)
        opt.setup(model)
        return model, opt

    model, opt = new(comm.rank)
    _steps(opt, model, comm, 0, 20)  # the first step broadcasts
    straight, straight_t = _params(model), opt.t
    assert straight_t == 19

    model, opt = new(comm.rank)
    _steps(opt, model, comm, 0, 10)
    serializers.save_npz(str(tmp_path / 'model.npz'), model)
    serializers.save_npz(str(tmp_path / 'opt.npz'), opt)
    # the job restarts: new objects, another start, then the checkpoint
    model, opt = new(comm.rank + 100)
    serializers.load_npz(str(tmp_path / 'model.npz'), model)
    serializers.load_npz(str(tmp_path / 'opt.npz'), opt)
    assert opt.t == 9
    _steps(opt, model, comm, 10, 20)
    assert opt.t == straight_t
    for a, b in zip(_params(model), straight):
        assert a.tobytes() == b.tobytes()


def test_after_a_load_the_first_update_broadcasts_and_updates(comm, tmp_path):
    from chainerlite import serializers

    model = _mlp(comm.rank)  # a different model on each rank
    opt = chainerlite.chainermn.create_multi_node_optimizer(
        optimizers.SGD(lr=0.5), comm
    )
    opt.setup(model)
    serializers.save_npz(str(tmp_path / 'opt.npz'), opt)
    serializers.load_npz(str(tmp_path / 'opt.npz'), opt)
    start = comm.bcast_obj(_params(model))  # rank 0's
    for i, (_, p) in enumerate(sorted(model.namedparams())):
        p.grad = numpy.full_like(p.array, comm.rank + i)
    opt.update()
    assert opt.t == 1
    base = (comm.size - 1) / 2
    for i, (got, before) in enumerate(zip(_params(model), start)):
        numpy.testing.assert_allclose(got, before - 0.5 * (base + i), rtol=1e-6)
    # a set of parameters that changes later is broadcast as at a start
    model.append(links.Linear(3, 2))
    opt.setup(model)  # (t starts again from 0)
    opt.update()
    assert opt.t == 0
