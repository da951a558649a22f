import numpy

import chainerlite
from chainerlite import functions as F
from chainerlite import links
import chainerlite.chainermn


def _linear(seed):
    return links.Linear(3, 3, initialW=numpy.random.RandomState(seed).randn(
        3, 3).astype(numpy.float32))


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
        numpy.testing.assert_allclose(model[0].W.grad, whole[0].W.grad,
                                      rtol=1e-4)
        grads = comm2.recv_obj(1)
        numpy.testing.assert_allclose(grads, whole[1].W.grad, rtol=1e-4)
    elif comm2.rank == 1:
        model = _Second(comm2)
        delegate = model()
        delegate.backward()
        comm2.send_obj(model[0].W.grad, 0)
