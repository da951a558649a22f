"""L2 regularization hook."""

from __future__ import annotations

from chainerlite.backends import cuda
from chainerlite.optimizer_hooks import _kernels


class WeightDecay:
    """Optimizer/UpdateRule hook that adds L2 regularization.

    Adds ``rate * param`` to the gradient of each parameter, which is the
    gradient of ``rate / 2 * ||param||^2``.

    Args:
        rate (float): Coefficient of the weight decay.

    Attributes:
        rate (float): Coefficient of the weight decay.
        timing (str): ``'pre'``: the hook runs before the update.
        name (str): Default registration name, ``'WeightDecay'``.
        call_for_each_param (bool): ``True``: called as
            ``hook(rule, param)``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite as chainer
        >>> from chainerlite import optimizer_hooks, optimizers
        >>> model = chainer.Link()
        >>> with model.init_scope():
        ...     model.w = chainer.Parameter(np.array([2.0]))
        >>> opt = optimizers.SGD(lr=1.0).setup(model)
        >>> opt.add_hook(optimizer_hooks.WeightDecay(0.25))
        >>> model.w.grad = np.array([0.0])
        >>> opt.update()
        >>> model.w.array
        array([1.5])

    """

    name = 'WeightDecay'
    call_for_each_param = True
    timing = 'pre'

    def __init__(self, rate: float) -> None:
        self.rate = rate

    def __call__(self, rule, param):
        p, g = param.array, param.grad
        if p is None or g is None:
            return
        rate = self.rate
        loss_scale = param._loss_scale
        if loss_scale is not None:
            # the gradient is still multiplied by the loss scale (an
            # optimizer's hook runs before the update rule divides it): so
            # is the decay, as in Chainer, which the division then undoes
            rate *= loss_scale
        if isinstance(g, cuda.ndarray):
            _kernels.weight_decay(p, rate, g)
            return
        g += rate * p
