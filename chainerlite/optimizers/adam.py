"""Adam and its variants (AdamW, AMSGrad, AdaBound, AMSBound)."""

from __future__ import annotations

import math

import numpy

from chainerlite import backend
from chainerlite import optimizer
from chainerlite._kernels import optim
from chainerlite.optimizers import _kernels

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.alpha = 0.001
_default_hyperparam.beta1 = 0.9
_default_hyperparam.beta2 = 0.999
_default_hyperparam.eps = 1e-8
_default_hyperparam.eta = 1.0
_default_hyperparam.weight_decay_rate = 0
_default_hyperparam.amsgrad = False
_default_hyperparam.adabound = False
_default_hyperparam.final_lr = 0.1
_default_hyperparam.gamma = 1e-3

_NAMES = (
    'alpha',
    'beta1',
    'beta2',
    'eps',
    'eta',
    'weight_decay_rate',
    'amsgrad',
    'adabound',
    'final_lr',
    'gamma',
)


def _intermediate_dtype(dtype):
    # The dtype of the computation: float32 for float16 parameters, whose
    # moments stay float16 (as Chainer 7.8.1's).
    return numpy.dtype(numpy.float32 if dtype == numpy.float16 else dtype)


def _check_eps(hp, dtype):
    if hp.eps != 0 and dtype.type(hp.eps) == 0:
        raise ValueError(
            'eps of Adam optimizer is too small for {} ({})'.format(dtype.name, hp.eps)
        )


def _decay_and_step(array, hp, update):
    # array = (1 - eta * wd) * array - eta * update in Chainer 7.8.1's order
    # and dtypes (a float16 array is scaled in float16, the float32 update
    # added in float32 and rounded once), so the bits are Chainer's
    keep = 1.0 - hp.eta * hp.weight_decay_rate
    if keep == 1:
        array += -hp.eta * update
    else:
        array[...] = keep * array + -hp.eta * update


def _learning_rate(hp, t):
    if t == 0:
        raise RuntimeError(
            'Can\'t determine the learning rate of Adam optimizer because '
            'the update steps have not been started.'
        )
    fix1 = 1.0 - math.pow(hp.beta1, t)
    fix2 = 1.0 - math.pow(hp.beta2, t)
    return hp.alpha * math.sqrt(fix2) / fix1


class AdamRule(optimizer.UpdateRule):
    """Update rule of Adam and its variants.

    With the moments ``m``, ``v`` (states, zeros at first) and the step
    number ``t``::

        m += (1 - beta1) * (grad - m)
        v += (1 - beta2) * (grad ** 2 - v)
        vhat = max(vhat, v) if amsgrad else v      # state 'vhat'
        step = lr / (sqrt(vhat) + eps)             # lr: see the property
        step = clip(step, lower, upper) if adabound
        param -= eta * (step * m + weight_decay_rate * param)

    With AdaBound, ``lower = f * (1 - 1 / (gamma * t + 1))`` and
    ``upper = f * (1 + 1 / (gamma * t))``, where ``f`` is ``final_lr``
    times the ratio of the current ``alpha`` to its value at the first
    update (so that schedules of ``alpha`` also move the bounds). The
    moments of a float16 parameter, and the computation, are in float32.

    Args:
        parent_hyperparam (~chainerlite.optimizer.Hyperparameter): Parent
            hyperparameter; the defaults of :class:`Adam` when ``None``.
        alpha, beta1, beta2, eps, eta, weight_decay_rate, amsgrad,
        adabound, final_lr, gamma: Overrides of the hyperparameters (see
            :class:`Adam`); the parent's values when ``None``.

    Raises:
        ValueError: At the update, if a nonzero ``eps`` rounds to zero in
            the dtype of the computation.

    """

    is_elementwise = True

    def __init__(
        self,
        parent_hyperparam=None,
        alpha: float | None = None,
        beta1: float | None = None,
        beta2: float | None = None,
        eps: float | None = None,
        eta: float | None = None,
        weight_decay_rate: float | None = None,
        amsgrad: bool | None = None,
        adabound: bool | None = None,
        final_lr: float | None = None,
        gamma: float | None = None,
    ) -> None:
        super().__init__(parent_hyperparam or _default_hyperparam)
        values = (
            alpha,
            beta1,
            beta2,
            eps,
            eta,
            weight_decay_rate,
            amsgrad,
            adabound,
            final_lr,
            gamma,
        )
        for name, value in zip(_NAMES, values):
            if value is not None:
                setattr(self.hyperparam, name, value)
        self.initial_alpha = None

    def init_state(self, param):
        xp = backend.get_array_module(param.array)
        self.state['m'] = xp.zeros_like(param.array)
        self.state['v'] = xp.zeros_like(param.array)
        if self.hyperparam.amsgrad:
            self.state['vhat'] = xp.zeros_like(param.array)

    @property
    def lr(self):
        """float: Bias-corrected learning rate at step :attr:`t`,
        ``alpha * sqrt(1 - beta2 ** t) / (1 - beta1 ** t)``."""
        return _learning_rate(self.hyperparam, self.t)

    @property
    def alpha_t(self):
        """float: Same as :attr:`lr`."""
        return self.lr

    @optimizer.skips_missing
    def update_core_cpu(self, param):
        xp = backend.get_array_module(param.array)
        hp = self.hyperparam
        dtype = _intermediate_dtype(param.dtype)
        _check_eps(hp, dtype)
        m, v = self.state['m'], self.state['v']
        if (
            not (hp.amsgrad or hp.adabound)
            and optim.adam(
                param.array,
                param.grad,
                m,
                v,
                1 - hp.beta1,
                1 - hp.beta2,
                self.lr,
                hp.eps,
                hp.eta,
                hp.weight_decay_rate,
            )
            is not None
        ):
            return  # the expressions below in one compiled pass
        grad = param.grad.astype(dtype, copy=False)
        m += (1 - hp.beta1) * (grad - m)
        v += (1 - hp.beta2) * (grad * grad - v)
        vhat = v
        if hp.amsgrad:
            vhat = self.state['vhat']
            xp.maximum(vhat, v, out=vhat)
        step = self.lr / (xp.sqrt(vhat.astype(dtype, copy=False)) + hp.eps)
        if hp.adabound:
            step = xp.clip(step, *self._bounds())
        _decay_and_step(param.array, hp, step * m)

    @optimizer.skips_missing
    def update_core_gpu(self, param):
        # one fused kernel
        hp = self.hyperparam
        _check_eps(hp, _intermediate_dtype(param.dtype))
        lower, upper = self._bounds() if hp.adabound else (0.0, math.inf)
        args = (
            param.grad,
            self.lr,
            1 - hp.beta1,
            1 - hp.beta2,
            hp.eps,
            hp.eta,
            hp.weight_decay_rate,
            lower,
            upper,
            param.array,
            self.state['m'],
            self.state['v'],
        )
        if hp.amsgrad:
            _kernels.run(self, _kernels.adam_amsgrad, *args, self.state['vhat'])
        else:
            _kernels.run(self, _kernels.adam, *args)

    @property
    def bounds(self):
        """``(lower, upper)``: AdaBound's clip range of the step at the
        current update count ``t``.

        Raises:
            RuntimeError: Before the first update (``t == 0``).
        """
        if self.t == 0:
            raise RuntimeError(
                "AdamRule.bounds: can't determine the bounds of AdaBound "
                'optimizer because the update steps have not been started'
            )
        return self._bounds()

    def _bounds(self):
        hp = self.hyperparam
        if self.initial_alpha is None:
            self.initial_alpha = hp.alpha
        final_lr = hp.final_lr * hp.alpha / self.initial_alpha
        lower = final_lr * (1.0 - 1.0 / (hp.gamma * self.t + 1))
        upper = final_lr * (1.0 + 1.0 / (hp.gamma * self.t))
        return lower, upper


class Adam(optimizer.GradientMethod):
    """Adam optimizer (Kingma and Ba, 2015), with its variants as options.

    ``eta`` and ``weight_decay_rate`` give AdamW's decoupled weight decay
    (Loshchilov and Hutter); with their defaults this is plain Adam.
    ``amsgrad`` gives AMSGrad (Reddi et al.), ``adabound`` AdaBound (Luo et
    al.), and both together AMSBound. See :class:`AdamRule` for the update.

    Args:
        alpha (float): Coefficient of the learning rate.
        beta1 (float): Exponential decay rate of the first moment.
        beta2 (float): Exponential decay rate of the second moment.
        eps (float): Small value for numerical stability.
        eta (float): Schedule multiplier (e.g. for warm restarts).
        weight_decay_rate (float): Decoupled weight decay rate.
        amsgrad (bool): Use the AMSGrad variant.
        adabound (bool): Use the AdaBound variant.
        final_lr (float): Final (SGD) learning rate of AdaBound.
        gamma (float): Convergence speed of AdaBound's bounds.

    """

    alpha = optimizer.HyperparameterProxy('alpha')
    beta1 = optimizer.HyperparameterProxy('beta1')
    beta2 = optimizer.HyperparameterProxy('beta2')
    eps = optimizer.HyperparameterProxy('eps')
    eta = optimizer.HyperparameterProxy('eta')
    weight_decay_rate = optimizer.HyperparameterProxy('weight_decay_rate')
    amsgrad = optimizer.HyperparameterProxy('amsgrad')
    adabound = optimizer.HyperparameterProxy('adabound')
    final_lr = optimizer.HyperparameterProxy('final_lr')
    gamma = optimizer.HyperparameterProxy('gamma')

    def __init__(
        self,
        alpha: float = _default_hyperparam.alpha,
        beta1: float = _default_hyperparam.beta1,
        beta2: float = _default_hyperparam.beta2,
        eps: float = _default_hyperparam.eps,
        eta: float = _default_hyperparam.eta,
        weight_decay_rate: float = _default_hyperparam.weight_decay_rate,
        amsgrad: bool = _default_hyperparam.amsgrad,
        adabound: bool = _default_hyperparam.adabound,
        final_lr: float = _default_hyperparam.final_lr,
        gamma: float = _default_hyperparam.gamma,
    ) -> None:
        super().__init__()
        values = (
            alpha,
            beta1,
            beta2,
            eps,
            eta,
            weight_decay_rate,
            amsgrad,
            adabound,
            final_lr,
            gamma,
        )
        for name, value in zip(_NAMES, values):
            setattr(self.hyperparam, name, value)

    def create_update_rule(self):
        return AdamRule(self.hyperparam)

    @property
    def lr(self):
        """float: Bias-corrected learning rate at step :attr:`t`.

        Raises:
            RuntimeError: Before the first update (``t == 0``).

        """
        return _learning_rate(self.hyperparam, self.t)

    @property
    def alpha_t(self):
        """float: Same as :attr:`lr`."""
        return self.lr


class AdamW(Adam):
    """Adam with decoupled weight decay (see :class:`Adam`)."""

    def __init__(
        self,
        alpha: float = _default_hyperparam.alpha,
        beta1: float = _default_hyperparam.beta1,
        beta2: float = _default_hyperparam.beta2,
        eps: float = _default_hyperparam.eps,
        eta: float = _default_hyperparam.eta,
        weight_decay_rate: float = _default_hyperparam.weight_decay_rate,
    ) -> None:
        super().__init__(
            alpha=alpha,
            beta1=beta1,
            beta2=beta2,
            eps=eps,
            eta=eta,
            weight_decay_rate=weight_decay_rate,
        )


class AMSGrad(Adam):
    """Adam with ``amsgrad=True`` (see :class:`Adam`)."""

    def __init__(
        self,
        alpha: float = _default_hyperparam.alpha,
        beta1: float = _default_hyperparam.beta1,
        beta2: float = _default_hyperparam.beta2,
        eps: float = _default_hyperparam.eps,
        eta: float = _default_hyperparam.eta,
    ) -> None:
        super().__init__(
            alpha=alpha, beta1=beta1, beta2=beta2, eps=eps, eta=eta, amsgrad=True
        )


class AdaBound(Adam):
    """Adam with ``adabound=True`` (see :class:`Adam`)."""

    def __init__(
        self,
        alpha: float = _default_hyperparam.alpha,
        beta1: float = _default_hyperparam.beta1,
        beta2: float = _default_hyperparam.beta2,
        final_lr: float = _default_hyperparam.final_lr,
        gamma: float = _default_hyperparam.gamma,
        eps: float = _default_hyperparam.eps,
        eta: float = _default_hyperparam.eta,
    ) -> None:
        super().__init__(
            alpha=alpha,
            beta1=beta1,
            beta2=beta2,
            eps=eps,
            eta=eta,
            adabound=True,
            final_lr=final_lr,
            gamma=gamma,
        )


class AMSBound(Adam):
    """Adam with ``amsgrad=True`` and ``adabound=True`` (see
    :class:`Adam`)."""

    def __init__(
        self,
        alpha: float = _default_hyperparam.alpha,
        beta1: float = _default_hyperparam.beta1,
        beta2: float = _default_hyperparam.beta2,
        final_lr: float = _default_hyperparam.final_lr,
        gamma: float = _default_hyperparam.gamma,
        eps: float = _default_hyperparam.eps,
        eta: float = _default_hyperparam.eta,
    ) -> None:
        super().__init__(
            alpha=alpha,
            beta1=beta1,
            beta2=beta2,
            eps=eps,
            eta=eta,
            amsgrad=True,
            adabound=True,
            final_lr=final_lr,
            gamma=gamma,
        )
