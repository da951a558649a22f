"""RMSprop."""

from __future__ import annotations

from chainerlite import backend
from chainerlite import optimizer
from chainerlite.optimizers import _kernels

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.01
_default_hyperparam.alpha = 0.99
_default_hyperparam.eps = 1e-8
_default_hyperparam.eps_inside_sqrt = False


def _checked_eps(hp, dtype):
    # eps in the gradient's dtype; a nonzero eps must not round to zero
    eps = dtype.type(hp.eps)
    if hp.eps != 0 and eps == 0:
        raise ValueError(
            'eps of RMSprop optimizer is too small for {} ({})'.format(
                dtype.name, hp.eps
            )
        )
    return eps


class RMSpropRule(optimizer.UpdateRule):
    """Update rule of RMSprop.

    With the running mean of squared gradients ``ms`` (state ``'ms'``,
    zeros at first): ``ms = alpha * ms + (1 - alpha) * grad ** 2`` then
    ``param -= lr * grad / (sqrt(ms) + eps)``, or
    ``/ sqrt(ms + eps)`` with ``eps_inside_sqrt``.

    Args:
        parent_hyperparam (~chainerlite.optimizer.Hyperparameter): Parent
            hyperparameter; the defaults of :class:`RMSprop` when ``None``.
        lr (float): Learning rate; the parent's when ``None``.
        alpha (float): Decay rate of the mean; the parent's when ``None``.
        eps (float): Small value for numerical stability; the parent's
            when ``None``.
        eps_inside_sqrt (bool): Where ``eps`` is added; the parent's when
            ``None``.

    Raises:
        ValueError: At the update, if a nonzero ``eps`` rounds to zero in
            the parameter's dtype (e.g. the default ``1e-8`` in float16).

    """

    is_elementwise = True

    def __init__(
        self,
        parent_hyperparam=None,
        lr: float | None = None,
        alpha: float | None = None,
        eps: float | None = None,
        eps_inside_sqrt: bool | None = None,
    ) -> None:
        super().__init__(parent_hyperparam or _default_hyperparam)
        for name, value in (
            ('lr', lr),
            ('alpha', alpha),
            ('eps', eps),
            ('eps_inside_sqrt', eps_inside_sqrt),
        ):
            if value is not None:
                setattr(self.hyperparam, name, value)

    def init_state(self, param):
        self.state['ms'] = param.xp.zeros_like(param.array)

    @optimizer.skips_missing
    def update_core_cpu(self, param):
        xp = backend.get_array_module(param.array)
        hp = self.hyperparam
        grad = param.grad
        eps = _checked_eps(hp, grad.dtype)
        ms = self.state['ms']
        ms *= hp.alpha
        ms += (1 - hp.alpha) * grad * grad
        if hp.eps_inside_sqrt:
            denom = xp.sqrt(ms + eps)
        else:
            denom = xp.sqrt(ms) + eps
        array = param.array
        array -= hp.lr * grad / denom

    @optimizer.skips_missing
    def update_core_gpu(self, param):
        # one fused kernel
        hp = self.hyperparam
        grad = param.grad
        _checked_eps(hp, grad.dtype)
        _kernels.run(
            self,
            _kernels.rmsprop,
            grad,
            hp.lr,
            hp.alpha,
            hp.eps,
            bool(hp.eps_inside_sqrt),
            param.array,
            self.state['ms'],
        )


class RMSprop(optimizer.GradientMethod):
    """RMSprop optimizer (Tieleman and Hinton, 2012).

    Args:
        lr (float): Learning rate.
        alpha (float): Decay rate of the running mean of squared gradients.
        eps (float): Small value for numerical stability.
        eps_inside_sqrt (bool): Add ``eps`` inside the square root, as
            some other frameworks do, instead of after it.

    """

    lr = optimizer.HyperparameterProxy('lr')
    alpha = optimizer.HyperparameterProxy('alpha')
    eps = optimizer.HyperparameterProxy('eps')
    eps_inside_sqrt = optimizer.HyperparameterProxy('eps_inside_sqrt')

    def __init__(
        self,
        lr: float = _default_hyperparam.lr,
        alpha: float = _default_hyperparam.alpha,
        eps: float = _default_hyperparam.eps,
        eps_inside_sqrt: bool = _default_hyperparam.eps_inside_sqrt,
    ) -> None:
        super().__init__()
        self.hyperparam.lr = lr
        self.hyperparam.alpha = alpha
        self.hyperparam.eps = eps
        self.hyperparam.eps_inside_sqrt = eps_inside_sqrt

    def create_update_rule(self):
        return RMSpropRule(self.hyperparam)
