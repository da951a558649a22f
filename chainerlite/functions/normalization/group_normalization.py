"""Group normalization."""

from __future__ import annotations

import math
import typing

from chainerlite import function_node
from chainerlite._kernels import norm
from chainerlite.functions.array import broadcast
from chainerlite.functions.connection import _conv_args
from chainerlite.functions.array import reshape
from chainerlite.functions.math import average
from chainerlite.functions.math import sqrt
from chainerlite.functions.math import sum as sum_mod
from chainerlite.functions.normalization import _norm_utils
from chainerlite.functions.rnn import _formula
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class GroupNormalization(function_node.FunctionNode):
    """Group normalization: per sample, over groups of channels.

    Args:
        groups (int): Number of channel groups.
        eps (float): Added to the variance.

    """

    def __init__(self, groups, eps=1e-5):
        self.groups = groups
        self.eps = eps

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x', 'gamma', 'beta'))
        x_type, gamma_type, beta_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim >= 2,
            x_type.shape[1] % self.groups == 0,
            gamma_type.dtype.kind == 'f',
            beta_type.dtype == gamma_type.dtype,
            gamma_type.ndim == 1,
            gamma_type.shape[0] == x_type.shape[1],
            beta_type.shape == gamma_type.shape,
        )

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, gamma, beta = inputs
        y = norm.group_norm(x, gamma, beta, self.groups, self.eps)
        if y is not None:
            return (y,)  # the expressions below in one pass over each group
        grouped = x.reshape(_grouped_shape(x, self.groups))
        xhat = _norm_utils.standardize(grouped, (2,), self.eps)[0]
        shape = _param_shape(x)
        y = xhat.reshape(x.shape) * gamma.reshape(shape) + beta.reshape(shape)
        return (y.astype(x.dtype, copy=False),)

    def backward(self, indexes, grad_outputs):
        x, gamma = self.get_retained_inputs()
        grad = GroupNormalizationGrad(self.groups, self.eps)
        return grad.apply((x, gamma, grad_outputs[0]))


def _param_shape(x):
    return (1, x.shape[1]) + (1,) * (x.ndim - 2)


def _grouped_shape(x, groups):
    # (no -1, which an empty batch leaves undetermined)
    return (x.shape[0], groups, math.prod(x.shape[1:]) // groups)


class GroupNormalizationGrad(_formula.FormulaNode):
    """Gradients of :class:`GroupNormalization`: ``(x, gamma, gy)`` to
    ``(gx, ggamma, gbeta)``.

    Its forward runs the one-pass kernel where it applies, else evaluates
    :meth:`formula`, which its own gradient differentiates.
    """

    def __init__(self, groups, eps):
        self.groups = groups
        self.eps = eps

    def forward(self, inputs):
        x, gamma, gy = inputs
        grads = norm.group_norm_grad(x, gamma, gy, self.groups, self.eps)
        if grads is None:
            return super().forward(inputs)
        self.retain_inputs((0, 1, 2))
        return grads

    def formula(self, x, gamma, gy):
        dtype = _norm_utils.compute_dtype(x.dtype, gamma.dtype)
        x_c, gy_c, gamma_c = (_norm_utils.as_dtype(v, dtype) for v in (x, gy, gamma))
        grouped_shape = _grouped_shape(x, self.groups)
        gxhat = gy_c * broadcast.broadcast_to(
            reshape.reshape(gamma_c, _param_shape(x)), x.shape
        )
        gx, xhat = _norm_utils.standardize_grad(
            reshape.reshape(x_c, grouped_shape),
            reshape.reshape(gxhat, grouped_shape),
            (2,),
            self.eps,
        )
        gx = reshape.reshape(gx, x.shape)
        xhat = reshape.reshape(xhat, x.shape)
        axis = (0,) + tuple(range(2, x.ndim))
        ggamma = sum_mod.sum(gy_c * xhat, axis=axis)
        gbeta = sum_mod.sum(gy_c, axis=axis)
        return (
            _norm_utils.as_dtype(gx, x.dtype),
            _norm_utils.as_dtype(ggamma, gamma.dtype),
            _norm_utils.as_dtype(gbeta, gamma.dtype),
        )


class _MulInvStd(function_node.FunctionNode):
    """``z = gamma * y / sqrt(var(x) + eps)``, one scale per row of ``x``.

    The variance is over all axes of ``x`` but the first, and the gradient
    reaches ``x`` through it. ``inv_std`` holds the inverse deviations of
    the rows of ``x`` that the caller has already computed, for the forward;
    the backward recomputes them from ``x`` as variables, so that it is
    differentiable again, and so has no use for the row means ``mean``
    (taken for Chainer's signature). ``gamma`` is a constant per-row scale.
    """

    def __init__(self, eps, mean, inv_std, dummy_gamma):
        self.eps = eps
        self.inv_std = inv_std
        self.gamma = dummy_gamma

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x', 'y'))
        x_type, y_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            y_type.dtype == x_type.dtype,
            y_type.shape == x_type.shape,
            x_type.ndim >= 2,
        )

    def _row(self, array, x):
        return array.reshape((x.shape[0],) + (1,) * (x.ndim - 1))

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, y = inputs
        scale = self._row(self.gamma * self.inv_std, x)
        return ((scale * y).astype(x.dtype, copy=False),)

    def backward(self, indexes, grad_outputs):
        x, y = self.get_retained_inputs()
        (gz,) = grad_outputs
        axes = tuple(range(1, x.ndim))
        d = x - broadcast.broadcast_to(
            average.mean(x, axis=axes, keepdims=True), x.shape
        )
        inv_std = sqrt.rsqrt(average.mean(d * d, axis=axes, keepdims=True) + self.eps)
        gamma = self._row(self.gamma, x).astype(x.dtype, copy=False)
        g = gz * gamma
        gy = g * broadcast.broadcast_to(inv_std, x.shape)
        # d inv_std / d x = -inv_std ** 3 * d / m, with m values per row.
        c = (
            sum_mod.sum(g * y, axis=axes, keepdims=True)
            * inv_std**3
            * (-1.0 / (x.size // x.shape[0]))
        )
        gx = broadcast.broadcast_to(c, x.shape) * d
        return gx, gy


def group_normalization(
    x: Variable | NdArray,
    groups,
    gamma: Variable | NdArray,
    beta: Variable | NdArray,
    eps=1e-5,
) -> Variable:
    """Group normalization function.

    It splits the channels of each sample into ``groups`` groups, normalizes
    each group by its own mean and variance (over its channels and spatial
    positions), then scales and shifts per channel by ``gamma`` and
    ``beta``.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Batch of shape
            ``(n, c, ...)``.
        groups (int): Number of channel groups; it must divide ``c``.
        gamma (Variable or numpy.ndarray or cupy.ndarray): Scaling
            parameter of shape ``(c,)``.
        beta (Variable or numpy.ndarray or cupy.ndarray): Shifting parameter
            of shape ``(c,)``. ``gamma`` and ``beta`` have one floating
            point dtype, which may be wider than that of ``x`` (float32
            parameters with float16 data); the output has the dtype of
            ``x``.
        eps (float): Added to the variance for numerical stability.

    Returns:
        Variable: Output of the shape and dtype of ``x``.

    Raises:
        ValueError: If ``x`` has fewer than two dimensions, or ``groups``
            does not divide the number of channels.
        TypeError: If ``groups`` is not an int.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[[1, 3], [5, 7], [0, 0], [1, 1]]], np.float32)
        >>> ones, zeros = np.ones(4, np.float32), np.zeros(4, np.float32)
        >>> y = F.group_normalization(x, 2, ones, zeros, eps=0)
        >>> y.array.round(3)
        array([[[-1.342, -0.447],
                [ 0.447,  1.342],
                [-1.   , -1.   ],
                [ 1.   ,  1.   ]]], dtype=float32)

    """
    if x.ndim < 2:
        raise ValueError(
            'group_normalization: the input needs a batch and a channel '
            'axis, got shape {}'.format(x.shape)
        )
    if not isinstance(groups, int):
        raise TypeError("Argument: 'groups' type must be (int).")
    _conv_args.positive_int(groups, 'groups', 'group_normalization')
    if x.shape[1] % groups != 0:
        raise ValueError(
            "Argument: 'groups' must be a divisor of the number of channels."
        )
    return GroupNormalization(groups, eps).apply((x, gamma, beta))[0]
