"""Batch renormalization (Ioffe, 2017)."""

import warnings

import numpy

from chainerlite import backend
from chainerlite import function_node
from chainerlite.functions.math import sum as sum_mod
from chainerlite.functions.normalization import _norm_utils
from chainerlite.functions.normalization import batch_normalization as bn
from chainerlite.utils import type_check


class BatchRenormalizationFunction(function_node.FunctionNode):
    """Batch renormalization with the statistics of the batch.

    ``r`` and ``d`` (the corrections towards the running statistics) are
    kept after forward and are constants for the gradients.
    """

    def __init__(
        self,
        eps=2e-5,
        mean=None,
        var=None,
        decay=0.9,
        rmax=1,
        dmax=0,
        update_statistics=True,
    ):
        self.eps = eps
        self.running_mean = mean
        self.running_var = var
        self.decay = decay
        self.rmax = rmax
        self.dmax = dmax
        self.update_statistics = update_statistics
        self.r = None
        self.d = None

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x', 'gamma', 'beta'))
        x_type, gamma_type, beta_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            # gamma and beta may have another float dtype than x, as in
            # Chainer, but the same one
            gamma_type.dtype.kind == 'f',
            beta_type.dtype == gamma_type.dtype,
            beta_type.shape == gamma_type.shape,
        )
        bn._check_axes(x_type, gamma_type, None)

    def forward(self, inputs):
        # Chainer's old-style node keeps every input; so does this one.
        self.retain_inputs((0, 1, 2))
        x, gamma, beta = inputs
        xp = backend.get_array_module(x)
        axis = bn._compute_axis(x.ndim, gamma.ndim, None)
        self._reduced = axis
        shape = bn._param_shape(x.shape, axis)
        if numpy.promote_types(x.dtype, gamma.dtype) != gamma.dtype:
            # gamma narrower than x: Chainer's statistics are in its dtype
            mean = x.mean(axis=axis, keepdims=True, dtype=gamma.dtype)
            var = x.var(axis=axis, keepdims=True, dtype=gamma.dtype)
            std = (var + self.eps) ** 0.5
            xhat = (x - mean) / std
        else:
            xhat, mean, var = _norm_utils.standardize(x, axis, self.eps)
            std = (var + self.eps) ** 0.5
        if self.running_mean is None:
            r, d = xp.ones_like(std), xp.zeros_like(mean)
        else:
            running_mean = self.running_mean.reshape(shape)
            running_std = (self.running_var.reshape(shape) + self.eps) ** 0.5
            r = xp.clip(std / running_std, 1.0 / self.rmax, self.rmax)
            d = xp.clip((mean - running_mean) / running_std, -self.dmax, self.dmax)
        self.r, self.d = r, d
        y = (xhat * r + d) * gamma.reshape(shape) + beta.reshape(shape)
        if self.update_statistics and self.running_mean is not None:
            self._update_statistics(mean, var, x.size // gamma.size)
        return (y.astype(x.dtype, copy=False),)

    def _update_statistics(self, mean, var, m):
        decay = self.decay
        self.running_mean *= decay
        self.running_mean += (1 - decay) * mean.reshape(self.running_mean.shape)
        adjust = m / max(m - 1.0, 1.0)  # unbiased variance
        self.running_var *= decay
        self.running_var += (1 - decay) * adjust * var.reshape(self.running_var.shape)

    def backward(self, indexes, grad_outputs):
        x, gamma, _ = self.get_retained_inputs()
        xp = backend.get_array_module(x.array)
        dtype = _norm_utils.compute_dtype(x.dtype, gamma.dtype)
        axis = self._reduced
        xc, gy, gamma_c = (
            _norm_utils.as_dtype(v, dtype) for v in (x, grad_outputs[0], gamma)
        )
        r = xp.broadcast_to(self.r.astype(dtype), x.shape)
        d = xp.broadcast_to(self.d.astype(dtype), x.shape)
        gxhat = gy * bn._expand(gamma_c, x.shape, axis) * r
        gx, xhat = _norm_utils.standardize_grad(xc, gxhat, axis, self.eps)
        ggamma = sum_mod.sum(gy * (xhat * r + d), axis=axis)
        gbeta = sum_mod.sum(gy, axis=axis)
        # each gradient in its input's dtype
        grads = zip((gx, ggamma, gbeta), self.inputs)
        return tuple(_norm_utils.as_dtype(g, v.dtype) for g, v in grads)


def batch_renormalization(
    x,
    gamma,
    beta,
    rmax,
    dmax,
    eps=2e-5,
    running_mean=None,
    running_var=None,
    decay=0.9,
    update_statistics=False,
):
    """Batch renormalization function.

    It normalizes ``x`` with the statistics of the batch as
    :func:`~chainerlite.functions.batch_normalization` does, then corrects
    the result towards the running statistics so that training and
    inference compute the same function of each example:

    .. math::
        \\hat{x} = \\frac{x - \\mu_B}{\\sigma_B} r + d, \\quad
        y = \\gamma \\hat{x} + \\beta

    with :math:`r = \\mathrm{clip}(\\sigma_B / \\sigma, 1 / r_{max},
    r_{max})` and :math:`d = \\mathrm{clip}((\\mu_B - \\mu) / \\sigma,
    -d_{max}, d_{max})`, where :math:`\\mu, \\sigma^2` are ``running_mean``
    and ``running_var`` (plus ``eps``). ``r`` and ``d`` are constants for
    the gradients. As in batch normalization, the running variance
    averages the (unbiased) variances, not the standard deviations.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of shape
            ``(n, c, ...)``.
        gamma (Variable or numpy.ndarray or cupy.ndarray): Scaling
            parameter, of the shape of ``x``'s axes ``1`` to
            ``gamma.ndim``.
        beta (Variable or numpy.ndarray or cupy.ndarray): Shifting
            parameter, of the shape of ``gamma``.
        rmax (float): Upper bound of ``r`` (lower bound ``1 / rmax``).
        dmax (float): Bound of ``|d|``.
        eps (float): Added to the variances.
        running_mean (numpy.ndarray or cupy.ndarray): Running mean
            (required).
        running_var (numpy.ndarray or cupy.ndarray): Running variance
            (required).
        decay (float): Decay rate of the running averages.
        update_statistics (bool): Update ``running_mean`` and
            ``running_var`` in place with the batch statistics (they are
            left as they are by default, unlike ``batch_normalization``).

    Returns:
        Variable: Output of the shape and dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[0, 2], [2, 6]], np.float32)
        >>> one, zero = np.ones(2, np.float32), np.zeros(2, np.float32)
        >>> F.batch_renormalization(x, one, zero, rmax=1, dmax=0.5, eps=0,
        ...                         running_mean=zero, running_var=one).array
        array([[-0.5, -0.5],
               [ 1.5,  1.5]], dtype=float32)

    """
    # required, as in Chainer 7.8.1 (its TypeError)
    if running_mean is None:
        raise TypeError('batch_renormalization: running_mean is required')
    if running_var is None:
        raise TypeError('batch_renormalization: running_var is required')
    func = BatchRenormalizationFunction(
        eps, running_mean, running_var, decay, rmax, dmax, update_statistics
    )
    return func.apply((x, gamma, beta))[0]


def fixed_batch_renormalization(x, gamma, beta, mean, var, eps=2e-5):
    """Batch renormalization with fixed statistics (deprecated).

    It is the same as
    :func:`~chainerlite.functions.fixed_batch_normalization`, which should
    be used instead.

    Args:
        x, gamma, beta, mean, var, eps: As in
            :func:`~chainerlite.functions.fixed_batch_normalization`.

    Returns:
        Variable: Output of the shape and dtype of ``x``.

    """
    warnings.warn(
        'fixed_batch_renormalization is deprecated. Use '
        'fixed_batch_normalization instead.',
        DeprecationWarning,
    )
    return bn.fixed_batch_normalization(x, gamma, beta, mean, var, eps)
