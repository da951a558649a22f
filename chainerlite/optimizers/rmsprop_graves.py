"""Alex Graves's RMSprop."""

from __future__ import annotations

from chainerlite import optimizer
from chainerlite.optimizers import _rule

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 1e-4
_default_hyperparam.alpha = 0.95
_default_hyperparam.momentum = 0.9
_default_hyperparam.eps = 1e-4


class RMSpropGravesRule(_rule.ArrayRule):
    """Update rule of Graves's RMSprop (arXiv:1308.0850, eq. 38-41).

    With the running means of squared gradients ``n`` and of gradients
    ``g``, and the step ``delta`` (states, zeros at first)::

        n = alpha * n + (1 - alpha) * grad ** 2
        g = alpha * g + (1 - alpha) * grad
        delta = momentum * delta - lr * grad / sqrt(n - g ** 2 + eps)
        param += delta

    Args:
        parent_hyperparam (~chainerlite.optimizer.Hyperparameter): Parent
            hyperparameter; the defaults of :class:`RMSpropGraves` when
            ``None``.
        lr, alpha, momentum, eps (float): Overrides of the hyperparameters
            (see :class:`RMSpropGraves`); the parent's when ``None``.

    """

    _default_hyperparam = _default_hyperparam

    def __init__(
        self,
        parent_hyperparam=None,
        lr: float | None = None,
        alpha: float | None = None,
        momentum: float | None = None,
        eps: float | None = None,
    ) -> None:
        super().__init__(
            parent_hyperparam, lr=lr, alpha=alpha, momentum=momentum, eps=eps
        )

    def init_state(self, param):
        self.zeros_state(param, 'n', 'g', 'delta')

    @optimizer.skips_missing
    def update_core_cpu(self, param):
        grad, hp = self.grad_and_hyperparam(param)
        xp = param.xp
        n, g, delta = self.state['n'], self.state['g'], self.state['delta']
        n *= hp.alpha
        n += (1 - hp.alpha) * grad * grad
        g *= hp.alpha
        g += (1 - hp.alpha) * grad
        delta *= hp.momentum
        delta -= hp.lr * grad / xp.sqrt(n - g * g + hp.eps)
        array = param.array
        array += delta.astype(array.dtype, copy=False)


class RMSpropGraves(_rule.ArrayMethod):
    """Alex Graves's RMSprop (see :class:`RMSpropGravesRule`).

    Args:
        lr (float): Learning rate.
        alpha (float): Decay rate of the running means.
        momentum (float): Exponential decay rate of the step.
        eps (float): Small value for numerical stability.

    """

    _rule_class = RMSpropGravesRule

    lr = optimizer.HyperparameterProxy('lr')
    alpha = optimizer.HyperparameterProxy('alpha')
    momentum = optimizer.HyperparameterProxy('momentum')
    eps = optimizer.HyperparameterProxy('eps')

    def __init__(
        self,
        lr: float = _default_hyperparam.lr,
        alpha: float = _default_hyperparam.alpha,
        momentum: float = _default_hyperparam.momentum,
        eps: float = _default_hyperparam.eps,
    ) -> None:
        super().__init__(lr=lr, alpha=alpha, momentum=momentum, eps=eps)
