"""Order samplers: choose the order of examples for each epoch."""

import numpy


class OrderSampler(object):
    """Base class of order samplers.

    An iterator calls ``sampler(current_order, current_position)`` at the
    start and at the end of every epoch and visits the examples in the
    order returned: an array of dataset indices. ``current_order`` is the
    order of the epoch that ends (``numpy.arange(len(dataset))`` at the
    start) and ``current_position`` where the last batch began in it. The
    returned order must have the same length every time; its length is the
    epoch size (it may differ from the dataset's length).
    """

    def __call__(self, current_order, current_position):
        raise NotImplementedError(
            '{}.__call__ is not implemented'.format(type(self).__name__)
        )


class ShuffleOrderSampler(OrderSampler):
    """Samples a new random permutation of the dataset every epoch.

    Args:
        random_state (numpy.random.RandomState): Source of the permutations;
            NumPy's global generator when ``None``.

    """

    def __init__(self, random_state=None):
        if random_state is None:
            random_state = numpy.random.random.__self__
        self._random = random_state

    def __call__(self, current_order, current_position):
        return self._random.permutation(len(current_order))
