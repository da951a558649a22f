import numpy
import pytest

import chainerlite
from chainerlite import iterators
from chainerlite import links
from chainerlite import optimizers
from chainerlite import training
import chainerlite.chainermn


@pytest.fixture
def tiny_trainer():
    """Makes trainers of a 3-to-2 linear classifier on 4 samples, batch 2,
    with a multi-node SGD optimizer: ``make(comm, out, stop_trigger)``."""

    def make(comm, out, stop_trigger=(1, 'epoch')):
        model = links.Classifier(links.Linear(3, 2))
        opt = chainerlite.chainermn.create_multi_node_optimizer(optimizers.SGD(), comm)
        opt.setup(model)
        data = chainerlite.datasets.TupleDataset(
            numpy.ones((4, 3), numpy.float32), numpy.array([0, 1, 0, 1], 'i')
        )
        updater = training.StandardUpdater(iterators.SerialIterator(data, 2), opt)
        return training.Trainer(updater, stop_trigger, out=out)

    return make
