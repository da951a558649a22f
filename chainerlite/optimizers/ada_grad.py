"""AdaGrad."""

from __future__ import annotations

from chainerlite import backend
from chainerlite import optimizer
from chainerlite.optimizers import _kernels

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.001
_default_hyperparam.eps = 1e-8


class AdaGradRule(optimizer.UpdateRule):
    """Update rule of AdaGrad.

    With the sum of squared gradients ``h`` (state ``'h'``, zeros at
    first): ``h += grad ** 2`` then
    ``param -= lr * grad / (sqrt(h) + eps)``.

    Args:
        parent_hyperparam (~chainerlite.optimizer.Hyperparameter): Parent
            hyperparameter; the defaults of :class:`AdaGrad` when ``None``.
        lr (float): Learning rate; the parent's when ``None``.
        eps (float): Small value for numerical stability; the parent's
            when ``None``.

    """

    is_elementwise = True

    def __init__(
        self, parent_hyperparam=None, lr: float | None = None, eps: float | None = None
    ) -> None:
        super().__init__(parent_hyperparam or _default_hyperparam)
        if lr is not None:
            self.hyperparam.lr = lr
        if eps is not None:
            self.hyperparam.eps = eps

    def init_state(self, param):
        self.state['h'] = param.xp.zeros_like(param.array)

    @optimizer.skips_missing
    def update_core_cpu(self, param):
        xp = backend.get_array_module(param.array)
        hp = self.hyperparam
        grad = param.grad
        h = self.state['h']
        h += grad * grad
        array = param.array
        array -= hp.lr * grad / (xp.sqrt(h) + hp.eps)

    @optimizer.skips_missing
    def update_core_gpu(self, param):
        # one fused kernel
        hp = self.hyperparam
        _kernels.run(
            self,
            _kernels.ada_grad,
            param.grad,
            hp.lr,
            hp.eps,
            param.array,
            self.state['h'],
        )


class AdaGrad(optimizer.GradientMethod):
    """AdaGrad optimizer (Duchi et al., 2011).

    Args:
        lr (float): Learning rate.
        eps (float): Small value for numerical stability.

    """

    lr = optimizer.HyperparameterProxy('lr')
    eps = optimizer.HyperparameterProxy('eps')

    def __init__(
        self, lr: float = _default_hyperparam.lr, eps: float = _default_hyperparam.eps
    ) -> None:
        super().__init__()
        self.hyperparam.lr = lr
        self.hyperparam.eps = eps

    def create_update_rule(self):
        return AdaGradRule(self.hyperparam)
