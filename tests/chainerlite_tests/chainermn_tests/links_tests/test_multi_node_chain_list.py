import numpy

import chainerlite
from chainerlite import functions as F
from chainerlite import links
import chainerlite.chainermn


def _linear(seed):
    return links.Linear(
        3, 3, initialW=numpy.random.RandomState(seed).randn(3, 3).astype(numpy.float32)
    )


class _First(chainerlite.chainermn.MultiNodeChainList):
    def __init__(self, comm):
        super(_First, self).__init__(comm)
        self.add_link(_linear(0), rank_in=None, rank_out=1)
        self.add_link(_linear(2), rank_in=1, rank_out=None)


class _Second(chainerlite.chainermn.MultiNodeChainList):
    def __init__(self, comm):
        super(_Second, self).__init__(comm)
        self.add_link(_linear(1), rank_in=0, rank_out=0)


def test_model_split_over_two_ranks_matches_one_process(comm2):
    x = numpy.random.randn(2, 3).astype(numpy.float32)
    if comm2.rank == 0:
        model = _First(comm2)
        y = model(x)
        F.sum(y * y).backward()
        whole = chainerlite.Sequential(_linear(0), _linear(1), _linear(2))
        y_ref = whole(x)
        F.sum(y_ref * y_ref).backward()
        numpy.testing.assert_allclose(y.array, y_ref.array, rtol=1e-5)
        numpy.testing.assert_allclose(model[0].W.grad, whole[0].W.grad, rtol=1e-4)
        grads = comm2.recv_obj(1)
        numpy.testing.assert_allclose(grads, whole[1].W.grad, rtol=1e-4)
    elif comm2.rank == 1:
        model = _Second(comm2)
        delegate = model()
        delegate.backward()
        comm2.send_obj(model[0].W.grad, 0)


class _Cross(chainerlite.chainermn.MultiNodeChainList):
    """Sends first, then receives from the other rank: the output carries
    the delegate of the send (pseudo_connect)."""

    def __init__(self, comm, peer):
        super(_Cross, self).__init__(comm)
        self.add_link(_linear(comm.rank), rank_in=None, rank_out=peer)
        self.add_link(_linear(10 + comm.rank), rank_in=peer, rank_out=None)


def test_crossing_sends_and_receives(comm2):
    if comm2.rank > 1:
        return
    peer = 1 - comm2.rank
    x = numpy.random.randn(2, 3).astype(numpy.float32)
    model = _Cross(comm2, peer)
    y = model(x)
    F.sum(y).backward()
    # rank r's output is second_r(first_peer(x)); the gradient of first_r's
    # W comes back from the peer, whose loss is sum(second_peer(first_r(x)))
    second_peer = _linear(10 + peer)
    h = chainerlite.Variable(x)
    first_mine = _linear(comm2.rank)
    F.sum(second_peer(first_mine(h))).backward()
    numpy.testing.assert_allclose(model[0].W.grad, first_mine.W.grad, rtol=1e-4)
