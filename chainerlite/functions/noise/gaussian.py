"""Sampling from a Gaussian with the reparameterization trick."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite.functions.math import exponential
from chainerlite.functions.noise import _random
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class Gaussian(function_node.FunctionNode):
    """Draws ``mean + exp(ln_var / 2) * eps`` with standard normal ``eps``.

    After forward, ``eps`` holds the noise that was used.
    """

    def __init__(self, eps=None):
        self.eps = eps

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('mean', 'ln_var'))
        mean_type, ln_var_type = in_types
        type_check.expect(
            mean_type.dtype.kind == 'f',
            ln_var_type.dtype == mean_type.dtype,
            ln_var_type.shape == mean_type.shape,
        )

    def forward(self, inputs):
        mean, ln_var = inputs
        xp = backend.get_array_module(mean)
        self.retain_inputs((1,))
        if self.eps is None:
            self.eps = _random.normal(xp, ln_var.shape, ln_var.dtype)
        elif self.eps.shape != ln_var.shape:
            raise ValueError(
                'gaussian: eps must have the shape of ln_var; got {} for '
                'ln_var of {}'.format(self.eps.shape, ln_var.shape)
            )
        self._noise = self.eps.astype(ln_var.dtype, copy=False)
        noise = xp.exp(ln_var * ln_var.dtype.type(0.5)) * self._noise
        return (utils.force_array(mean + noise, mean.dtype),)

    def backward(self, indexes, grad_outputs):
        (ln_var,) = self.get_retained_inputs()
        (gy,) = grad_outputs
        grads = []
        if 0 in indexes:
            grads.append(gy)
        if 1 in indexes:
            grads.append(gy * exponential.exp(ln_var * 0.5) * (self._noise * 0.5))
        return tuple(grads)


def gaussian(
    mean: Variable | NdArray, ln_var: Variable | NdArray, *, eps=None, return_eps=False
):
    """Draws a sample from a Gaussian distribution, differentiably.

    It returns :math:`\\mu + \\exp(\\frac{1}{2} \\log \\sigma^2)\\,\\epsilon`
    where :math:`\\epsilon \\sim N(0, I)`, so gradients flow to the mean and
    the log variance (the reparameterization trick of variational
    auto-encoders). The noise comes from the global generator of
    ``numpy.random`` (or ``cupy.random`` for CuPy arrays), in training and
    test mode alike.

    Args:
        mean (Variable or numpy.ndarray or cupy.ndarray): The mean
            :math:`\\mu`, of a floating point dtype.
        ln_var (Variable or numpy.ndarray or cupy.ndarray): The log variance
            :math:`\\log \\sigma^2`, of the shape and dtype of ``mean``.
        eps (numpy.ndarray or cupy.ndarray): Noise :math:`\\epsilon` to use
            instead of drawing it, for deterministic results. It must have
            the shape of ``ln_var`` (:class:`ValueError` otherwise) and live
            on its device; it is cast to the dtype of ``ln_var``.
        return_eps (bool): If ``True``, also return the noise.

    Returns:
        Variable or tuple: The sample, of the shape and dtype of ``mean``;
        with ``return_eps=True``, a tuple of it and :math:`\\epsilon`.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> mean = np.array([0., 10.], np.float32)
        >>> ln_var = np.log(np.array([1., 4.], np.float32))
        >>> eps = np.array([1., -1.], np.float32)
        >>> F.gaussian(mean, ln_var, eps=eps).array
        array([1., 8.], dtype=float32)

    """
    func = Gaussian(eps)
    out = func.apply((mean, ln_var))[0]
    if return_eps:
        return out, func.eps
    return out
