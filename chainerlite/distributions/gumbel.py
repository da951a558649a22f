"""Gumbel distribution."""

import math

import numpy

from chainerlite import distribution
from chainerlite.distributions import _scalar_event
from chainerlite import functions as F

# Euler-Mascheroni constant (Chainer names it EULER too).
EULER = float(numpy.euler_gamma)


class Gumbel(_scalar_event.LocScale):
    """Gumbel (type-I extreme value) distribution with location ``loc`` and
    scale ``scale``: :math:`F(x) = \\exp(-e^{-(x - \\mu) / \\beta})`."""

    def log_prob(self, x):
        z = (x - self.loc) / self.scale
        return -F.log(self.scale) - z - F.exp(-z)

    def cdf(self, x):
        return F.exp(-F.exp(-(x - self.loc) / self.scale))

    def log_cdf(self, x):
        # log(cdf) in closed form: the cdf underflows to 0 (and its log to
        # -inf) in float32 where this is still a finite -exp(z), z < 89
        return -F.exp(-(x - self.loc) / self.scale)

    @property
    def entropy(self):
        return F.log(self.scale) + (EULER + 1.0)

    @property
    def mean(self):
        return self.loc + EULER * self.scale

    @property
    def variance(self):
        return (math.pi**2 / 6.0) * F.square(self.scale)

    def _standard_sample(self, xp, shape):
        return xp.random.gumbel(size=shape)


@distribution.register_kl(Gumbel, Gumbel)
def _kl_gumbel_gumbel(dist1, dist2):
    # Uses E[exp(-t z)] = Gamma(1 + t) for a standard Gumbel z
    # (needs F.lgamma, hence SciPy on the CPU).
    ratio = dist1.scale / dist2.scale
    shift = (dist1.loc - dist2.loc) / dist2.scale
    return (
        -F.log(ratio)
        + EULER * (ratio - 1.0)
        + shift
        + F.exp(F.lgamma(1.0 + ratio) - shift)
        - 1.0
    )
