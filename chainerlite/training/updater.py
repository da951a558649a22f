"""The :class:`Updater` interface: one step of training per ``update()``.

``StandardUpdater`` and ``ParallelUpdater`` are also reachable here, as in
Chainer.
"""


class Updater(object):
    """Interface of the updaters, which run the training iterations.

    An updater owns the iterators and optimizers of a training; the trainer
    calls :meth:`update` once per iteration and reads ``iteration``,
    ``epoch``, ``epoch_detail`` and ``is_new_epoch`` from it.
    """

    def connect_trainer(self, trainer):
        """Called by the trainer that uses this updater (does nothing by
        default)."""

    def finalize(self):
        """Releases the resources (iterators) at the end of training."""
        raise NotImplementedError

    def get_optimizer(self, name):
        """Returns the optimizer of the given name."""
        raise NotImplementedError

    def get_all_optimizers(self):
        """Returns a dict of all the optimizers, by name."""
        raise NotImplementedError

    def update(self):
        """Runs one iteration of training."""
        raise NotImplementedError

    def serialize(self, serializer):
        """Saves or loads the state of the updater."""
        raise NotImplementedError


from chainerlite.training.updaters.standard_updater import StandardUpdater  # NOQA: E402,F401,E501
from chainerlite.training.updaters.parallel_updater import ParallelUpdater  # NOQA: E402,F401,E501
