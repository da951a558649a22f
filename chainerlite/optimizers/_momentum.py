"""Bases shared by the optimizers with a velocity (momentum SGD, NAG)."""

from __future__ import annotations

from chainerlite import optimizer

_LR = 0.01
_MOMENTUM = 0.9


def default_hyperparam():
    """Returns new defaults: ``lr=0.01``, ``momentum=0.9``."""
    hyperparam = optimizer.Hyperparameter()
    hyperparam.lr = _LR
    hyperparam.momentum = _MOMENTUM
    return hyperparam


class MomentumRule(optimizer.UpdateRule):
    """Update rule with ``lr``, ``momentum`` and a velocity state ``'v'``.

    A subclass sets ``_default_hyperparam`` (used when no parent is given)
    and implements ``update_core_cpu``, which runs as is on CuPy arrays.
    """

    is_elementwise = True

    _default_hyperparam = None

    def __init__(
        self,
        parent_hyperparam=None,
        lr: float | None = None,
        momentum: float | None = None,
    ) -> None:
        super().__init__(parent_hyperparam or self._default_hyperparam)
        if lr is not None:
            self.hyperparam.lr = lr
        if momentum is not None:
            self.hyperparam.momentum = momentum

    def init_state(self, param):
        self.state['v'] = param.xp.zeros_like(param.array)

    @optimizer.skips_missing
    def update_core_gpu(self, param):
        self.update_core_cpu(param)


class MomentumMethod(optimizer.GradientMethod):
    """Gradient method with ``lr`` and ``momentum``.

    A subclass names its update rule class (``_rule_class``).
    """

    _rule_class = None

    lr = optimizer.HyperparameterProxy('lr')
    momentum = optimizer.HyperparameterProxy('momentum')

    def __init__(self, lr: float = _LR, momentum: float = _MOMENTUM) -> None:
        super().__init__()
        self.hyperparam.lr = lr
        self.hyperparam.momentum = momentum

    def create_update_rule(self):
        return self._rule_class(self.hyperparam)
