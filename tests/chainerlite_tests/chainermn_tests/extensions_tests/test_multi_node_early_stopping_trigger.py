import warnings

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


def test_a_rank_without_the_value_still_takes_part_in_each_check(comm2):
    # Rank 0 never observes the loss: it still joins every check's mean
    # (else the other ranks would wait for it there for ever), and it
    # decides on the other ranks' values as they do.
    comm = comm2
    trigger = util.get_trigger(
        chainerlite.chainermn.extensions.MultiNodeEarlyStoppingTrigger(
            comm, monitor='main/loss', patience=1, check_trigger=(1, 'iteration')
        )
    )
    trainer = testing.get_trainer_with_mock_updater(stop_trigger=None, iter_per_epoch=2)
    decisions = []
    for loss in (1.0, 2.0, 3.0):
        trainer.updater.update()
        trainer.observation = {} if comm.rank == 0 else {'main/loss': loss}
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')  # rank 0's missing value
            decisions.append(trigger(trainer))
    assert decisions == [False, True, True]
    assert comm.allgather_obj(decisions) == [decisions] * comm.size
