"""Stochastic gradient descent with momentum."""

from chainerlite.optimizers import _kernels
from chainerlite.optimizers import _momentum

_default_hyperparam = _momentum.default_hyperparam()


class MomentumSGDRule(_momentum.MomentumRule):
    """Update rule of momentum SGD.

    With the velocity ``v`` (state ``'v'``, zeros at first):
    ``v = momentum * v - lr * grad`` then ``param += v``.

    Args:
        parent_hyperparam (~chainerlite.optimizer.Hyperparameter): Parent
            hyperparameter; the defaults of :class:`MomentumSGD` when
            ``None``.
        lr (float): Learning rate; the parent's when ``None``.
        momentum (float): Exponential decay rate of the velocity; the
            parent's when ``None``.

    """

    _default_hyperparam = _default_hyperparam

    def update_core_cpu(self, param):
        hp = self.hyperparam
        v = self.state['v']
        v *= hp.momentum
        v -= hp.lr * param.grad
        array = param.array
        array += v

    def update_core_gpu(self, param):
        # one fused kernel
        hp = self.hyperparam
        _kernels.run(
            self,
            _kernels.momentum_sgd,
            param.grad,
            hp.lr,
            hp.momentum,
            param.array,
            self.state['v'],
        )


class MomentumSGD(_momentum.MomentumMethod):
    """Stochastic gradient descent with (heavy-ball) momentum.

    Args:
        lr (float): Learning rate.
        momentum (float): Exponential decay rate of the velocity.

    """

    _rule_class = MomentumSGDRule
