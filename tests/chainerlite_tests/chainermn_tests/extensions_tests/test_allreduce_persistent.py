import numpy

import chainerlite
from chainerlite import links
import chainerlite.chainermn


def test_batch_normalization_statistics_are_averaged(comm):
    model = chainerlite.Chain()
    with model.init_scope():
        model.bn = links.BatchNormalization(3)
    model.bn.avg_mean.fill(comm.rank)
    model.bn.avg_var.fill(2 * comm.rank)
    model.bn.N = comm.rank
    chainerlite.chainermn.extensions.AllreducePersistent(model, comm)()
    numpy.testing.assert_allclose(model.bn.avg_mean, (comm.size - 1) / 2)
    numpy.testing.assert_allclose(model.bn.avg_var, comm.size - 1)
    assert model.bn.N == comm.rank  # integers are left alone
