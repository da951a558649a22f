"""Independent: reinterprets batch axes of a distribution as event axes."""

import numpy

from chainerlite import distribution
from chainerlite import functions as F


class Independent(distribution.Distribution):
    """Treats the last ``reinterpreted_batch_ndims`` batch axes of
    ``distribution`` as event axes.

    Log-probabilities and entropies are summed over those axes.

    Args:
        distribution (Distribution): The base distribution.
        reinterpreted_batch_ndims (int or None): How many trailing batch
            axes become event axes; ``None`` means all but the first.
    """

    def __init__(self, distribution, reinterpreted_batch_ndims=None):
        super(Independent, self).__init__()
        batch_ndim = len(distribution.batch_shape)
        if reinterpreted_batch_ndims is None:
            reinterpreted_batch_ndims = max(batch_ndim - 1, 0)
        if not 0 <= reinterpreted_batch_ndims <= batch_ndim:
            raise ValueError(
                'Independent: reinterpreted_batch_ndims must be between 0 '
                'and the number of batch axes ({}), got {}'.format(
                    batch_ndim, reinterpreted_batch_ndims
                )
            )
        self._distribution = distribution
        self._reinterpreted_batch_ndims = reinterpreted_batch_ndims

    @property
    def distribution(self):
        """The wrapped distribution (read-only)."""
        return self._distribution

    @property
    def reinterpreted_batch_ndims(self):
        """The number of batch axes read as event axes (read-only)."""
        return self._reinterpreted_batch_ndims

    @property
    def _split(self):
        shape = self.distribution.batch_shape
        return len(shape) - self.reinterpreted_batch_ndims

    def _reduce(self, x):
        n = self.reinterpreted_batch_ndims
        if n == 0:
            return x
        return F.sum(x, axis=tuple(range(-n, 0)))

    @property
    def batch_shape(self):
        return self.distribution.batch_shape[: self._split]

    @property
    def event_shape(self):
        return (
            self.distribution.batch_shape[self._split :] + self.distribution.event_shape
        )

    @property
    def params(self):
        return self.distribution.params

    @property
    def support(self):
        return self.distribution.support

    @property
    def xp(self):
        return self.distribution.xp

    def log_prob(self, x):
        return self._reduce(self.distribution.log_prob(x))

    def prob(self, x):
        return F.exp(self.log_prob(x))

    def cdf(self, x):
        cdf = self.distribution.cdf(x)
        n = self.reinterpreted_batch_ndims
        return F.prod(cdf, axis=tuple(range(-n, 0))) if n else cdf

    @property
    def entropy(self):
        return self._reduce(self.distribution.entropy)

    @property
    def mean(self):
        return self.distribution.mean

    @property
    def mode(self):
        return self.distribution.mode

    @property
    def variance(self):
        return self.distribution.variance

    @property
    def stddev(self):
        return self.distribution.stddev

    @property
    def covariance(self):
        """Diagonal covariance over the event axes (for a base
        distribution with scalar events)."""
        if self.distribution.event_shape != ():
            raise NotImplementedError(
                'Independent.covariance needs a base distribution with scalar events'
            )
        var = self.distribution.variance
        event = self.event_shape
        d = int(numpy.prod(event, dtype=numpy.int64))
        flat = F.reshape(var, self.batch_shape + (d,))
        eye = self.xp.eye(d, dtype=var.dtype)
        cov = F.expand_dims(flat, -1) * F.broadcast_to(eye, self.batch_shape + (d, d))
        return F.reshape(cov, self.batch_shape + event + event)

    def sample_n(self, n):
        return self.distribution.sample_n(n)


@distribution.register_kl(Independent, Independent)
def _kl_independent_independent(dist1, dist2):
    if (
        dist1.reinterpreted_batch_ndims != dist2.reinterpreted_batch_ndims
        or dist1.event_shape != dist2.event_shape
    ):
        raise NotImplementedError(
            'kl_divergence between Independent distributions with '
            'different event shapes is not supported'
        )
    return dist1._reduce(
        distribution.kl_divergence(dist1.distribution, dist2.distribution)
    )
