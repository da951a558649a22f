"""Differentiable communication: values and gradients against NumPy."""

import numpy
import pytest

import chainerlite
from chainerlite import functions as F
from chainerlite.chainermn import functions


def _inputs(comm, shape=(2, 3)):
    # every rank draws the same arrays (same seed), one per rank
    return [
        numpy.random.uniform(-1, 1, shape).astype(numpy.float32)
        for _ in range(comm.size)
    ]


def test_send_recv_gradient_flows_back(comm2):
    # rank 0 sends x*2 to rank 1, which computes sum(y**2); the gradient of
    # x on rank 0 is 2 * 2 * (2x)
    x_data = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    if comm2.rank == 0:
        x = chainerlite.Variable(x_data)
        delegate = functions.send(x * 2, comm2, rank=1)
        delegate.backward()
        numpy.testing.assert_allclose(x.grad, 8 * x_data)
    elif comm2.rank == 1:
        y = functions.recv(comm2, rank=0)
        numpy.testing.assert_array_equal(y.array, 2 * x_data)
        F.sum(y * y).backward()


def test_send_to_itself_is_an_error(comm):
    with pytest.raises(ValueError, match='itself'):
        functions.send(chainerlite.Variable(numpy.zeros(2)), comm, comm.rank)


def test_allgather(comm):
    xs = _inputs(comm)
    x = chainerlite.Variable(xs[comm.rank])
    ys = functions.allgather(comm, x)
    loss = 0
    for i, y in enumerate(ys):
        numpy.testing.assert_array_equal(y.array, xs[i])
        loss = loss + F.sum(y * (i + 1))
    loss.backward()
    # every rank's loss uses x with weight rank+1 of this rank
    numpy.testing.assert_allclose(x.grad, comm.size * (comm.rank + 1))


def test_alltoall(comm):
    xs = [
        chainerlite.Variable(numpy.full((2,), 10 * comm.rank + i, numpy.float32))
        for i in range(comm.size)
    ]
    ys = functions.alltoall(comm, xs)
    for source, y in enumerate(ys):
        numpy.testing.assert_array_equal(y.array, 10 * source + comm.rank)
    F.sum(F.stack(ys) * (comm.rank + 1)).backward()
    for i, x in enumerate(xs):
        numpy.testing.assert_allclose(x.grad, i + 1)


def test_bcast(comm):
    xs = _inputs(comm)
    x = chainerlite.Variable(xs[0])
    y = functions.bcast(comm, x if comm.rank == 0 else None, root=0)
    numpy.testing.assert_array_equal(y.array, xs[0])
    F.sum(y * (comm.rank + 1)).backward()
    if comm.rank == 0:
        numpy.testing.assert_allclose(x.grad, comm.size * (comm.size + 1) / 2)


def test_gather(comm):
    xs = _inputs(comm)
    x = chainerlite.Variable(xs[comm.rank])
    out = functions.gather(comm, x, root=0)
    if comm.rank == 0:
        loss = 0
        for i, y in enumerate(out):
            numpy.testing.assert_array_equal(y.array, xs[i])
            loss = loss + F.sum(y * (i + 1))
        loss.backward()
    else:
        out.backward()
    numpy.testing.assert_allclose(x.grad, comm.rank + 1)


def test_scatter(comm):
    xs = [chainerlite.Variable(a) for a in _inputs(comm)]
    y = functions.scatter(comm, xs if comm.rank == 0 else None, root=0)
    numpy.testing.assert_array_equal(y.array, xs[comm.rank].array)
    F.sum(y * (comm.rank + 1)).backward()
    if comm.rank == 0:
        for i, x in enumerate(xs):
            numpy.testing.assert_allclose(x.grad, i + 1)
