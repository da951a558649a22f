"""Gumbel distribution."""

import math

import numpy

from chainerlite import distribution
from chainerlite import functions as F
from chainerlite import variable

_EULER = float(numpy.euler_gamma)


class Gumbel(distribution.Distribution):
    """Gumbel (type-I extreme value) distribution with location ``loc`` and
    scale ``scale``: :math:`F(x) = \\exp(-e^{-(x - \\mu) / \\beta})`."""

    def __init__(self, loc, scale):
        super(Gumbel, self).__init__()
        self.loc = variable.as_variable(loc)
        self.scale = variable.as_variable(scale)

    @property
    def batch_shape(self):
        return self.loc.shape

    @property
    def event_shape(self):
        return ()

    @property
    def params(self):
        return {'loc': self.loc, 'scale': self.scale}

    @property
    def support(self):
        return 'real'

    def log_prob(self, x):
        z = (x - self.loc) / self.scale
        return -F.log(self.scale) - z - F.exp(-z)

    def cdf(self, x):
        return F.exp(-F.exp(-(x - self.loc) / self.scale))

    @property
    def entropy(self):
        return F.log(self.scale) + (_EULER + 1.0)

    @property
    def mean(self):
        return self.loc + _EULER * self.scale

    @property
    def mode(self):
        return self.loc

    @property
    def variance(self):
        return (math.pi ** 2 / 6.0) * F.square(self.scale)

    def sample_n(self, n):
        xp = self.xp
        shape = (n,) + self.loc.shape
        eps = xp.random.gumbel(size=shape).astype(self.loc.dtype)
        return self.loc + self.scale * eps


@distribution.register_kl(Gumbel, Gumbel)
def _kl_gumbel_gumbel(dist1, dist2):
    # Uses E[exp(-t z)] = Gamma(1 + t) for a standard Gumbel z
    # (needs F.lgamma, hence SciPy on the CPU).
    ratio = dist1.scale / dist2.scale
    shift = (dist1.loc - dist2.loc) / dist2.scale
    return (-F.log(ratio) + _EULER * (ratio - 1.0) + shift
            + F.exp(F.lgamma(1.0 + ratio) - shift) - 1.0)
