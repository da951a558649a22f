"""Momentum SGD with the learning rate applied after the velocity."""

from chainerlite import optimizer
from chainerlite.optimizers import _momentum

_default_hyperparam = _momentum.default_hyperparam()


class CorrectedMomentumSGDRule(_momentum.MomentumRule):
    """Update rule of the corrected momentum SGD.

    With the velocity ``v`` (state ``'v'``, zeros at first):
    ``v = momentum * v - grad`` then ``param += lr * v``. Unlike
    :class:`~chainerlite.optimizers.MomentumSGD`, the velocity does not
    carry the learning rate, so changing ``lr`` during training changes
    the next step at once (Goyal et al., 2017).

    Args:
        parent_hyperparam (~chainerlite.optimizer.Hyperparameter): Parent
            hyperparameter; the defaults of :class:`CorrectedMomentumSGD`
            when ``None``.
        lr (float): Learning rate; the parent's when ``None``.
        momentum (float): Exponential decay rate of the velocity; the
            parent's when ``None``.

    """

    _default_hyperparam = _default_hyperparam

    @optimizer.skips_missing
    def update_core_cpu(self, param):
        hp = self.hyperparam
        v = self.state['v']
        v *= hp.momentum
        v -= param.grad
        array = param.array
        array += hp.lr * v


class CorrectedMomentumSGD(_momentum.MomentumMethod):
    """Momentum SGD whose velocity does not include the learning rate.

    Args:
        lr (float): Learning rate.
        momentum (float): Exponential decay rate of the velocity.

    """

    _rule_class = CorrectedMomentumSGDRule
