"""AdaDelta."""

from __future__ import annotations

from chainerlite import optimizer
from chainerlite.optimizers import _rule

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.rho = 0.95
_default_hyperparam.eps = 1e-6


class AdaDeltaRule(_rule.ArrayRule):
    """Update rule of Zeiler's AdaDelta.

    With the running means of squared gradients ``msg`` and of squared
    steps ``msdx`` (states, zeros at first)::

        msg = rho * msg + (1 - rho) * grad ** 2
        dx = sqrt((msdx + eps) / (msg + eps)) * grad
        msdx = rho * msdx + (1 - rho) * dx ** 2
        param -= dx

    Args:
        parent_hyperparam (~chainerlite.optimizer.Hyperparameter): Parent
            hyperparameter; the defaults of :class:`AdaDelta` when ``None``.
        rho (float): Decay rate of the running means; the parent's when
            ``None``.
        eps (float): Small value for numerical stability; the parent's
            when ``None``.

    """

    _default_hyperparam = _default_hyperparam

    def __init__(
        self, parent_hyperparam=None, rho: float | None = None, eps: float | None = None
    ) -> None:
        super().__init__(parent_hyperparam, rho=rho, eps=eps)

    def init_state(self, param):
        self.zeros_state(param, 'msg', 'msdx')

    @optimizer.skips_missing
    def update_core_cpu(self, param):
        grad, hp = self.grad_and_hyperparam(param)
        xp = param.xp
        msg, msdx = self.state['msg'], self.state['msdx']
        msg *= hp.rho
        msg += (1 - hp.rho) * grad * grad
        dx = xp.sqrt((msdx + hp.eps) / (msg + hp.eps)) * grad
        msdx *= hp.rho
        msdx += (1 - hp.rho) * dx * dx
        _rule.subtract(param, dx)


class AdaDelta(_rule.ArrayMethod):
    """Zeiler's AdaDelta (see :class:`AdaDeltaRule` for the update).

    Args:
        rho (float): Decay rate of the running means.
        eps (float): Small value for numerical stability.

    """

    _rule_class = AdaDeltaRule

    rho = optimizer.HyperparameterProxy('rho')
    eps = optimizer.HyperparameterProxy('eps')

    def __init__(
        self, rho: float = _default_hyperparam.rho, eps: float = _default_hyperparam.eps
    ) -> None:
        super().__init__(rho=rho, eps=eps)
