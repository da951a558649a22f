"""Hook that adds annealed Gaussian noise to the gradients."""

from __future__ import annotations

import numpy
import typing


def exponential_decay_noise(xp, shape, dtype, hook, opt):
    """Draws Gaussian noise whose variance decays with the update count.

    The standard deviation is ``sqrt(hook.eta / (1 + opt.t) ** 0.55)``
    (Neelakantan et al., 2015).

    Args:
        xp (module): ``numpy`` or ``cupy``.
        shape (tuple of int): Shape of the noise.
        dtype: Dtype of the noise.
        hook (GradientNoise): The hook (for ``eta``).
        opt: The update rule (or optimizer) whose ``t`` counts the updates.

    Returns:
        numpy.ndarray or cupy.ndarray: The noise.

    """
    std = numpy.sqrt(hook.eta / numpy.power(1 + opt.t, 0.55))
    return xp.random.normal(0, std, shape).astype(dtype)


class GradientNoise:
    """Optimizer/UpdateRule hook that adds noise to each gradient.

    Args:
        eta (float): Scale of the noise (its variance at the first update).
        noise_func (callable): Called as ``noise_func(xp, shape, dtype,
            hook, rule)`` for each parameter; it returns the noise to add.
            :func:`exponential_decay_noise` by default.

    Attributes:
        eta (float): Scale of the noise.
        noise_func (callable): The noise function.
        timing (str): ``'pre'``: the hook runs before the update.
        name (str): Default registration name, ``'GradientNoise'``.
        call_for_each_param (bool): ``True``: called as
            ``hook(rule, param)``.

    """

    name = 'GradientNoise'
    call_for_each_param = True
    timing = 'pre'

    def __init__(
        self,
        eta: float,
        noise_func: typing.Callable[..., typing.Any] = exponential_decay_noise,
    ) -> None:
        self.eta = eta
        self.noise_func = noise_func

    def __call__(self, rule, param):
        g = param.grad
        if g is None:
            return
        g += self.noise_func(param.xp, g.shape, g.dtype, self, rule)
