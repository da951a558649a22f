"""Nesterov's accelerated gradient."""

from chainerlite import optimizer
from chainerlite.optimizers import _momentum

_default_hyperparam = _momentum.default_hyperparam()


class NesterovAGRule(_momentum.MomentumRule):
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

    _default_hyperparam = _default_hyperparam

    @optimizer.skips_missing
    def update_core_cpu(self, param):
        hp = self.hyperparam
        grad = param.grad
        v = self.state['v']
        v *= hp.momentum
        v -= hp.lr * grad
        array = param.array
        array += hp.momentum * hp.momentum * v
        array -= (1 + hp.momentum) * hp.lr * grad


class NesterovAG(_momentum.MomentumMethod):
    """Nesterov's accelerated gradient (Sutskever et al., 2013).

    Args:
        lr (float): Learning rate.
        momentum (float): Exponential decay rate of the velocity.

    """

    _rule_class = NesterovAGRule
