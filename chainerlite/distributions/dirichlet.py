"""Dirichlet distribution over the probability simplex."""

import numpy

from chainerlite import distribution
from chainerlite import functions as F
from chainerlite import variable


class Dirichlet(distribution.Distribution):
    """Dirichlet distribution; the last axis of ``alpha`` is the event axis.

    ``log_prob``, ``entropy`` and the KL divergence need SciPy on the CPU
    (for :func:`F.lgamma` and :func:`F.digamma`).
    """

    def __init__(self, alpha):
        super(Dirichlet, self).__init__()
        self.alpha = variable.as_variable(alpha)
        self.alpha0 = F.sum(self.alpha, axis=-1)

    @property
    def batch_shape(self):
        return self.alpha.shape[:-1]

    @property
    def event_shape(self):
        return self.alpha.shape[-1:]

    @property
    def params(self):
        return {'alpha': self.alpha}

    @property
    def support(self):
        return '[0, 1]'

    def _log_norm(self):
        return F.sum(F.lgamma(self.alpha), axis=-1) - F.lgamma(self.alpha0)

    def log_prob(self, x):
        x = variable.as_variable(x)
        alpha = F.broadcast_to(self.alpha, x.shape)
        return F.sum((alpha - 1.0) * F.log(x), axis=-1) - self._log_norm()

    @property
    def entropy(self):
        k = self.alpha.shape[-1]
        return (
            self._log_norm()
            + (self.alpha0 - k) * F.digamma(self.alpha0)
            - F.sum((self.alpha - 1.0) * F.digamma(self.alpha), axis=-1)
        )

    @property
    def mean(self):
        return self.alpha / F.expand_dims(self.alpha0, -1)

    @property
    def variance(self):
        a0 = F.expand_dims(self.alpha0, -1)
        return self.alpha * (a0 - self.alpha) / (F.square(a0) * (a0 + 1.0))

    def sample_n(self, n):
        # As NumPy's dirichlet(row, n) draws, row after row of the batch, as
        # Chainer calls it, so a seeded draw gives Chainer's samples: the
        # gammas of a sample's k components one after the other, each
        # multiplied by the inverse of their running sum.
        xp = self.xp
        alpha = self.alpha.array
        k = alpha.shape[-1]
        rows = alpha.reshape(-1, k).astype(numpy.float64)
        draws = xp.random.gamma(rows[:, None, :], size=(rows.shape[0], n, k))
        draws *= 1 / xp.cumsum(draws, axis=-1)[..., -1:]
        draws = draws.swapaxes(0, 1).reshape((n,) + alpha.shape)
        return variable.Variable(draws.astype(alpha.dtype))


@distribution.register_kl(Dirichlet, Dirichlet)
def _kl_dirichlet_dirichlet(dist1, dist2):
    a, b = dist1.alpha, dist2.alpha
    psi = F.digamma(a) - F.expand_dims(F.digamma(dist1.alpha0), -1)
    return dist2._log_norm() - dist1._log_norm() + F.sum((a - b) * psi, axis=-1)
