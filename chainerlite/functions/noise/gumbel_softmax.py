"""Gumbel-softmax sampling."""

import numpy

from chainerlite import backend
from chainerlite import variable
from chainerlite.functions.activation import softmax
from chainerlite.functions.noise import _random


def gumbel_softmax(log_pi, tau=0.1, axis=1):
    """Gumbel-softmax sampling function.

    Draws a differentiable, relaxed one-hot sample from the categorical
    distribution with log probabilities ``log_pi`` along ``axis``:

    .. math::
        y = \\mathrm{softmax}\\left(\\frac{\\log \\pi + g}{\\tau}\\right),

    where :math:`g = -\\log(-\\log u)`, :math:`u \\sim U(0, 1)`, is Gumbel
    noise. See `Categorical Reparameterization with Gumbel-Softmax
    <https://arxiv.org/abs/1611.01144>`_.

    Args:
        log_pi (Variable or numpy.ndarray or cupy.ndarray): Log
            probabilities (unnormalised), of a floating point dtype.
        tau (float or Variable): The temperature :math:`\\tau`; small values
            give nearly one-hot samples.
        axis (int): The axis of the categories.

    Returns:
        Variable: The sample, of the shape and dtype of ``log_pi``; a
        0-dimensional ``log_pi`` gives ``1``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> log_pi = np.log(np.array([[0.2, 0.8]], np.float32))
        >>> y = F.gumbel_softmax(log_pi, tau=0.5)
        >>> y.shape, bool(np.isclose(y.array.sum(), 1))
        ((1, 2), True)

    """
    log_pi_array = getattr(log_pi, 'array', log_pi)
    xp = backend.get_array_module(log_pi_array)
    if log_pi_array.ndim == 0:
        return variable.Variable(xp.ones((), log_pi_array.dtype))
    u = _random.uniform(xp, log_pi_array.shape, numpy.float64)
    u = xp.maximum(u, numpy.finfo(numpy.float64).tiny)
    noise = (-xp.log(-xp.log(u))).astype(log_pi_array.dtype)
    return softmax.softmax((log_pi + noise) / tau, axis=axis)
