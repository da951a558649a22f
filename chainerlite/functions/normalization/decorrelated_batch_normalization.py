"""Decorrelated batch normalization (ZCA whitening per channel group)."""

import math

from chainerlite import backend
from chainerlite import function_node
from chainerlite.functions import _grad_of
from chainerlite.functions.connection import _conv_args
from chainerlite.functions.array import broadcast
from chainerlite.functions.math import matmul
from chainerlite.functions.math import sum as sum_mod
from chainerlite.utils import type_check


def _to_groups(x, groups):
    # (b, C, *s) -> (groups, C // groups, b * prod(s)): one matrix of
    # channels by samples per group.
    # The lengths are spelled out (no -1): an input without channels is
    # empty groups, as in Chainer 7.8.1.
    b, c = x.shape[:2]
    size = math.prod(x.shape[2:])
    g = x.reshape(b, groups, c // groups, size).transpose(1, 2, 0, 3)
    return g.reshape(groups, c // groups, b * size)


def _from_groups(y, shape):
    groups, cg = y.shape[:2]
    y = y.reshape(groups, cg, shape[0], math.prod(shape[2:])).transpose(2, 0, 1, 3)
    return y.reshape(shape)


def _check_groups(x_type, groups):
    type_check.expect(
        x_type.dtype.kind == 'f', x_type.ndim >= 2, x_type.shape[1] % groups == 0
    )


class DecorrelatedBatchNormalization(function_node.FunctionNode):
    """Whitening of each channel group with the statistics of the batch.

    After forward, ``mean`` (``(groups, C // groups)``) and ``projection``
    (``(groups, C // groups, C // groups)``) hold the batch statistics.
    """

    axis = None  # Chainer's node has this attribute, always None

    def __init__(self, groups=16, eps=2e-5, mean=None, projection=None, decay=0.9):
        self.groups = _conv_args.positive_int(
            groups, 'groups', 'decorrelated_batch_normalization'
        )
        self.eps = eps
        self.running_mean = mean
        self.running_projection = projection
        self.decay = decay

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))
        _check_groups(in_types[0], self.groups)

    def forward(self, inputs):
        self.retain_inputs(())  # declared empty, as Chainer's node does
        (x,) = inputs
        xp = backend.get_array_module(x)
        xg = _to_groups(x, self.groups)
        m = xg.shape[2]
        mean = xg.mean(axis=2)
        xc = xg - mean[:, :, None]
        cov = xp.matmul(xc, xc.transpose(0, 2, 1)) / m
        cov += self.eps * xp.eye(cov.shape[1], dtype=cov.dtype)
        eigvals, eigvecs = xp.linalg.eigh(cov)
        roots = xp.sqrt(eigvals)
        projection = xp.matmul(eigvecs / roots[:, None, :], eigvecs.transpose(0, 2, 1))
        self.mean, self.projection = mean, projection
        self._saved = xc, eigvecs, roots
        y = xp.matmul(projection, xc)
        if self.running_mean is not None:
            self.running_mean *= self.decay
            self.running_mean += (1 - self.decay) * mean
        if self.running_projection is not None:
            # Chainer 7.8.1 scales the batch's projection by m / (m - 1)
            # in the running average (its "unbiased estimation"); files and
            # models trained with it expect that scale
            adjust = m / max(m - 1.0, 1.0)
            self.running_projection *= self.decay
            self.running_projection += (1 - self.decay) * adjust * projection
        return (_from_groups(y, x.shape).astype(x.dtype, copy=False),)

    def backward(self, indexes, grad_outputs):
        xc, eigvecs, roots = self._saved
        grad = DecorrelatedBatchNormalizationGrad(self.groups, None, eigvecs, None)
        grad._projection, grad._xc, grad._roots = self.projection, xc, roots
        return grad.apply(grad_outputs)


class DecorrelatedBatchNormalizationGrad(function_node.FunctionNode):
    """Gradient of :class:`DecorrelatedBatchNormalization` (not
    differentiable again), applied to ``gy``.

    Args (Chainer's): ``groups``; the eigenvalues ``(g, C)`` and
    eigenvectors ``(g, C, C)`` of each group's covariance (``eps``
    included) and the PCA-whitened input ``y_hat_pca`` ``(g, C, m)``, from
    which the centred input and the projection are rebuilt. The forward of
    chainerlite's node hands over those it kept instead.
    """

    _projection = _xc = _roots = None

    def __init__(self, groups, eigvals, eigvectors, y_hat_pca):
        self.groups = groups
        self.eigvals = eigvals
        self.eigvectors = eigvectors
        self.y_hat_pca = y_hat_pca

    def _statistics(self, xp):
        # the projection, the centred input and the eigenvalues' roots
        u = self.eigvectors
        roots = self._roots
        if roots is None:
            roots = xp.sqrt(self.eigvals)
        w, xc = self._projection, self._xc
        if w is None:
            w = xp.matmul(u / roots[:, None, :], u.transpose(0, 2, 1))
        if xc is None:
            xc = xp.matmul(u, roots[:, :, None] * self.y_hat_pca)
        return w, xc, roots

    def forward(self, inputs):
        (gy,) = inputs
        xp = backend.get_array_module(gy)
        u = self.eigvectors
        w, xc, s = self._statistics(xp)
        m = xc.shape[2]
        gyg = _to_groups(gy, self.groups).astype(xc.dtype, copy=False)
        gx = xp.matmul(w, gyg)  # through y = W xc, W symmetric
        # W = f(cov) with f(l) = l ** -0.5; by the Daleckii-Krein formula
        # its gradient is U (F * (U^T sym(gW) U)) U^T with
        # F_ij = (f(l_i) - f(l_j)) / (l_i - l_j)
        #      = -1 / (s_i s_j (s_i + s_j)), s = sqrt(l).
        gw = xp.matmul(gyg, xc.transpose(0, 2, 1))
        gw = (gw + gw.transpose(0, 2, 1)) / 2
        f = -1 / (s[:, :, None] * s[:, None, :] * (s[:, :, None] + s[:, None, :]))
        ut = u.transpose(0, 2, 1)
        gcov = xp.matmul(xp.matmul(u, f * xp.matmul(xp.matmul(ut, gw), u)), ut)
        gx += xp.matmul(gcov + gcov.transpose(0, 2, 1), xc) / m
        gx -= gx.mean(axis=2, keepdims=True)  # through the centering
        return (_from_groups(gx, gy.shape).astype(gy.dtype, copy=False),)

    def backward(self, indexes, grad_outputs):
        raise NotImplementedError(
            'double backward of decorrelated_batch_normalization is not supported'
        )


def decorrelated_batch_normalization(
    x, groups=16, eps=2e-5, running_mean=None, running_projection=None, decay=0.9
):
    """Decorrelated batch normalization function.

    The channels of ``x`` are split into ``groups`` groups; each group is
    centered and whitened with the ZCA projection of its covariance over
    the batch and spatial axes, so that the outputs of a group are
    decorrelated with unit variance (Huang et al., CVPR 2018):

    .. math::
        y = \\Sigma^{-1/2} (x - \\mu), \\quad
        \\Sigma = \\mathrm{Cov}(x) + \\epsilon I

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of shape
            ``(n, C, ...)``; ``groups`` must divide ``C``.
        groups (int): Number of channel groups.
        eps (float): Added to the diagonal of the covariances.
        running_mean (numpy.ndarray or cupy.ndarray): Running mean of shape
            ``(groups, C // groups)``, updated in place, or ``None``.
        running_projection (numpy.ndarray or cupy.ndarray): Running
            projection of shape ``(groups, C // groups, C // groups)``,
            updated in place, or ``None``.
        decay (float): Decay rate of the running averages.

    Returns:
        Variable: Output of the shape and dtype of ``x``. Its gradient
        cannot be differentiated again.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.random.RandomState(0).normal(size=(100, 4))
        >>> y = F.decorrelated_batch_normalization(x, groups=1, eps=0)
        >>> np.allclose(np.cov(y.array.T, bias=True), np.eye(4))
        True

    """
    func = DecorrelatedBatchNormalization(
        groups, eps, running_mean, running_projection, decay
    )
    return func.apply((x,))[0]


def fixed_decorrelated_batch_normalization(x, mean, projection, groups=16):
    """Decorrelated batch normalization with fixed statistics.

    The inference form of :func:`decorrelated_batch_normalization`:
    ``y = projection (x - mean)`` in each channel group.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of shape
            ``(n, C, ...)``.
        mean (Variable or numpy.ndarray or cupy.ndarray): Mean of shape
            ``(groups, C // groups)``.
        projection (Variable or numpy.ndarray or cupy.ndarray): Projection
            of shape ``(groups, C // groups, C // groups)``. ``mean`` and
            ``projection`` have the dtype of ``x``.
        groups (int): Number of channel groups.

    Returns:
        Variable: Output of the shape and dtype of ``x``.

    Raises:
        ValueError: If ``groups`` does not divide the channels, or the
            statistics do not have the shapes above.

    """
    b, c = x.shape[:2]
    _conv_args.positive_int(groups, 'groups', 'fixed_decorrelated_batch_normalization')
    if c % groups != 0:
        raise ValueError(
            'fixed_decorrelated_batch_normalization: groups ({}) must '
            'divide the channels ({})'.format(groups, c)
        )
    cg = c // groups
    if mean.shape != (groups, cg) or projection.shape != (groups, cg, cg):
        raise ValueError(
            'fixed_decorrelated_batch_normalization: mean and projection '
            'must have shapes {} and {}, got {} and {}'.format(
                (groups, cg), (groups, cg, cg), mean.shape, projection.shape
            )
        )
    func = FixedDecorrelatedBatchNormalization(groups)
    return func.apply((x, mean, projection))[0]


class FixedDecorrelatedBatchNormalization(function_node.FunctionNode):
    """``projection @ (x - mean)`` per channel group; keeps its three
    inputs, as Chainer's node, and its backward (differentiable again)
    reads them."""

    def __init__(self, groups):
        self.groups = groups

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x', 'mean', 'projection'))
        x_type, mean_type, projection_type = in_types
        # the statistics in the dtype of x, as Chainer's check wants
        type_check.expect(
            x_type.dtype.kind == 'f',
            mean_type.dtype == x_type.dtype,
            projection_type.dtype == x_type.dtype,
        )
        type_check.expect(x_type.ndim >= 2)

    def forward(self, inputs):
        self.retain_inputs((0, 1, 2))
        x, mean, projection = inputs
        xp = backend.get_array_module(x)
        xc = _to_groups(x, self.groups) - mean[:, :, None]
        return (_from_groups(xp.matmul(projection, xc), x.shape),)

    def backward(self, indexes, grad_outputs):
        x, mean, projection = self.get_retained_inputs()
        xc = _to_groups(x, self.groups) - broadcast.broadcast_to(
            mean[:, :, None], (mean.shape + (x.size // mean.size,))
        )
        gyg = _to_groups(grad_outputs[0], self.groups)
        gxc = matmul.matmul(projection, gyg, transa=True)
        gx = _from_groups(gxc, x.shape)
        gmean = -sum_mod.sum(gxc, axis=2)
        gprojection = matmul.matmul(gyg, xc, transb=True)
        return gx, gmean, gprojection


class FixedDecorrelatedBatchNormalizationGrad(_grad_of.GradOf):
    """Chainer's gradient node of :class:`FixedDecorrelatedBatchNormalization`:
    applied to ``(x, mean, projection, gy)``, the gradients of the three
    inputs, from that node's own backward (so it is differentiable again).
    Those of ``mean`` and ``projection`` are the derivatives; Chainer's
    node gives other values there (docs/differences.rst)."""

    def __init__(self, groups):
        self.groups = groups

    def gradients(self, xs):
        def fixed(x, mean, projection):
            return FixedDecorrelatedBatchNormalization(self.groups).apply(
                (x, mean, projection)
            )[0]

        return _grad_of.grads_of(fixed, xs[:3], xs[3])
