"""Multivariate normal distribution parameterized by a Cholesky factor."""

import numpy

from chainerlite import backend
from chainerlite import distribution
from chainerlite.distributions import normal
from chainerlite import function_node
from chainerlite import functions as F
from chainerlite.functions.math import _scipy_special
from chainerlite.utils import type_check
from chainerlite import variable

# Entropy and log normalizing constant of a standard normal, per dimension.
ENTROPYC = normal.ENTROPYC
LOGPROBC = normal.LOGPROBC
# Whether SciPy (which inverts triangular matrices on the CPU) is installed.
available_cpu = _scipy_special.SCIPY_AVAILABLE


def _solve_triangular():
    try:
        from scipy import linalg
    except ImportError:
        raise ImportError(
            'chainerlite.distributions.MultivariateNormal needs SciPy on '
            'the CPU to invert triangular matrices'
        )
    return linalg.solve_triangular


class TriangularInv(function_node.FunctionNode):
    """Inverse of a lower (or upper) triangular matrix."""

    def __init__(self, lower):
        self.lower = lower

    @property
    def label(self):
        return 'triangular_inv'

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        (x_type,) = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim == 2,
            x_type.shape[0] == x_type.shape[1],
        )

    def forward(self, inputs):
        (x,) = inputs
        self.retain_outputs((0,))
        xp = backend.get_array_module(x)
        eye = xp.eye(x.shape[0], dtype=x.dtype)
        if xp is numpy:
            solve = _solve_triangular()
            y = solve(x, eye, lower=self.lower)
        else:
            import cupyx.scipy.linalg

            y = cupyx.scipy.linalg.solve_triangular(x, eye, lower=self.lower)
        return (xp.asarray(y, dtype=x.dtype),)

    def backward(self, indexes, grad_outputs):
        (y,) = self.get_retained_outputs()
        (gy,) = grad_outputs
        # d(X^-1) = -X^-1 dX X^-1, restricted to the triangle of X.
        gx = -F.matmul(F.matmul(y, gy, transa=True), y, transb=True)
        xp = backend.get_array_module(gy)
        mask = xp.ones(gx.shape, dtype=bool)
        mask = xp.tril(mask) if self.lower else xp.triu(mask)
        return (F.where(mask, gx, xp.zeros(gx.shape, gx.dtype)),)


def _triangular_inv(x, lower=True):
    """Inverse of a triangular matrix (needs SciPy on the CPU)."""
    return TriangularInv(lower).apply((x,))[0]


def _batch_triangular_inv(x, lower=True):
    """Inverses of a batch ``(n, d, d)`` of triangular matrices."""
    n = x.shape[0]
    return F.stack([_triangular_inv(x[i], lower) for i in range(n)])


def _batch_matvec(mats, vecs):
    """``mats`` (B, d, d) applied to ``vecs`` (S, B, d); returns (S, B, d)."""
    stacked = F.transpose(vecs, (1, 2, 0))
    return F.transpose(F.matmul(mats, stacked), (2, 0, 1))


class MultivariateNormal(distribution.Distribution):
    """Multivariate normal distribution :math:`N(\\mu, LL^T)`.

    Args:
        loc (Variable or array): Mean; the last axis is the event axis.
        scale_tril (Variable or array): Lower Cholesky factor :math:`L` of
            the covariance, of shape ``loc.shape + (d,)``.
    """

    def __init__(self, loc, **kwargs):
        super(MultivariateNormal, self).__init__()
        scale_tril = kwargs.pop('scale_tril', None)
        if kwargs:
            raise TypeError(
                'MultivariateNormal: unexpected arguments {}'.format(sorted(kwargs))
            )
        if scale_tril is None:
            raise ValueError('MultivariateNormal: scale_tril is required')
        self.loc = variable.as_variable(loc)
        self.scale_tril = variable.as_variable(scale_tril)
        self.d = self.loc.shape[-1]

    @property
    def batch_shape(self):
        return self.loc.shape[:-1]

    @property
    def event_shape(self):
        return self.loc.shape[-1:]

    @property
    def params(self):
        return {'loc': self.loc, 'scale_tril': self.scale_tril}

    @property
    def support(self):
        return 'real'

    def _flat_tril(self):
        return F.reshape(self.scale_tril, (-1, self.d, self.d))

    def _half_logdet(self):
        diag = F.diagonal(self.scale_tril, axis1=-2, axis2=-1)
        return F.sum(F.log(F.absolute(diag)), axis=-1)

    @property
    def entropy(self):
        return self._half_logdet() + self.d * ENTROPYC

    @property
    def mean(self):
        return self.loc

    @property
    def covariance(self):
        tril = self._flat_tril()
        cov = F.matmul(tril, tril, transb=True)
        return F.reshape(cov, self.scale_tril.shape)

    def log_prob(self, x):
        x = variable.as_variable(x)
        sample_shape = x.shape[: x.ndim - self.loc.ndim]
        diff = F.reshape(
            x - F.broadcast_to(self.loc, x.shape),
            (-1,) + (int(numpy.prod(self.batch_shape)), self.d),
        )
        inv = _batch_triangular_inv(self._flat_tril())
        z = _batch_matvec(inv, diff)
        sq = F.reshape(F.sum(F.square(z), axis=-1), sample_shape + self.batch_shape)
        return -0.5 * sq - self._half_logdet() + self.d * LOGPROBC

    def sample_n(self, n):
        xp = self.xp
        batch = int(numpy.prod(self.batch_shape))
        eps = xp.random.standard_normal((n, batch, self.d)).astype(self.loc.dtype)
        noise = _batch_matvec(self._flat_tril(), eps)
        noise = F.reshape(noise, (n,) + self.loc.shape)
        return noise + F.broadcast_to(self.loc, noise.shape)


@distribution.register_kl(MultivariateNormal, MultivariateNormal)
def _kl_multivariate_normal(dist1, dist2):
    d = dist1.d
    batch = int(numpy.prod(dist1.batch_shape))
    inv2 = _batch_triangular_inv(dist2._flat_tril())
    # tr(S2^-1 S1) = |L2^-1 L1|_F^2.
    trace = F.sum(F.square(F.matmul(inv2, dist1._flat_tril())), axis=(1, 2))
    diff = F.reshape(dist2.loc - dist1.loc, (1, batch, d))
    maha = F.sum(F.square(_batch_matvec(inv2, diff)), axis=(0, 2))
    kl = 0.5 * (trace + maha - d)
    return (
        F.reshape(kl, dist1.batch_shape) + dist2._half_logdet() - dist1._half_logdet()
    )
