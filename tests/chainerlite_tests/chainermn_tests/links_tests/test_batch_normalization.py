import numpy
import pytest

import chainerlite
from chainerlite import functions as F
from chainerlite import links
import chainerlite.chainermn
from chainerlite.chainermn.links import MultiNodeBatchNormalization


@pytest.mark.parametrize('shape', [(4, 3), (2, 3, 2, 2)])
def test_same_as_one_batch_normalization_on_the_whole_batch(comm, shape):
    x = numpy.random.randn(comm.size * shape[0], *shape[1:]).astype(numpy.float32)
    weights = numpy.random.randn(*x.shape).astype(numpy.float32)
    local = slice(comm.rank * shape[0], (comm.rank + 1) * shape[0])
    bn = links.BatchNormalization(3)
    mnbn = MultiNodeBatchNormalization(3, comm)
    for link in (bn, mnbn):
        link.gamma.array[...] = [0.5, 1.0, 2.0]
        link.beta.array[...] = [0.1, 0.0, -0.3]
    x_all = chainerlite.Variable(x)
    y_all = bn(x_all)
    F.sum(y_all * weights).backward()
    x_mine = chainerlite.Variable(x[local])
    y_mine = mnbn(x_mine)
    numpy.testing.assert_allclose(
        y_mine.array, y_all.array[local], rtol=1e-4, atol=1e-5
    )
    # the loss of the whole batch is the sum of the ranks' losses
    (F.sum(y_mine * weights[local]) * comm.size).backward()
    numpy.testing.assert_allclose(
        x_mine.grad, comm.size * x_all.grad[local], rtol=1e-3, atol=1e-4
    )
    comm.multi_node_mean_grad(mnbn)
    for name in ('gamma', 'beta'):
        numpy.testing.assert_allclose(
            getattr(mnbn, name).grad, getattr(bn, name).grad, rtol=1e-4, atol=1e-4
        )
    numpy.testing.assert_allclose(mnbn.avg_mean, bn.avg_mean, rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(mnbn.avg_var, bn.avg_var, rtol=1e-4)
    with chainerlite.using_config('train', False):
        numpy.testing.assert_allclose(
            mnbn(x[local]).array, bn(x[local]).array, rtol=1e-4, atol=1e-5
        )


@pytest.mark.parametrize('backend', ['nccl', 'dummy'])
def test_unsupported_backend(comm, backend):
    with pytest.raises(ValueError, match='MultiNodeBatchNormalization'):
        MultiNodeBatchNormalization(2, comm, communication_backend=backend)


def test_copy_shares_the_communicator(comm):
    mnbn = MultiNodeBatchNormalization(2, comm)
    assert mnbn.copy(mode='copy').comm is comm


def test_create_mnbn_model(comm):
    model = chainerlite.Sequential(
        links.Linear(2, 3), links.BatchNormalization(3), F.relu
    )
    model[1].gamma.array[...] = 3
    chain = chainerlite.Chain()
    with chain.init_scope():
        chain.body = model
        chain.bn = links.BatchNormalization(3)
    converted = chainerlite.chainermn.links.create_mnbn_model(chain, comm)
    assert isinstance(converted.bn, MultiNodeBatchNormalization)
    assert isinstance(converted.body[1], MultiNodeBatchNormalization)
    assert not isinstance(chain.bn, MultiNodeBatchNormalization)
    numpy.testing.assert_array_equal(converted.body[1].gamma.array, 3)
    assert converted.bn(converted.body(numpy.ones((2, 2), 'f'))).shape == (2, 3)
