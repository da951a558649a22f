"""Stochastic gradient descent."""

from __future__ import annotations

from chainerlite import optimizer
from chainerlite._kernels import optim
from chainerlite.optimizers import _kernels

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.01


class SGDRule(optimizer.UpdateRule):
    """Update rule of vanilla SGD: ``param -= lr * grad``.

    Args:
        parent_hyperparam (~chainerlite.optimizer.Hyperparameter): Parent
            hyperparameter; the defaults of :class:`SGD` when ``None``.
        lr (float): Learning rate; the parent's when ``None``.

    """

    is_elementwise = True

    def __init__(self, parent_hyperparam=None, lr: float | None = None) -> None:
        super().__init__(parent_hyperparam or _default_hyperparam)
        if lr is not None:
            self.hyperparam.lr = lr

    @optimizer.skips_missing
    def update_core_cpu(self, param):
        array, lr = param.array, self.hyperparam.lr
        if optim.sgd(array, param.grad, lr) is None:  # else done in one pass
            array -= lr * param.grad

    @optimizer.skips_missing
    def update_core_gpu(self, param):
        # one fused kernel
        _kernels.run(self, _kernels.sgd, param.grad, self.hyperparam.lr, param.array)


class SGD(optimizer.GradientMethod):
    """Vanilla stochastic gradient descent.

    Args:
        lr (float): Learning rate.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite as chainer
        >>> from chainerlite import optimizers
        >>> model = chainer.Link()
        >>> with model.init_scope():
        ...     model.w = chainer.Parameter(np.array([1.0, 2.0]))
        >>> opt = optimizers.SGD(lr=0.5).setup(model)
        >>> model.w.grad = np.array([1.0, -1.0])
        >>> opt.update()
        >>> model.w.array
        array([0.5, 2.5])

    """

    lr = optimizer.HyperparameterProxy('lr')

    def __init__(self, lr: float = _default_hyperparam.lr) -> None:
        super().__init__()
        self.hyperparam.lr = lr

    def create_update_rule(self):
        return SGDRule(self.hyperparam)
