"""Batch normalization, with batch statistics or with fixed ones."""

from __future__ import annotations

import collections.abc
import typing
import warnings

import numpy

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite.backends import cuda
from chainerlite.functions.array import broadcast
from chainerlite.functions.array import cast
from chainerlite.functions.array import where
from chainerlite.functions.array import reshape
from chainerlite.functions.math import sum as sum_mod
from chainerlite.functions.normalization import _kernels
from chainerlite.functions.normalization import _norm_utils
from chainerlite.functions.normalization import _onednn_norm
from chainerlite._kernels import norm
from chainerlite.functions.rnn import _formula
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


def _check_axis(axis):
    # Chainer's checks of the axis argument, made with the node
    if isinstance(axis, collections.abc.Sequence):
        if any(a >= b for a, b in zip(axis, axis[1:])):
            raise RuntimeError('numbers in axis must be sorted in ascending order')
    elif not (axis is None or isinstance(axis, int)):
        # (a NumPy integer too, as Chainer's check of six.integer_types)
        raise RuntimeError('axis must be int, tuple of int or None')
    return axis


def _compute_axis(x_ndim, gamma_ndim, axis):
    # The axes statistics are computed over, as non-negative ints.
    if axis is None:
        return (0,) + tuple(range(gamma_ndim + 1, x_ndim))
    if isinstance(axis, int):
        axis = (axis,)
    return tuple(sorted(a % x_ndim for a in axis))


def _check_axes(x_type, gamma_type, axis):
    """Checks that gamma's shape is that of the axes ``x`` keeps."""
    x_ndim = type_check.eval(x_type.ndim)
    if axis is not None:
        for a in (axis,) if isinstance(axis, int) else axis:
            type_check.expect(-x_type.ndim <= a, a < x_type.ndim)
    reduced = _compute_axis(x_ndim, type_check.eval(gamma_type.ndim), axis)
    type_check.expect(x_type.ndim >= len(reduced))
    kept = [i for i in range(x_ndim) if i not in reduced]
    type_check.expect(gamma_type.ndim == len(kept))
    for i, a in enumerate(kept):
        type_check.expect(x_type.shape[a] == gamma_type.shape[i])


def _param_shape(x_shape, axis):
    # Shape that broadcasts a parameter over the reduced axes of x.
    return tuple(1 if i in axis else n for i, n in enumerate(x_shape))


def _per_channel(x, axis):
    # statistics over all axes but the channels (the second): the layout
    # that the one-pass kernels take
    return tuple(axis) == (0,) + tuple(range(2, x.ndim))


def _first_of(onednn_call, own_call):
    # the first result (not None) of oneDNN's and the one-pass kernel's
    # calls, asked in the order that config.use_ideep gives
    calls = (onednn_call, own_call) if _onednn_norm.first() else (own_call, onednn_call)
    for call in calls:
        out = call()
        if out is not None:
            return out
    return None


def _one_pass(x, gamma, beta, eps, axis):
    # (y, mean, var) of the one-pass kernel, statistics with the reduced
    # axes kept; or None
    out = norm.batch_norm(x, gamma, beta, eps) if _per_channel(x, axis) else None
    if out is None:
        return None
    shape = _param_shape(x.shape, axis)
    return out[0], out[1].reshape(shape), out[2].reshape(shape)


def _expand(param, x_shape, axis):
    return broadcast.broadcast_to(
        reshape.reshape(param, _param_shape(x_shape, axis)), x_shape
    )


class BatchNormalization(function_node.FunctionNode):
    """Batch normalization with the statistics of the batch.

    Args:
        eps (float): Added to the variance.
        mean (numpy.ndarray or cupy.ndarray): Running mean updated in place,
            or ``None``.
        var (numpy.ndarray or cupy.ndarray): Running variance updated in
            place, or ``None``.
        decay (float): Decay rate of the running averages.
        axis (None, int or tuple of int): Axes to normalize over.

    """

    def __init__(self, eps=2e-5, mean=None, var=None, decay=0.9, axis=None):
        self.eps = eps
        self.running_mean = mean
        self.running_var = var
        self.decay = decay
        self.axis = _check_axis(axis)

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x', 'gamma', 'beta'))
        x_type, gamma_type, beta_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            gamma_type.dtype.kind == 'f',
            beta_type.dtype == gamma_type.dtype,
            beta_type.shape == gamma_type.shape,
        )
        _check_axes(x_type, gamma_type, self.axis)

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, gamma, beta = inputs
        # Chainer's attributes after a forward: the axes reduced over, as
        # non-negative ints, and those kept
        self.axis = axis = _compute_axis(x.ndim, gamma.ndim, self.axis)
        self.key_axis = tuple(i for i in range(x.ndim) if i not in axis)
        if 0 in axis and all(x.shape[i] == 1 for i in axis):
            warnings.warn(
                'A batch with no more than one sample has been given to '
                'F.batch_normalization. F.batch_normalization will always '
                'output a zero tensor for such batches.',
                UserWarning,
            )
        if isinstance(x, cuda.ndarray):
            return (self._forward_gpu(x, gamma, beta, axis),)
        out = _first_of(
            lambda: _onednn_norm.batch_normalization(x, gamma, beta, self.eps, axis),
            lambda: _one_pass(x, gamma, beta, self.eps, axis),
        )
        if out is None:
            shape = _param_shape(x.shape, axis)
            xhat, mean, var = _norm_utils.standardize(x, axis, self.eps)
            y = xhat * gamma.reshape(shape) + beta.reshape(shape)
        else:
            y, mean, var = out
        self._mean, self._stat = mean, var  # for BatchNormalizationGrad
        decay = self.decay
        if self.running_mean is not None:
            self.running_mean *= decay
            self.running_mean += (1 - decay) * mean.reshape(gamma.shape)
        if self.running_var is not None:
            m = x.size // gamma.size
            adjust = m / max(m - 1.0, 1.0)  # unbiased variance
            self.running_var *= decay
            self.running_var += (1 - decay) * adjust * var.reshape(gamma.shape)
        return (y.astype(x.dtype, copy=False),)

    def _forward_gpu(self, x, gamma, beta, axis):
        # five launches: the mean, the squared deviations, the statistics,
        # the output and the running averages
        cupy = cuda.cupy
        m = x.size // gamma.size
        shape = _param_shape(x.shape, axis)
        mean = x.mean(
            axis=axis, keepdims=True, dtype=_norm_utils.compute_dtype(x.dtype)
        )
        s = _kernels.sum_sq_dev(x, mean, axis=axis, keepdims=True)
        var, inv_std = _kernels.bn_stats(s, 1.0 / m, self.eps)
        self._mean, self._stat = mean, inv_std  # for BatchNormalizationGrad
        y = _kernels.bn_fwd(x, mean, inv_std, gamma.reshape(shape), beta.reshape(shape))
        running = (self.running_mean, self.running_var)
        if running != (None, None):
            # a missing running average is written to scratch memory
            running = [
                cupy.empty(gamma.shape, mean.dtype) if r is None else r for r in running
            ]
            _kernels.bn_running(
                mean.reshape(gamma.shape),
                var.reshape(gamma.shape),
                self.decay,
                m / max(m - 1.0, 1.0),
                *running,
            )
        return y

    @property
    def mean(self):
        """The batch mean of the last forward, in ``gamma``'s shape (as
        Chainer's node keeps it)."""
        return self._mean.reshape(self.inputs[1].shape)

    @property
    def inv_std(self):
        """``1 / sqrt(var + eps)`` of the last forward's batch variance, in
        ``gamma``'s shape."""
        if isinstance(self._stat, cuda.ndarray):  # the GPU keeps it
            inv_std = self._stat
        else:
            inv_std = (self._stat + self.eps) ** -0.5
        return inv_std.reshape(self.inputs[1].shape)

    def backward(self, indexes, grad_outputs):
        x, gamma = self.get_retained_inputs()
        grad = BatchNormalizationGrad(self.eps, self.axis, self._mean, self._stat)
        return grad.apply((x, gamma, grad_outputs[0]))


class BatchNormalizationGrad(_formula.FormulaNode):
    """Gradients of :class:`BatchNormalization`: ``(x, gamma, gy)`` to
    ``(gx, ggamma, gbeta)``.

    Its forward takes the statistics of the forward pass (the variance on
    the CPU, its inverse square root on the GPU); its own gradient
    differentiates :meth:`formula`, which rebuilds them from ``x``.
    """

    def __init__(self, eps, axis, mean, stat):
        self.eps = eps
        self.axis = axis
        self.mean = mean
        self.stat = stat

    def forward(self, inputs):
        self.retain_inputs((0, 1, 2))
        x, gamma, gy = inputs
        if x.dtype == numpy.float16 and gamma.dtype != x.dtype:
            self.retain_outputs((0,))  # for gamma's second order
        if isinstance(x, cuda.ndarray):
            return self._forward_gpu(x, gamma, gy)
        dtype = _norm_utils.compute_dtype(x.dtype, gamma.dtype)
        if numpy.promote_types(x.dtype, gamma.dtype) != gamma.dtype:
            # gamma narrower than x: Chainer's sums of gy and gy xhat are
            # in gamma's dtype, and gx takes them (and 1 / m) rounded so
            return self._forward_sums_in(gamma.dtype, dtype, x, gamma, gy)
        args = (self.mean, self.stat, self.eps)
        out = _first_of(
            lambda: _onednn_norm.batch_normalization_grad(
                x, gamma, gy, *args, self.axis
            ),
            lambda: (
                norm.batch_norm_grad(x, gamma, gy, *args)
                if _per_channel(x, self.axis)
                else None
            ),
        )
        if out is not None:
            return out
        return self._forward_sums_in(dtype, dtype, x, gamma, gy)

    def _forward_sums_in(self, sum_dtype, dtype, x, gamma, gy):
        axis = self.axis
        shape = _param_shape(x.shape, axis)
        gy = gy.astype(dtype, copy=False)
        inv_std = (self.stat + self.eps) ** -0.5
        xhat = (x.astype(dtype, copy=False) - self.mean) * inv_std
        ggamma = (gy * xhat).sum(axis=axis, dtype=sum_dtype)
        gbeta = gy.sum(axis=axis, dtype=sum_dtype)
        inv_m = numpy.dtype(sum_dtype).type(1.0 / (x.size // gamma.size))
        # gx = gamma inv_std (gy - mean(gy) - xhat mean(gy xhat))
        gx = gy - (gbeta.reshape(shape) + xhat * ggamma.reshape(shape)) * inv_m
        gx *= gamma.reshape(shape).astype(dtype, copy=False) * inv_std
        return (
            gx.astype(x.dtype, copy=False),
            ggamma.astype(gamma.dtype, copy=False),
            gbeta.astype(gamma.dtype, copy=False),
        )

    def backward(self, indexes, grad_outputs):
        grads = super().backward(indexes, grad_outputs)
        if 1 not in indexes or grad_outputs[0] is None:
            return grads
        x, gamma, _ = self.get_retained_inputs()
        if not (x.dtype == numpy.float16 and gamma.dtype != x.dtype):
            return grads
        # A float16 x with a wider gamma: Chainer differentiates gx (linear
        # in gamma) with respect to gamma as sum(gx * ggx) / gamma in
        # float16, from the float16 gx; so does this, where gamma is not 0.
        (gx,) = self.get_retained_outputs()
        narrow = cast.cast(gamma, x.dtype)
        safe = where.where(narrow.array != 0, narrow, numpy.ones_like(narrow.array))
        ratio = sum_mod.sum(gx * grad_outputs[0], axis=self.axis) / safe
        i = indexes.index(1)
        grads = list(grads)
        grads[i] = where.where(
            narrow.array != 0, cast.cast(ratio, gamma.dtype), grads[i]
        )
        return tuple(grads)

    def _forward_gpu(self, x, gamma, gy):
        # two launches: the sums of gy and gy * xhat, then gx
        shape = _param_shape(x.shape, self.axis)
        mean, inv_std = self.mean, self.stat
        gbeta, ggamma = _kernels.bn_grad_sums(gy, x, mean, inv_std, axis=self.axis)
        inv_m = mean.dtype.type(gamma.size / x.size)
        gx = _kernels.bn_bwd(
            gy,
            x,
            mean,
            inv_std,
            gamma.reshape(shape),
            gbeta.reshape(shape),
            ggamma.reshape(shape),
            inv_m,
        )
        return (
            gx,
            ggamma.astype(gamma.dtype, copy=False),
            gbeta.astype(gamma.dtype, copy=False),
        )

    def formula(self, x, gamma, gy):
        dtype = _norm_utils.compute_dtype(x.dtype, gamma.dtype)
        axis = self.axis
        xc, gy_c, gamma_c = (_norm_utils.as_dtype(v, dtype) for v in (x, gy, gamma))
        gx, xhat = _norm_utils.standardize_grad(
            xc, gy_c * _expand(gamma_c, x.shape, axis), axis, self.eps
        )
        ggamma = sum_mod.sum(gy_c * xhat, axis=axis)
        gbeta = sum_mod.sum(gy_c, axis=axis)
        return (
            _norm_utils.as_dtype(gx, x.dtype),
            _norm_utils.as_dtype(ggamma, gamma.dtype),
            _norm_utils.as_dtype(gbeta, gamma.dtype),
        )


class FixedBatchNormalization(function_node.FunctionNode):
    """Batch normalization with given statistics.

    Args:
        eps (float): Added to the variance.
        axis (None, int or tuple of int): Axes to normalize over.

    """

    def __init__(self, eps=2e-5, axis=None):
        self.eps = eps
        self.axis = _check_axis(axis)

    @property
    def inv_var(self):
        """``1 / (var + eps)`` of the ``var`` given to the last forward
        (None before one), in its dtype, as Chainer's node keeps it."""
        if self._input_indexes_to_retain is None:
            return None
        var = self.get_retained_inputs()[3].array
        return backend.get_array_module(var).reciprocal(var + self.eps)

    @property
    def inv_std(self):
        """``1 / sqrt(var + eps)`` of the ``var`` given to the last forward
        (None before one)."""
        inv_var = self.inv_var
        if inv_var is None:
            return None
        return backend.get_array_module(inv_var).sqrt(inv_var, dtype=inv_var.dtype)

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x', 'gamma', 'beta', 'mean', 'var'))
        x_type, gamma_type, beta_type, mean_type, var_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            gamma_type.dtype.kind == 'f',
            beta_type.dtype == gamma_type.dtype,
            mean_type.dtype == gamma_type.dtype,
            var_type.dtype == gamma_type.dtype,
            beta_type.shape == gamma_type.shape,
            mean_type.shape == gamma_type.shape,
            var_type.shape == gamma_type.shape,
        )
        _check_axes(x_type, gamma_type, self.axis)

    def forward(self, inputs):
        self.retain_inputs((0, 1, 3, 4))
        x, gamma, beta, mean, var = inputs
        # Chainer's attributes after a forward: the axes reduced over, as
        # non-negative ints, and those kept
        self.axis = axis = _compute_axis(x.ndim, gamma.ndim, self.axis)
        self.key_axis = tuple(i for i in range(x.ndim) if i not in axis)
        if _per_channel(x, axis):
            y = norm.batch_norm_fixed(x, gamma, beta, mean, var, self.eps)
            if y is not None:
                return (y,)  # the expressions below in one pass
        shape = _param_shape(x.shape, axis)
        dtype = _norm_utils.compute_dtype(x.dtype, gamma.dtype)
        scale = gamma.astype(dtype) / (var.astype(dtype) + self.eps) ** 0.5
        y = (x - mean.reshape(shape)) * scale.reshape(shape)
        return ((y + beta.reshape(shape)).astype(x.dtype, copy=False),)

    def backward(self, indexes, grad_outputs):
        x, gamma, mean, var = self.get_retained_inputs()
        expander = tuple(None if i in self.axis else slice(None) for i in range(x.ndim))
        grad = FixedBatchNormalizationGrad(self.eps, expander, self.axis, None, None)
        return grad.apply((x, gamma, mean, var, grad_outputs[0]))


class FixedBatchNormalizationGrad(_formula.FormulaNode):
    """Gradients of :class:`FixedBatchNormalization`: ``(x, gamma, mean,
    var, gy)`` to the gradients of ``(x, gamma, beta, mean, var)``.

    ``axis`` holds the axes of ``x`` that are reduced; ``expander`` (the
    index that puts a parameter on ``x``'s axes), ``inv_std`` and
    ``inv_var`` are kept as Chainer's node keeps them (may be None; the
    computation reads ``var``)."""

    def __init__(self, eps, expander, axis, inv_std, inv_var):
        self.eps = eps
        self.expander = expander
        self.axis = axis
        self.inv_std = inv_std
        self.inv_var = inv_var

    def forward(self, inputs):
        # the operations of formula() on the arrays, in its order
        self.retain_inputs((0, 1, 2, 3, 4))
        x, gamma, mean, var, gy = inputs
        p_dtype = gamma.dtype
        dtype = _norm_utils.compute_dtype(x.dtype, p_dtype)
        x_c, gy, gamma, mean, var = (
            v.astype(dtype, copy=False) for v in (x, gy, gamma, mean, var)
        )
        axis = self.axis
        shape = _param_shape(x.shape, axis)
        inv_std = (var + self.eps) ** -0.5
        sums = None
        if x.dtype == dtype and _per_channel(x, axis):
            sums = norm.batch_norm_fixed_grad(x, gy, mean, gamma * inv_std)
        if sums is None:
            xc = x_c - mean.reshape(shape)
            gbeta = utils.force_array(gy.sum(axis=axis))
            gy_xc = utils.force_array((gy * xc).sum(axis=axis))
            gx = gy * (gamma * inv_std).reshape(shape)
        else:  # the same in one pass, the sums in float64
            gx, gbeta, gy_xc = sums
            gbeta, gy_xc = gbeta.astype(dtype), gy_xc.astype(dtype)
        ggamma = gy_xc * inv_std
        gmean = -gbeta * gamma * inv_std
        gvar = gy_xc * gamma * inv_std**3 * -0.5
        return (gx.astype(x.dtype, copy=False),) + tuple(
            utils.force_array(g).astype(p_dtype, copy=False)
            for g in (ggamma, gbeta, gmean, gvar)
        )

    def formula(self, x, gamma, mean, var, gy):
        p_dtype = gamma.dtype
        dtype = _norm_utils.compute_dtype(x.dtype, p_dtype)
        x_c, gy, gamma, mean, var = (
            _norm_utils.as_dtype(v, dtype) for v in (x, gy, gamma, mean, var)
        )
        axis = self.axis
        inv_std = (var + self.eps) ** -0.5
        xc = x_c - _expand(mean, x.shape, axis)
        gbeta = sum_mod.sum(gy, axis=axis)
        gy_xc = sum_mod.sum(gy * xc, axis=axis)
        gx = gy * _expand(gamma * inv_std, x.shape, axis)
        ggamma = gy_xc * inv_std
        gmean = -gbeta * gamma * inv_std
        gvar = gy_xc * gamma * inv_std**3 * -0.5
        return (
            _norm_utils.as_dtype(gx, x.dtype),
            _norm_utils.as_dtype(ggamma, p_dtype),
            _norm_utils.as_dtype(gbeta, p_dtype),
            _norm_utils.as_dtype(gmean, p_dtype),
            _norm_utils.as_dtype(gvar, p_dtype),
        )


def batch_normalization(
    x: Variable | NdArray,
    gamma: Variable | NdArray,
    beta: Variable | NdArray,
    eps=2e-5,
    running_mean=None,
    running_var=None,
    decay=0.9,
    axis=None,
) -> Variable:
    """Batch normalization function.

    It normalizes the input by the mean and the variance of the batch, then
    scales and shifts it:

    .. math::
        y = \\gamma \\frac{x - \\mu}{\\sqrt{\\sigma^2 + \\epsilon}} + \\beta

    The parameters ``gamma`` and ``beta`` have the shape of the axes of ``x``
    that are not normalized over. By default (``axis=None``) these are the
    axes ``1`` to ``gamma.ndim``: the first axis is the batch axis, and the
    axes after the parameters' ones are averaged over with it (for an image
    batch ``(n, c, h, w)`` and ``gamma`` of shape ``(c,)``, the statistics
    are per channel over ``n * h * w`` values).

    When ``running_mean`` and ``running_var`` are given, they are updated in
    place with the batch statistics: ``r = decay * r + (1 - decay) * s``,
    where the variance ``s`` is the unbiased one (scaled by ``m / (m - 1)``
    for ``m`` averaged values).

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.
        gamma (Variable or numpy.ndarray or cupy.ndarray): Scaling
            parameter.
        beta (Variable or numpy.ndarray or cupy.ndarray): Shifting
            parameter, of the shape and dtype of ``gamma``.
        eps (float): Added to the variance for numerical stability.
        running_mean (numpy.ndarray or cupy.ndarray): Running average of
            the mean, or ``None``.
        running_var (numpy.ndarray or cupy.ndarray): Running average of the
            variance, or ``None``.
        decay (float): Decay rate of the running averages.
        axis (None, int or tuple of int): Axes the statistics are computed
            over, in ascending order; ``None`` for the default explained
            above.

    Returns:
        Variable: Output of the shape and dtype of ``x``.

    Raises:
        RuntimeError: If ``axis`` is not in ascending order, or is neither
            an int, a sequence nor ``None`` (Chainer's type for it).

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[1, 2], [3, 6]], np.float32)
        >>> gamma = np.ones(2, np.float32)
        >>> beta = np.zeros(2, np.float32)
        >>> mean = np.zeros(2, np.float32)
        >>> y = F.batch_normalization(x, gamma, beta, running_mean=mean)
        >>> y.array.round(3)
        array([[-1., -1.],
               [ 1.,  1.]], dtype=float32)
        >>> mean
        array([0.2, 0.4], dtype=float32)

    """
    func = BatchNormalization(eps, running_mean, running_var, decay, axis)
    return func.apply((x, gamma, beta))[0]


def fixed_batch_normalization(x, gamma, beta, mean, var, eps=2e-5, axis=None):
    """Batch normalization function with fixed statistics.

    It is the inference form of :func:`batch_normalization`: the given
    ``mean`` and ``var`` (for example running averages) replace the batch
    statistics, so each output depends on its own input only.

    .. math::
        y = \\gamma \\frac{x - \\mathrm{mean}}{\\sqrt{\\mathrm{var} +
            \\epsilon}} + \\beta

    The parameters and statistics have the shape of the axes of ``x`` that
    are not normalized over, as in :func:`batch_normalization`.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.
        gamma (Variable or numpy.ndarray or cupy.ndarray): Scaling
            parameter.
        beta (Variable or numpy.ndarray or cupy.ndarray): Shifting
            parameter.
        mean (Variable or numpy.ndarray or cupy.ndarray): Mean to shift by.
        var (Variable or numpy.ndarray or cupy.ndarray): Variance to scale
            by. ``beta``, ``mean`` and ``var`` have the shape and dtype of
            ``gamma``.
        eps (float): Added to the variance for numerical stability.
        axis (None, int or tuple of int): Axes the statistics stand for;
            ``None`` for the default of :func:`batch_normalization`.

    Returns:
        Variable: Output of the shape and dtype of ``x``.

    Raises:
        RuntimeError: For an ``axis`` :func:`batch_normalization` refuses.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[1, 2], [3, 6]], np.float32)
        >>> ones, zeros = np.ones(2, np.float32), np.zeros(2, np.float32)
        >>> F.fixed_batch_normalization(x, ones, zeros, ones, ones, eps=0).array
        array([[0., 1.],
               [2., 5.]], dtype=float32)

    """
    func = FixedBatchNormalization(eps, axis)
    return func.apply((x, gamma, beta, mean, var))[0]
