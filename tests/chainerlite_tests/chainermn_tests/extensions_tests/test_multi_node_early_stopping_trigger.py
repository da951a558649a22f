import numpy

import chainerlite
from chainerlite import testing
from chainerlite.training import util
import chainerlite.chainermn


def test_stops_on_the_mean_over_ranks(comm):
    # Rank r sees the accuracy scaled by (1 - r / size): each rank alone
    # would stop at the same point, and so does their mean.
    trigger = util.get_trigger(
        chainerlite.chainermn.extensions.MultiNodeEarlyStoppingTrigger(
            comm, monitor='main/accuracy', patience=3, check_trigger=(1, 'epoch')
        )
    )
    trainer = testing.get_trainer_with_mock_updater(stop_trigger=None, iter_per_epoch=2)
    accuracies = [
        0.5,
        0.5,
        0.5,
        0.5,
        0.6,
        0.6,
        0.7,
        0.7,
        0.6,
        0.6,
        0.4,
        0.4,
        0.3,
        0.3,
        0.2,
        0.2,
    ]
    expected = [False] * 13 + [True, False, True]
    for accuracy, stop in zip(accuracies, expected):
        trainer.updater.update()
        scaled = accuracy * (1 - comm.rank / comm.size)
        trainer.observation = {
            'main/accuracy': chainerlite.Variable(numpy.asarray(scaled, numpy.float32))
        }
        assert trigger(trainer) == stop
