"""Losses of variational auto-encoders: KL divergence and likelihoods."""

from __future__ import annotations

import math
import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite.functions.activation import softplus
from chainerlite.functions.array import broadcast
from chainerlite.functions.loss import _logistic
from chainerlite.functions.math import average
from chainerlite.functions.math import exponential
from chainerlite.functions.math import sum as sum_mod
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


def _check_reduce(reduce):
    if reduce not in ('sum', 'mean', 'no'):
        raise ValueError(
            "only 'sum', 'mean' and 'no' are valid for 'reduce', but '%s' "
            'is given' % reduce
        )


def _reduce(loss, reduce):
    if reduce == 'sum':
        return sum_mod.sum(loss)
    if reduce == 'mean':
        # a Mean node, as Chainer's average (ONNX: ReduceMean)
        return average.average(loss)
    return loss


def _broadcast(*inputs):
    # Chainer 7.8.1 computes these losses with broadcasting arithmetic:
    # inputs of broadcastable shapes are broadcast (the gradients summed
    # back); inputs of one shape go to the node as they are.
    if len({tuple(x.shape) for x in inputs}) == 1:
        return inputs
    return broadcast.broadcast(*inputs)


def _check_same_float_types(in_types, names):
    type_check._argname(in_types, names)
    first = in_types[0]
    type_check.expect(first.dtype.kind == 'f')
    for other in in_types[1:]:
        type_check.expect(other.dtype == first.dtype, other.shape == first.shape)


class GaussianKLDivergence(function_node.FunctionNode):
    """Elementwise KL divergence of a diagonal Gaussian from N(0, I)."""

    def check_type_forward(self, in_types):
        _check_same_float_types(in_types, ('mean', 'ln_var'))

    def forward(self, inputs):
        mean, ln_var = inputs
        xp = backend.get_array_module(mean)
        self.retain_inputs((0, 1))
        loss = (
            mean * mean + xp.exp(ln_var) - ln_var - mean.dtype.type(1)
        ) * mean.dtype.type(0.5)
        return (utils.force_array(loss, mean.dtype),)

    def backward(self, indexes, grad_outputs):
        mean, ln_var = self.get_retained_inputs()
        (gy,) = grad_outputs
        grads = []
        if 0 in indexes:
            grads.append(gy * mean)
        if 1 in indexes:
            grads.append(gy * (exponential.exp(ln_var) - 1.0) * 0.5)
        return tuple(grads)


def gaussian_kl_divergence(
    mean: Variable | NdArray, ln_var: Variable | NdArray, reduce='sum'
) -> Variable:
    """KL divergence of Gaussian variables from the standard Gaussian.

    For a Gaussian :math:`N(\\mu, S)` with a diagonal covariance
    :math:`S_{ii} = \\sigma_i^2`, given :math:`\\mu` and
    :math:`\\log \\sigma^2`, it computes elementwise

    .. math::
        D_{\\mathrm{KL}}(N(\\mu, S) \\| N(0, I))_i
            = \\frac{1}{2} \\left(\\mu_i^2 + \\sigma_i^2
              - \\log \\sigma_i^2 - 1\\right).

    Args:
        mean (Variable or numpy.ndarray or cupy.ndarray): The mean
            :math:`\\mu`, of a floating point dtype.
        ln_var (Variable or numpy.ndarray or cupy.ndarray): The log variance
            :math:`\\log \\sigma^2`, of the dtype of ``mean`` and a shape
            that broadcasts with it (as in Chainer 7.8.1).
        reduce (str): ``'sum'`` sums the elementwise values, ``'mean'``
            averages them and ``'no'`` returns them as they are. Other values
            raise :class:`ValueError`.

    Returns:
        Variable: A scalar for ``'sum'`` and ``'mean'``, else an array of
        the shape of ``mean``; of the dtype of ``mean``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> mean = np.array([0., 1.], np.float32)
        >>> ln_var = np.zeros(2, np.float32)
        >>> F.gaussian_kl_divergence(mean, ln_var, reduce='no').array
        array([0. , 0.5], dtype=float32)

    """
    _check_reduce(reduce)
    loss = GaussianKLDivergence().apply(_broadcast(mean, ln_var))[0]
    return _reduce(loss, reduce)


class BernoulliNLL(function_node.FunctionNode):
    """Elementwise negative log-likelihood of a Bernoulli distribution."""

    def check_type_forward(self, in_types):
        _check_same_float_types(in_types, ('x', 'y'))

    def forward(self, inputs):
        x, y = inputs
        xp = backend.get_array_module(x)
        self.retain_inputs((0, 1))
        loss = _logistic.softplus_array(xp, y) - x * y
        return (utils.force_array(loss, x.dtype),)

    def backward(self, indexes, grad_outputs):
        x, y = self.get_retained_inputs()
        (gy,) = grad_outputs
        grads = []
        if 0 in indexes:
            grads.append(-gy * y)
        if 1 in indexes:
            # through softplus's gradient node, whose second order follows
            # Chainer's (NaN at y = +inf)
            grads.append(softplus.SoftplusGrad((1.0,)).apply((y, gy))[0] - gy * x)
        return tuple(grads)


def bernoulli_nll(
    x: Variable | NdArray, y: Variable | NdArray, reduce='sum'
) -> Variable:
    """Negative log-likelihood of a Bernoulli distribution.

    With :math:`p = \\sigma(y)`, the logistic sigmoid of ``y``, it computes

    .. math::
        -\\log B(x; p) = -\\sum_i \\left\\{x_i \\log p_i
            + (1 - x_i) \\log(1 - p_i)\\right\\},

    evaluated stably as :math:`\\log(1 + e^{y_i}) - x_i y_i`. As ``y`` goes
    through a sigmoid, the output of a linear layer can be passed directly.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Observed values
            (usually in :math:`[0, 1]`), of a floating point dtype.
        y (Variable or numpy.ndarray or cupy.ndarray): Pre-sigmoid
            parameter of the distribution, of the dtype of ``x`` and a shape
            that broadcasts with it (as in Chainer 7.8.1).
        reduce (str): ``'sum'``, ``'mean'`` or ``'no'`` (elementwise
            values); other values raise :class:`ValueError`.

    Returns:
        Variable: A scalar for ``'sum'`` and ``'mean'``, else an array of
        the shape of ``x``; of the dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([1., 0.], np.float32)
        >>> y = np.zeros(2, np.float32)
        >>> F.bernoulli_nll(x, y, reduce='no').array.round(4)
        array([0.6931, 0.6931], dtype=float32)

    """
    _check_reduce(reduce)
    loss = BernoulliNLL().apply(_broadcast(x, y))[0]
    return _reduce(loss, reduce)


class GaussianNLL(function_node.FunctionNode):
    """Elementwise negative log-likelihood of a diagonal Gaussian."""

    def check_type_forward(self, in_types):
        _check_same_float_types(in_types, ('x', 'mean', 'ln_var'))

    def forward(self, inputs):
        x, mean, ln_var = inputs
        xp = backend.get_array_module(x)
        self.retain_inputs((0, 1, 2))
        half = x.dtype.type(0.5)
        diff = x - mean
        loss = (
            ln_var + x.dtype.type(math.log(2 * math.pi))
        ) * half + diff * diff * xp.exp(-ln_var) * half
        return (utils.force_array(loss, x.dtype),)

    def backward(self, indexes, grad_outputs):
        x, mean, ln_var = self.get_retained_inputs()
        (gy,) = grad_outputs
        diff = x - mean
        precision = exponential.exp(-ln_var)
        g_x = gy * diff * precision
        grads = []
        if 0 in indexes:
            grads.append(g_x)
        if 1 in indexes:
            grads.append(-g_x)
        if 2 in indexes:
            grads.append(gy * (1.0 - diff * diff * precision) * 0.5)
        return tuple(grads)


def gaussian_nll(
    x: Variable | NdArray,
    mean: Variable | NdArray,
    ln_var: Variable | NdArray,
    reduce='sum',
) -> Variable:
    """Negative log-likelihood of a Gaussian with a diagonal covariance.

    For a Gaussian :math:`N(\\mu, S)` with :math:`S_{ii} = \\sigma_i^2`,
    given :math:`\\mu` and :math:`\\log \\sigma^2`, it computes elementwise

    .. math::
        -\\log N(x_i; \\mu_i, \\sigma_i^2)
            = \\frac{1}{2} \\log(2 \\pi \\sigma_i^2)
              + \\frac{(x_i - \\mu_i)^2}{2 \\sigma_i^2}.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Observed values, of a
            floating point dtype.
        mean (Variable or numpy.ndarray or cupy.ndarray): The mean
            :math:`\\mu`, of the dtype of ``x``; the shapes of
            ``x``, ``mean`` and ``ln_var`` broadcast together (as in
            Chainer 7.8.1).
        ln_var (Variable or numpy.ndarray or cupy.ndarray): The log variance
            :math:`\\log \\sigma^2`, of the dtype of ``x``.
        reduce (str): ``'sum'``, ``'mean'`` or ``'no'`` (elementwise
            values); other values raise :class:`ValueError`.

    Returns:
        Variable: A scalar for ``'sum'`` and ``'mean'``, else an array of
        the shape of ``x``; of the dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([0., 1.], np.float32)
        >>> zeros = np.zeros(2, np.float32)
        >>> F.gaussian_nll(x, zeros, zeros, reduce='no').array.round(4)
        array([0.9189, 1.4189], dtype=float32)

    """
    _check_reduce(reduce)
    loss = GaussianNLL().apply(_broadcast(x, mean, ln_var))[0]
    return _reduce(loss, reduce)
