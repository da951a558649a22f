"""Stochastic gradient descent with momentum."""

from chainerlite._kernels import optim
from chainerlite import optimizer
from chainerlite.optimizers import _kernels
from chainerlite.optimizers import _momentum

_default_hyperparam = _momentum.default_hyperparam()
# elements of a large parameter updated per pass on the CPU
_CHUNK = 1 << 16


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

    @optimizer.skips_missing
    def update_core_cpu(self, param):
        hp = self.hyperparam
        v, grad, array = self.state['v'], param.grad, param.array
        if optim.momentum_sgd(array, grad, v, hp.lr, hp.momentum) is not None:
            return  # the operations below in one compiled pass
        if v.size > _CHUNK and all(a.flags.c_contiguous for a in (v, grad, array)):
            # the same operations a piece at a time, so that each piece of
            # v is still in cache when the next operation reads it
            v, grad, array = v.reshape(-1), grad.reshape(-1), array.reshape(-1)
            pieces = [slice(i, i + _CHUNK) for i in range(0, v.size, _CHUNK)]
        else:
            pieces = [Ellipsis]
        for piece in pieces:
            v_piece = v[piece]
            v_piece *= hp.momentum
            v_piece -= hp.lr * grad[piece]
            array[piece] += v_piece

    @optimizer.skips_missing
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
