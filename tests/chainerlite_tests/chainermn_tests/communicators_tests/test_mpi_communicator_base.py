import numpy
import pytest

import chainerlite
from chainerlite import links
import chainerlite.chainermn
from chainerlite.chainermn.communicators import _communication_utility

DTYPES = [numpy.int32, numpy.int64, numpy.float16, numpy.float32, numpy.float64]


def _model():
    model = chainerlite.Chain()
    with model.init_scope():
        model.a = links.Linear(2, 3)
        model.b = links.Linear(3, 4)
    return model


def test_ranks_and_sizes(comm):
    from mpi4py import MPI

    assert comm.rank == MPI.COMM_WORLD.rank
    assert comm.size == MPI.COMM_WORLD.size
    layout = comm.allgather_obj(
        (comm.inter_rank, comm.inter_size, comm.intra_rank, comm.intra_size)
    )
    assert sorted(set(l[1] for l in layout)) == [1]  # one host here
    assert sorted(l[2] for l in layout) == list(range(comm.size))
    assert all(l[3] == comm.size for l in layout)


@pytest.mark.parametrize('dtype', DTYPES)
def test_collectives(comm, dtype):
    n = comm.size
    rows = [numpy.arange(4, dtype=dtype) + 10 * r for r in range(n)]
    mine = rows[comm.rank]
    for got, want in zip(comm.allgather(mine), rows):
        assert got.dtype == dtype
        numpy.testing.assert_array_equal(got, want)
    gathered = comm.gather(mine, root=0)
    if comm.rank == 0:
        numpy.testing.assert_array_equal(numpy.stack(gathered), numpy.stack(rows))
    else:
        assert gathered is None
    b = comm.bcast(rows[0] if comm.rank == 0 else None, root=0)
    numpy.testing.assert_array_equal(b, rows[0])
    s = comm.scatter(rows if comm.rank == 0 else None, root=0)
    numpy.testing.assert_array_equal(s, mine)
    received = comm.alltoall(
        [numpy.full((2, r + 1), comm.rank, dtype) for r in range(n)]
    )
    for source, got in enumerate(received):
        numpy.testing.assert_array_equal(
            got, numpy.full((2, comm.rank + 1), source, dtype)
        )
    total = comm.allreduce(mine)
    assert total.dtype == dtype
    numpy.testing.assert_allclose(total, numpy.sum(rows, axis=0), rtol=1e-3)


def test_variable_shapes_and_scalars(comm):
    x = numpy.ones((comm.rank + 1, comm.rank + 2), numpy.float32)
    shapes = [y.shape for y in comm.allgather(x)]
    assert shapes == [(r + 1, r + 2) for r in range(comm.size)]
    y = comm.allreduce(numpy.array(3.0))
    assert y.shape == () and float(y) == 3.0 * comm.size
    assert comm.bcast(numpy.array(42, numpy.int64)).shape == ()


def test_send_recv(comm2):
    data = numpy.arange(18, dtype=numpy.float32).reshape(3, 3, 2)[:, 1, :]
    pair = (numpy.ones((2, 5)), numpy.arange(3, dtype=numpy.int16))
    if comm2.rank == 0:
        comm2.send(data, dest=1, tag=3)  # not contiguous
        comm2.send(pair, dest=1, tag=4)
        comm2.send_obj({'a': [1, 2]}, dest=1, tag=5)
    elif comm2.rank == 1:
        numpy.testing.assert_array_equal(comm2.recv(source=0, tag=3), data)
        got = comm2.recv(source=0, tag=4)
        assert isinstance(got, tuple) and got[1].dtype == numpy.int16
        numpy.testing.assert_array_equal(got[0], pair[0])
        from mpi4py import MPI

        status = MPI.Status()
        assert comm2.recv_obj(source=0, status=status) == {'a': [1, 2]}
        assert status.Get_tag() == 5


def test_obj_collectives(comm):
    assert comm.bcast_obj({'x': 1} if comm.rank == 0 else None) == {'x': 1}
    gathered = comm.gather_obj(comm.rank)
    assert gathered == (list(range(comm.size)) if comm.rank == 0 else None)
    assert comm.allreduce_obj(comm.rank + 1) == comm.size * (comm.size + 1) // 2
    assert comm.allgather_obj(comm.rank) == list(range(comm.size))
    objs = [('for', r) for r in range(comm.size)] if comm.rank == 0 else None
    assert comm.scatter_obj(objs) == ('for', comm.rank)


@pytest.mark.parametrize('length, chunk', [(10, 1), (1000, 7), (50, 2**31 - 2)])
def test_chunked_bcast_obj(comm, length, chunk):
    obj = numpy.arange(length) if comm.rank == 0 else None
    got = _communication_utility.chunked_bcast_obj(obj, comm.mpi_comm, chunk)
    numpy.testing.assert_array_equal(got, numpy.arange(length))


@pytest.mark.parametrize('chunk', [0, -1, 2**31 - 1])
def test_chunked_bcast_obj_bad_length(comm, chunk):
    with pytest.raises(AssertionError):
        _communication_utility.chunked_bcast_obj(1, comm.mpi_comm, chunk)


def test_config(comm):
    assert comm.batched_copy and comm.get_config('batched_copy')
    comm.set_config('batched_copy', False)
    assert not comm.batched_copy
    comm.set_config('allreduce_grad_dtype', numpy.float16)
    assert comm.allreduce_grad_dtype is numpy.float16
    with pytest.raises(ValueError, match='unknown configuration'):
        comm.set_config('blah')
    with pytest.raises(ValueError, match='floating'):
        comm.set_config('allreduce_grad_dtype', numpy.int32)
    with comm.config_scope():
        comm.extra = 3
    assert comm._configs['extra'] == 3


def test_split(comm):
    child = comm.split(comm.rank % 2, comm.rank)
    assert type(child) is type(comm)
    assert child.size == len(range(comm.rank % 2, comm.size, 2))
    assert child.allreduce_obj(1) == child.size


def test_bcast_data(comm):
    model = _model()
    for i, param in enumerate(sorted(model.namedparams())):
        param[1].array[...] = comm.rank * 10 + i
    comm.bcast_data(model)
    for i, param in enumerate(sorted(model.namedparams())):
        numpy.testing.assert_array_equal(param[1].array, i)


def test_bcast_data_mismatch_names_rank(comm2):
    model = chainerlite.Chain()
    with model.init_scope():
        model.a = links.Linear(2, 3 + (comm2.rank == 1))
    with pytest.raises(ValueError, match='rank 1 do not match'):
        comm2.bcast_data(model)


def test_multi_node_mean_grad_one_packed_allreduce(comm, mpi_calls):
    comm._node_mean = False  # across nodes (test_shared_memory: within one)
    model = _model()
    params = sorted(model.namedparams())
    for i, (_, p) in enumerate(params):
        p.grad[...] = comm.rank + i
    comm.multi_node_mean_grad(model)
    # with one process the mean is the gradient: nothing to exchange
    assert mpi_calls == ({'Allreduce': 1} if comm.size > 1 else {})
    base = (comm.size - 1) / 2
    for i, (_, p) in enumerate(params):
        numpy.testing.assert_allclose(p.grad, base + i)


def test_multi_node_mean_grad_hands_back_views_of_one_kept_buffer(comm2):
    model = _model()
    params = [p for _, p in sorted(model.namedparams())]
    buffers = []
    for step in range(3):
        for i, p in enumerate(params):
            if step == 1:
                p.grad[...] = comm2.rank + i + step  # into last step's views
            else:
                p.grad = numpy.full_like(p.array, comm2.rank + i + step)
        comm2.multi_node_mean_grad(model)
        base = (comm2.size - 1) / 2 + step
        for i, p in enumerate(params):
            numpy.testing.assert_allclose(p.grad, base + i)
        owners = {id(p.grad.base) for p in params}
        assert len(owners) == 1 and params[0].grad.base is not None
        buffers.append(params[0].grad.base)
    assert buffers[0] is buffers[1] is buffers[2]  # no new buffer per step


def test_multi_node_mean_grad_models_keep_their_own_buffers(comm2):
    first, second = _model(), _model()
    for model, value in ((first, 1.0), (second, 5.0)):
        for _, p in model.namedparams():
            p.grad = numpy.full_like(p.array, value + comm2.rank)
        comm2.multi_node_mean_grad(model)
    for model, value in ((first, 1.0), (second, 5.0)):
        for _, p in model.namedparams():
            numpy.testing.assert_allclose(p.grad, value + (comm2.size - 1) / 2)


class _UnhashableChain(chainerlite.Chain):
    def __eq__(self, other):
        return self is other

    __hash__ = None


def test_multi_node_mean_grad_unhashable_model(comm2):
    model = _UnhashableChain()
    with model.init_scope():
        model.a = links.Linear(2, 3)
    for _ in range(2):
        for _, p in model.namedparams():
            p.grad = numpy.full_like(p.array, comm2.rank)
        comm2.multi_node_mean_grad(model)
        numpy.testing.assert_allclose(model.a.W.grad, (comm2.size - 1) / 2)


def test_multi_node_mean_grad_mixed_dtypes_copy_back(comm):
    model = _model()
    model.a.W.array = model.a.W.array.astype(numpy.float16)
    model.a.W.grad = numpy.full((3, 2), comm.rank + 0.5, dtype=numpy.float16)
    model.b.W.grad[...] = comm.rank
    kept = model.a.W.grad
    comm.multi_node_mean_grad(model)
    assert model.a.W.grad is kept and kept.dtype == numpy.float16
    numpy.testing.assert_allclose(kept, comm.size / 2.0)
    numpy.testing.assert_allclose(model.b.W.grad, (comm.size - 1) / 2)


def test_multi_node_mean_grad_skips_or_zero_fills(comm):
    model = _model()
    model.a.W.grad[...] = comm.rank
    model.a.b.grad[...] = 1
    model.b.W.grad[...] = 2
    model.b.b.grad = None
    comm.multi_node_mean_grad(model)
    assert model.b.b.grad is None
    numpy.testing.assert_allclose(model.a.W.grad, (comm.size - 1) / 2)
    if comm.rank % 2:
        model.b.b.grad = None
    else:
        model.b.b.grad = numpy.full_like(model.b.b.array, 4)
    comm.multi_node_mean_grad(model, zero_fill=True)
    evens = len(range(0, comm.size, 2))
    numpy.testing.assert_allclose(model.b.b.grad, 4.0 * evens / comm.size)


def test_multi_node_mean_grad_float16_on_the_wire(comm):
    comm._node_mean = False  # across nodes
    comm.set_config('allreduce_grad_dtype', numpy.float16)
    model = _model()
    for _, p in model.namedparams():
        p.grad[...] = comm.rank + 0.5
    wire = []
    real = comm._allreduce_in_place
    comm._allreduce_in_place = lambda buffer: (wire.append(buffer.dtype), real(buffer))
    comm.multi_node_mean_grad(model)
    assert wire == [numpy.float16]
    assert model.a.W.grad.dtype == numpy.float32
    numpy.testing.assert_allclose(model.a.W.grad, comm.size / 2.0, rtol=1e-3)


def test_debug_mode_detects_nan(comm):
    model = _model()
    for _, p in model.namedparams():
        p.grad[...] = 1
    model.a.b.grad[0] = numpy.nan
    with chainerlite.using_config('debug', True):
        with pytest.raises(ValueError, match='diverged'):
            comm.multi_node_mean_grad(model)


def test_allreduce_grad_is_the_former_name(comm):
    model = _model()
    for _, p in model.namedparams():
        p.grad[...] = comm.rank
    comm.allreduce_grad(model)
    numpy.testing.assert_allclose(model.a.W.grad, (comm.size - 1) / 2)


def test_create_communicator_names(comm):
    from chainerlite.chainermn.communicators import flat_communicator
    from chainerlite.chainermn.communicators import dummy_communicator

    flat = chainerlite.chainermn.create_communicator(
        'flat', allreduce_grad_dtype=numpy.float32
    )
    assert isinstance(flat, flat_communicator.FlatCommunicator)
    assert flat.allreduce_grad_dtype is numpy.float32
    dummy = chainerlite.chainermn.create_communicator('dummy')
    assert isinstance(dummy, dummy_communicator.DummyCommunicator)
    with pytest.raises(ValueError, match='unknown communicator'):
        chainerlite.chainermn.create_communicator('hierarchical')
    with pytest.raises(TypeError, match='unexpected'):
        chainerlite.chainermn.create_communicator('naive', foo=1)


def test_dummy_exchanges_nothing(comm):
    dummy = chainerlite.chainermn.create_communicator('dummy')
    model = _model()
    for _, p in model.namedparams():
        p.grad[...] = comm.rank + 1
    dummy.multi_node_mean_grad(model)
    numpy.testing.assert_allclose(model.a.W.grad, comm.rank + 1)


@pytest.mark.parametrize('name', ['pure_nccl', 'non_cuda_aware'])
def test_nccl_communicators_say_what_they_need(comm, name):
    with pytest.raises(RuntimeError, match='CuPy|GPU|NCCL'):
        chainerlite.chainermn.create_communicator(name)
