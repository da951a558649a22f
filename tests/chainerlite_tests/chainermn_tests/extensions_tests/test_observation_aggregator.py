import numpy
import pytest

import chainerlite
from chainerlite import testing
import chainerlite.chainermn


@pytest.mark.parametrize('as_variable', [False, True])
@pytest.mark.parametrize('interval', [1, 2])
def test_mean_of_the_ranks_observations(comm, as_variable, interval):
    trainer = testing.get_trainer_with_mock_updater(stop_trigger=None)
    aggregator = chainerlite.chainermn.extensions.ObservationAggregator(
        comm, 'rank', 'rank-mean', comm_trigger=(interval, 'iteration')
    )
    for iteration in range(1, 5):
        trainer.updater.update()
        value = numpy.asarray(comm.rank + iteration, numpy.float32)
        trainer.observation = {
            'rank': chainerlite.Variable(value) if as_variable else value
        }
        aggregator(trainer)
        if iteration % interval:
            assert 'rank-mean' not in trainer.observation
            continue
        got = trainer.observation['rank-mean']
        assert isinstance(got, chainerlite.Variable) == as_variable
        got = got.array if as_variable else got
        window = numpy.arange(iteration - interval + 1, iteration + 1)
        assert numpy.isclose(float(got), (comm.size - 1) / 2 + window.mean())
