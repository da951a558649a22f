"""Averaging an observed value over the ranks during training."""

import numpy

import chainerlite
from chainerlite import backend
from chainerlite.training import extension
from chainerlite.training import util


def _mean_over_ranks(comm, value):
    return comm.allreduce(numpy.asarray(value, numpy.float64)) / comm.size


class ObservationAggregator(extension.Extension):
    """Puts the mean over the ranks of an observation into the observation.

    Each iteration the value ``trainer.observation[original_key]`` is
    collected; when ``comm_trigger`` fires, the mean of the collected values
    is averaged over the ranks by ``aggregator(comm, local_mean)`` (an
    allreduce by default) and stored under ``aggregated_key`` (a Variable
    if the observation was one).
    """

    trigger = 1, 'iteration'
    priority = extension.PRIORITY_EDITOR
    name = None

    def __init__(
        self,
        comm,
        original_key,
        aggregated_key=None,
        comm_trigger=(1, 'iteration'),
        aggregator=None,
    ):
        self.comm = comm
        self.original_key = original_key
        self.aggregated_key = aggregated_key or original_key
        self.comm_trigger = util.get_trigger(comm_trigger)
        self.aggregator = aggregator or _mean_over_ranks
        self.observations = []

    def __call__(self, trainer):
        value = trainer.observation[self.original_key]
        is_variable = isinstance(value, chainerlite.Variable)
        array = value.array if is_variable else value
        self.observations.append(
            numpy.asarray(
                backend.CpuDevice().send(array) if backend._is_array(array) else array
            )
        )
        if not self.comm_trigger(trainer):
            return
        local = numpy.mean(numpy.stack(self.observations), axis=0)
        self.observations = []
        aggregated = self.aggregator(self.comm, local)
        if backend._is_array(array):
            aggregated = backend.get_device_from_array(array).send(
                numpy.asarray(aggregated, dtype=array.dtype)
            )
        if is_variable:
            aggregated = chainerlite.Variable(aggregated)
        trainer.observation[self.aggregated_key] = aggregated
