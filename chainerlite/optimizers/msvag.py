"""M-SVAG: momentum with stochastic variance-adapted step factors."""

from __future__ import annotations

from chainerlite import optimizer
from chainerlite.optimizers import _rule

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.1
_default_hyperparam.beta = 0.9
_default_hyperparam.eta = 1.0
_default_hyperparam.weight_decay_rate = 0


def _rho(beta, t):
    # Ratio of the variance of the bias-corrected moving average of t
    # i.i.d. samples to the variance of one sample (Balles and Hennig,
    # 2018): 1 at the first step, (1 - beta) / (1 + beta) in the limit.
    bt = beta**t
    return (1 - beta) * (1 + bt) / ((1 + beta) * (1 - bt))


class MSVAGRule(_rule.ArrayRule):
    """Update rule of M-SVAG (Balles and Hennig, 2018).

    With the moments ``m``, ``v`` (states, zeros at first), step ``t`` and
    ``rho`` the variance factor of the moving average at ``t``::

        m = beta * m + (1 - beta) * grad
        v = beta * v + (1 - beta) * grad ** 2
        mt, vt = m / (1 - beta ** t), v / (1 - beta ** t)
        s = (vt - mt ** 2) / (1 - rho)    # 0 at the first step
        factor = mt ** 2 / (mt ** 2 + rho * s)   # 0 where mt is 0
        param -= eta * (lr * factor * mt + weight_decay_rate * param)

    Args:
        parent_hyperparam (~chainerlite.optimizer.Hyperparameter): Parent
            hyperparameter; the defaults of :class:`MSVAG` when ``None``.
        lr, beta, eta, weight_decay_rate (float): Overrides of the
            hyperparameters (see :class:`MSVAG`); the parent's when
            ``None``.

    """

    _default_hyperparam = _default_hyperparam

    def __init__(
        self,
        parent_hyperparam=None,
        lr: float | None = None,
        beta: float | None = None,
        eta: float | None = None,
        weight_decay_rate: float | None = None,
    ) -> None:
        super().__init__(
            parent_hyperparam,
            lr=lr,
            beta=beta,
            eta=eta,
            weight_decay_rate=weight_decay_rate,
        )

    def init_state(self, param):
        self.zeros_state(param, 'm', 'v')

    @optimizer.skips_missing
    def update_core_cpu(self, param):
        grad, hp = self.grad_and_hyperparam(param)
        xp = param.xp
        m, v = self.state['m'], self.state['v']
        m += (1 - hp.beta) * (grad - m)
        v += (1 - hp.beta) * (grad * grad - v)
        correction = 1 - hp.beta**self.t
        mt = m / correction
        mt2 = mt * mt
        rho = _rho(hp.beta, self.t)
        if rho < 1:
            noise = rho / (1 - rho) * xp.maximum(v / correction - mt2, 0)
        else:
            noise = xp.zeros_like(mt2)
        denom = mt2 + noise
        factor = mt2 / xp.where(denom > 0, denom, 1)
        array = param.array
        delta = hp.eta * (hp.lr * factor * mt + hp.weight_decay_rate * array)
        _rule.subtract(param, delta)


class MSVAG(_rule.ArrayMethod):
    """M-SVAG optimizer (see :class:`MSVAGRule` for the update).

    Args:
        lr (float): Learning rate.
        beta (float): Exponential decay rate of the moments.
        eta (float): Schedule multiplier.
        weight_decay_rate (float): Decoupled weight decay rate.

    """

    _rule_class = MSVAGRule

    lr = optimizer.HyperparameterProxy('lr')
    beta = optimizer.HyperparameterProxy('beta')
    eta = optimizer.HyperparameterProxy('eta')
    weight_decay_rate = optimizer.HyperparameterProxy('weight_decay_rate')

    def __init__(
        self,
        lr: float = _default_hyperparam.lr,
        beta: float = _default_hyperparam.beta,
        eta: float = _default_hyperparam.eta,
        weight_decay_rate: float = _default_hyperparam.weight_decay_rate,
    ) -> None:
        super().__init__(lr=lr, beta=beta, eta=eta, weight_decay_rate=weight_decay_rate)
