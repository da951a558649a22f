"""The optimizer wrapper that averages gradients over the processes."""

from chainerlite import serializer as serializer_module
from chainerlite.chainermn import _sharded_update


class _MultiNodeOptimizer(object):
    """Wraps an optimizer: exchanges gradients, then lets it update.

    When every rank runs on one node, the update of a gradient method is
    shared out: each rank runs the update rules of its share of the
    parameters and the communicator hands the results to the others (see
    :mod:`chainerlite.chainermn._sharded_update`); the result is bitwise
    that of every rank updating every parameter.

    The first :meth:`update` (and the first after the set of parameters
    changes, e.g. a link was added and :meth:`setup` called again)
    broadcasts rank 0's parameters instead of updating, so that every rank
    starts from the same model. After the optimizer's state was loaded
    (a job resumed from a checkpoint) on rank 0, the first :meth:`update`
    broadcasts and then updates too: the update of that step is not lost. Every other
    attribute is the wrapped optimizer's.
    """

    def __init__(self, actual_optimizer, communicator, zero_fill):
        object.__setattr__(self, 'actual_optimizer', actual_optimizer)
        object.__setattr__(self, 'communicator', communicator)
        object.__setattr__(self, 'zero_fill', zero_fill)
        object.__setattr__(self, '_broadcast_layout', None)
        # set by a load: the next broadcast is followed by the update
        object.__setattr__(self, '_resumed', False)
        # the rules' states living in the communicator's shared memory
        object.__setattr__(self, '_resident', {})
        # whether an update ran since the last broadcast: the first one runs
        # whole on every rank, so that every rank's rules have their states
        object.__setattr__(self, '_updated', False)

    def setup(self, link):
        self.actual_optimizer.setup(link)
        return self

    def update(self, lossfun=None, *args, **kwds):
        """Computes the loss (when given), averages the gradients, updates.

        With ``lossfun``, the loss is computed and back-propagated here, as
        the wrapped optimizer would; its update then runs on the gradients
        averaged over the ranks (one packed allreduce).
        """
        actual = self.actual_optimizer
        target = actual.target
        if lossfun is not None:
            loss = lossfun(*args, **kwds)
            if getattr(actual, '_use_cleargrads', True):
                target.cleargrads()
            else:
                target.zerograds()
            loss.backward(loss_scale=getattr(actual, 'loss_scale', None))
            del loss
        if self._layout() != self._broadcast_layout:
            self.communicator.bcast_data(target)
            self.mark_broadcast()
            # rank 0's state decides, as its parameters do: a replica that
            # was handed rank 0's fresh state (multi_node_snapshot) does
            # not update alone
            resumed = self.communicator.bcast_obj(self._resumed)
            object.__setattr__(self, '_resumed', False)
            if not resumed:
                return  # a fresh start: this step only makes ranks equal
        object.__setattr__(self, '_resumed', False)
        comm = self.communicator
        comm.multi_node_mean_grad(target, self.zero_fill)
        if self._updated and _sharded_update.applies(actual, comm):
            _sharded_update.update(actual, comm, self._resident)
        else:
            _sharded_update.detach(self._resident, target.params())
            actual.update(None)
            object.__setattr__(self, '_updated', True)

    def serialize(self, serializer):
        """Saves or loads the wrapped optimizer's state.

        After a load, the next :meth:`update` broadcasts rank 0's
        parameters (as a first update does) and then updates as usual.
        """
        self.actual_optimizer.serialize(serializer)
        if isinstance(serializer, serializer_module.Deserializer):
            object.__setattr__(self, '_resumed', True)

    def _layout(self):
        return sorted(
            name
            for name, param in self.actual_optimizer.target.namedparams()
            if param.data is not None
        )

    def mark_broadcast(self):
        """Records the parameters as equal on every rank (no broadcast next)."""
        object.__setattr__(self, '_broadcast_layout', self._layout())
        object.__setattr__(self, '_updated', False)

    def __getattr__(self, name):
        return getattr(self.actual_optimizer, name)

    def __setattr__(self, name, value):
        setattr(self.actual_optimizer, name, value)


def create_multi_node_optimizer(
    actual_optimizer, communicator, double_buffering=False, zero_fill=True
):
    """Makes ``actual_optimizer`` average gradients over ``communicator``.

    Args:
        actual_optimizer (chainer.Optimizer): The optimizer that updates.
        communicator: A ChainerMN communicator.
        double_buffering (bool): Overlap the exchange with the next step;
            only the ``pure_nccl`` communicator supports it.
        zero_fill (bool): A parameter without a gradient on some rank takes
            part as zeros (so that every rank sends the same buffer).

    Returns:
        An optimizer whose first ``update()`` broadcasts rank 0's
        parameters and whose later updates use the mean gradient.
    """
    # imported here: importing chainermn does not initialize MPI
    from chainerlite.chainermn.communicators import pure_nccl_communicator

    if double_buffering and not isinstance(
        communicator, pure_nccl_communicator.PureNcclCommunicator
    ):
        raise ValueError(
            'create_multi_node_optimizer: double_buffering needs the '
            'pure_nccl communicator, not {}'.format(type(communicator).__name__)
        )
    return _MultiNodeOptimizer(actual_optimizer, communicator, zero_fill)
