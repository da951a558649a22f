"""Simon Funk's SMORMS3."""

from __future__ import annotations

from chainerlite import optimizer
from chainerlite.optimizers import _rule

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.001
_default_hyperparam.eps = 1e-16


class SMORMS3Rule(_rule.ArrayRule):
    """Update rule of SMORMS3.

    With the memory ``mem`` (state, ones at first) and the running means
    of gradients ``g`` and of squared gradients ``g2`` (zeros at first)::

        r = 1 / (mem + 1)
        g = (1 - r) * g + r * grad
        g2 = (1 - r) * g2 + r * grad ** 2
        x = g ** 2 / (g2 + eps)
        param -= grad * minimum(x, lr) / (sqrt(g2) + eps)
        mem = 1 + mem * (1 - x)

    Args:
        parent_hyperparam (~chainerlite.optimizer.Hyperparameter): Parent
            hyperparameter; the defaults of :class:`SMORMS3` when ``None``.
        lr (float): Learning rate; the parent's when ``None``.
        eps (float): Small value for numerical stability; the parent's
            when ``None``.

    """

    _default_hyperparam = _default_hyperparam

    def __init__(
        self, parent_hyperparam=None, lr: float | None = None, eps: float | None = None
    ) -> None:
        super().__init__(parent_hyperparam, lr=lr, eps=eps)

    def init_state(self, param):
        self.zeros_state(param, 'mem', 'g', 'g2')
        self.state['mem'] += 1

    @optimizer.skips_missing
    def update_core_cpu(self, param):
        grad, hp = self.grad_and_hyperparam(param)
        xp = param.xp
        mem, g, g2 = self.state['mem'], self.state['g'], self.state['g2']
        r = 1 / (mem + 1)
        # (1 - r) * g + r * grad in Chainer 7.8.1's order, so its bits
        keep = 1 - r
        g *= keep
        g += r * grad
        g2 *= keep
        g2 += r * grad * grad
        x = g * g / (g2 + hp.eps)
        _rule.subtract(param, grad * xp.minimum(x, hp.lr) / (xp.sqrt(g2) + hp.eps))
        mem *= 1 - x
        mem += 1


class SMORMS3(_rule.ArrayMethod):
    """Simon Funk's SMORMS3 (see :class:`SMORMS3Rule` for the update).

    Args:
        lr (float): Learning rate.
        eps (float): Small value for numerical stability.

    """

    _rule_class = SMORMS3Rule

    lr = optimizer.HyperparameterProxy('lr')
    eps = optimizer.HyperparameterProxy('eps')

    def __init__(
        self, lr: float = _default_hyperparam.lr, eps: float = _default_hyperparam.eps
    ) -> None:
        super().__init__(lr=lr, eps=eps)
