"""Batch normalization with statistics over the batches of all processes."""

import numpy

import chainerlite
from chainerlite import backend
from chainerlite import configuration
from chainerlite import function_node
from chainerlite.links.normalization import batch_normalization


def _reduced_axes(x):
    return (0,) + tuple(range(2, x.ndim))


def _channel_shape(x):
    return (1, x.shape[1]) + (1,) * (x.ndim - 2)


class MultiNodeBNFunction(function_node.FunctionNode):
    """Normalizes ``x`` by the mean and variance of the global batch.

    Forward allreduces the per-channel sums of ``x`` and ``x**2`` (and the
    sample count); backward allreduces the per-channel sums of ``gy`` and
    ``gy * xhat``, so that ``gx`` is the gradient of the sum of every
    rank's loss. The ``gamma``/``beta`` gradients are this rank's own
    (:meth:`multi_node_mean_grad` averages them).
    """

    def __init__(self, comm, eps):
        self.comm = comm
        self.eps = eps

    def forward(self, inputs):
        x, gamma, beta = inputs
        xp = backend.get_array_module(x)
        work = numpy.promote_types(x.dtype, numpy.float32)
        xw = x.astype(work, copy=False)
        axes = _reduced_axes(x)
        local = numpy.concatenate(
            [
                backend.CpuDevice().send(xw.sum(axis=axes)).astype(numpy.float64),
                backend.CpuDevice()
                .send((xw * xw).sum(axis=axes))
                .astype(numpy.float64),
                [x.size // x.shape[1]],
            ]
        )
        total = self.comm.allreduce(local)
        channels = x.shape[1]
        self.count = total[-1]
        mean = total[:channels] / self.count
        var = numpy.maximum(
            total[channels : 2 * channels] / self.count - mean * mean, 0
        )
        self.mean = xp.asarray(mean.astype(work))
        self.var = xp.asarray(var.astype(work))
        shape = _channel_shape(x)
        self.inv_std = (1.0 / xp.sqrt(self.var + self.eps)).astype(work)
        self.xhat = (xw - self.mean.reshape(shape)) * self.inv_std.reshape(shape)
        self.retain_inputs((1,))
        y = gamma.astype(work).reshape(shape) * self.xhat + beta.astype(work).reshape(
            shape
        )
        return (y.astype(x.dtype, copy=False),)

    def backward(self, indexes, grad_outputs):
        gamma = self.get_retained_inputs()[0].array
        gy = grad_outputs[0].array
        xp = backend.get_array_module(gy)
        work = self.xhat.dtype
        gyw = gy.astype(work, copy=False)
        axes = _reduced_axes(gy)
        gbeta = gyw.sum(axis=axes)
        ggamma = (gyw * self.xhat).sum(axis=axes)
        channels = gy.shape[1]
        total = self.comm.allreduce(
            numpy.concatenate(
                [
                    backend.CpuDevice().send(gbeta).astype(numpy.float64),
                    backend.CpuDevice().send(ggamma).astype(numpy.float64),
                ]
            )
        )
        shape = _channel_shape(gy)
        sum_gy = xp.asarray(total[:channels].astype(work)).reshape(shape)
        sum_gy_xhat = xp.asarray(total[channels:].astype(work)).reshape(shape)
        gx = (
            gamma.astype(work).reshape(shape)
            * self.inv_std.reshape(shape)
            * (gyw - (sum_gy + self.xhat * sum_gy_xhat) / self.count)
        )
        grads = (
            gx.astype(gy.dtype, copy=False),
            ggamma.astype(gamma.dtype, copy=False),
            gbeta.astype(gamma.dtype, copy=False),
        )
        return tuple(chainerlite.Variable(grads[i]) for i in indexes)


class MultiNodeBatchNormalization(batch_normalization.BatchNormalization):
    """Batch normalization whose batch is the union of every rank's batch.

    In training mode the mean and variance are those of all the processes'
    batches together (one allreduce forward, one backward), so training
    with ``n`` ranks of batch ``b`` normalizes as one process with batch
    ``n * b`` would. In test mode it uses the running averages, as
    :class:`chainer.links.BatchNormalization` does. Every rank must call it
    (forward and backward) the same number of times.

    Args:
        size (int): Number of channels (axis 1).
        comm: ChainerMN communicator.
        communication_backend (str): ``'mpi'`` or ``'auto'`` (``'nccl'``
            needs the pure_nccl communicator).
        Other arguments: as :class:`chainer.links.BatchNormalization`.
    """

    def __init__(
        self,
        size,
        comm,
        decay=0.9,
        eps=2e-5,
        dtype=None,
        use_gamma=True,
        use_beta=True,
        initial_gamma=None,
        initial_beta=None,
        communication_backend='auto',
    ):
        if communication_backend not in ('mpi', 'nccl', 'auto'):
            raise ValueError(
                'MultiNodeBatchNormalization: unknown communication_backend '
                '{!r} (mpi, nccl or auto)'.format(communication_backend)
            )
        # imported here: importing chainermn does not initialize MPI
        from chainerlite.chainermn.communicators import pure_nccl_communicator

        if communication_backend == 'nccl' and not isinstance(
            comm, pure_nccl_communicator.PureNcclCommunicator
        ):
            raise ValueError(
                'MultiNodeBatchNormalization: communication_backend="nccl" '
                'needs the pure_nccl communicator, not {}'.format(type(comm).__name__)
            )
        super(MultiNodeBatchNormalization, self).__init__(
            size,
            decay=decay,
            eps=eps,
            dtype=dtype,
            use_gamma=use_gamma,
            use_beta=use_beta,
            initial_gamma=initial_gamma,
            initial_beta=initial_beta,
        )
        self.comm = comm
        self.communication_backend = communication_backend

    def forward(self, x, finetune=False):
        if not configuration.config.train:
            return super(MultiNodeBatchNormalization, self).forward(x)
        xp = self.xp
        gamma, beta = self.gamma, self.beta
        if gamma is None:
            gamma = xp.ones(self.avg_mean.shape, self._dtype)
        if beta is None:
            beta = xp.zeros(self.avg_mean.shape, self._dtype)
        func = MultiNodeBNFunction(self.comm, self.eps)
        (y,) = func.apply((x, gamma, beta))
        if not configuration.config.in_recomputing:
            decay = self.decay
            if finetune:
                self.N += 1
                decay = 1.0 - 1.0 / self.N
            unbiased = func.count / max(func.count - 1.0, 1.0)
            self.avg_mean *= decay
            self.avg_mean += (1 - decay) * func.mean.astype(self.avg_mean.dtype)
            self.avg_var *= decay
            self.avg_var += (1 - decay) * unbiased * func.var.astype(self.avg_var.dtype)
        return y
