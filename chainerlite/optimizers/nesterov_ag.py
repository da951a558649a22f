"""Nesterov's accelerated gradient."""

from chainerlite import optimizer

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.01
_default_hyperparam.momentum = 0.9


class NesterovAGRule(optimizer.UpdateRule):
    """Update rule of Nesterov's accelerated gradient.

    With the velocity ``v`` (state ``'v'``, zeros at first) and
    ``mu = momentum``: ``v = mu * v - lr * grad``, then
    ``param += mu * mu * v - (1 + mu) * lr * grad``, the reformulation of
    Sutskever et al. (2013) where ``param`` is the look-ahead point.

    Args:
        parent_hyperparam (~chainerlite.optimizer.Hyperparameter): Parent
            hyperparameter; the defaults of :class:`NesterovAG` when
            ``None``.
        lr (float): Learning rate; the parent's when ``None``.
        momentum (float): Exponential decay rate of the velocity; the
            parent's when ``None``.

    """

    def __init__(self, parent_hyperparam=None, lr=None, momentum=None):
        super().__init__(parent_hyperparam or _default_hyperparam)
        if lr is not None:
            self.hyperparam.lr = lr
        if momentum is not None:
            self.hyperparam.momentum = momentum

    def init_state(self, param):
        self.state['v'] = param.xp.zeros_like(param.array)

    def update_core_cpu(self, param):
        hp = self.hyperparam
        grad = param.grad
        v = self.state['v']
        v *= hp.momentum
        v -= hp.lr * grad
        array = param.array
        array += hp.momentum * hp.momentum * v
        array -= (1 + hp.momentum) * hp.lr * grad

    def update_core_gpu(self, param):
        # The array code of update_core_cpu runs as is on CuPy arrays.
        self.update_core_cpu(param)


class NesterovAG(optimizer.GradientMethod):
    """Nesterov's accelerated gradient (Sutskever et al., 2013).

    Args:
        lr (float): Learning rate.
        momentum (float): Exponential decay rate of the velocity.

    """

    lr = optimizer.HyperparameterProxy('lr')
    momentum = optimizer.HyperparameterProxy('momentum')

    def __init__(self, lr=_default_hyperparam.lr,
                 momentum=_default_hyperparam.momentum):
        super().__init__()
        self.hyperparam.lr = lr
        self.hyperparam.momentum = momentum

    def create_update_rule(self):
        return NesterovAGRule(self.hyperparam)
