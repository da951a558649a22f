"""Layer normalization."""

from __future__ import annotations

import typing

from chainerlite import function_node
from chainerlite._kernels import norm
from chainerlite.backends import cuda
from chainerlite.functions.array import broadcast
from chainerlite.functions.math import sum as sum_mod
from chainerlite.functions.normalization import _kernels
from chainerlite.functions.normalization import _norm_utils
from chainerlite.functions.rnn import _formula
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class LayerNormalization(function_node.FunctionNode):
    """Layer normalization of a batch of vectors."""

    # the statistics of the GPU forward, for LayerNormalizationGrad
    _mean = _inv_std = None

    def __init__(self, eps=1e-5):
        self.eps = eps

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x', 'gamma', 'beta'))
        x_type, gamma_type, beta_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim == 2,
            gamma_type.ndim == 1,
            beta_type.ndim == 1,
            gamma_type.dtype == x_type.dtype,
            beta_type.dtype == x_type.dtype,
            gamma_type.shape == beta_type.shape,
        )
        # a separate expect: the light-mode check indexes real shapes
        type_check.expect(gamma_type.shape[0] == x_type.shape[1])

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, gamma, beta = inputs
        if isinstance(x, cuda.ndarray):
            # four launches, with the kernels of batch normalization
            self._mean = x.mean(
                axis=1, keepdims=True, dtype=_norm_utils.compute_dtype(x.dtype)
            )
            s = _kernels.sum_sq_dev(x, self._mean, axis=1, keepdims=True)
            self._inv_std = _kernels.bn_stats(s, 1.0 / x.shape[1], self.eps)[1]
            return (_kernels.bn_fwd(x, self._mean, self._inv_std, gamma, beta),)
        y = norm.layer_norm(x, gamma, beta, self.eps)
        if y is not None:
            return (y,)  # the expressions below in one pass over each row
        xhat = _norm_utils.standardize(x, (1,), self.eps)[0]
        return ((xhat * gamma + beta).astype(x.dtype, copy=False),)

    def backward(self, indexes, grad_outputs):
        x, gamma = self.get_retained_inputs()
        grad = LayerNormalizationGrad(self.eps, self._mean, self._inv_std)
        return grad.apply((x, gamma, grad_outputs[0]))


class LayerNormalizationGrad(_formula.FormulaNode):
    """Gradients of :class:`LayerNormalization`: ``(x, gamma, gy)`` to
    ``(gx, ggamma, gbeta)``.

    On the GPU its forward runs the kernels of batch normalization with the
    statistics of the forward pass (``mean``, ``inv_std``); elsewhere it
    evaluates :meth:`formula`, which its own gradient differentiates.
    """

    def __init__(self, eps, mean=None, inv_std=None):
        self.eps = eps
        self.mean = mean
        self.inv_std = inv_std

    def forward(self, inputs):
        x, gamma, gy = inputs
        self.retain_inputs((0, 1, 2))
        if not isinstance(x, cuda.ndarray):
            grads = norm.layer_norm_grad(x, gamma, gy, self.eps)
            # the formula's values in one pass over each row where it can
            return super().forward(inputs) if grads is None else grads
        # four launches: gx is batch normalization's gradient along each
        # row, with gy gamma for gy and a gamma of one
        mean, inv_std = self.mean, self.inv_std
        g_scaled = gy * gamma
        total, total_xhat = _kernels.bn_grad_sums(
            g_scaled, x, mean, inv_std, axis=1, keepdims=True
        )
        inv_m = mean.dtype.type(1.0 / x.shape[1])
        gx = _kernels.bn_bwd(
            g_scaled, x, mean, inv_std, gamma.dtype.type(1), total, total_xhat, inv_m
        )
        gbeta, ggamma = _kernels.bn_grad_sums(gy, x, mean, inv_std, axis=0)
        return (
            gx,
            ggamma.astype(x.dtype, copy=False),
            gbeta.astype(x.dtype, copy=False),
        )

    def formula(self, x, gamma, gy):
        dtype = _norm_utils.compute_dtype(x.dtype)
        x_c, gy, gamma = (_norm_utils.as_dtype(v, dtype) for v in (x, gy, gamma))
        gx, xhat = _norm_utils.standardize_grad(
            x_c, gy * broadcast.broadcast_to(gamma, x.shape), (1,), self.eps
        )
        ggamma = sum_mod.sum(gy * xhat, axis=0)
        gbeta = sum_mod.sum(gy, axis=0)
        return tuple(_norm_utils.as_dtype(g, x.dtype) for g in (gx, ggamma, gbeta))


def layer_normalization(
    x: Variable | NdArray, gamma: Variable | NdArray, beta: Variable | NdArray, eps=1e-5
) -> Variable:
    """Layer normalization.

    It normalizes each row of ``x`` by the mean and the variance of that
    row (the statistics are computed along the second axis), then scales
    and shifts it per unit:

    .. math::
        y_{ij} = \\gamma_j \\frac{x_{ij} - \\mu_i}{\\sqrt{\\sigma_i^2 +
            \\epsilon}} + \\beta_j

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Batch of vectors of
            shape ``(batch_size, unit_size)``, e.g. the output of
            :func:`linear`.
        gamma (Variable or numpy.ndarray or cupy.ndarray): Scaling vector of
            shape ``(unit_size,)``.
        beta (Variable or numpy.ndarray or cupy.ndarray): Shifting vector of
            shape ``(unit_size,)``. ``gamma`` and ``beta`` have the dtype of
            ``x``.
        eps (float): Added to the variance for numerical stability.

    Returns:
        Variable: Output of the shape and dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[1, 3], [0, 10]], np.float32)
        >>> gamma = np.array([1, 2], np.float32)
        >>> beta = np.array([0, 1], np.float32)
        >>> F.layer_normalization(x, gamma, beta, eps=0).array
        array([[-1.,  3.],
               [-1.,  3.]], dtype=float32)

    """
    return LayerNormalization(eps).apply((x, gamma, beta))[0]
