"""Laplace distribution."""

import math

from chainerlite import distribution
from chainerlite.distributions import _scalar_event
from chainerlite import functions as F
from chainerlite.functions.math import _unary


class LaplaceCDF(_unary.UnaryFloat):
    """CDF of the standard Laplace distribution."""

    name = 'laplace_cdf'

    def compute(self, xp, x):
        return 0.5 - 0.5 * xp.sign(x) * xp.expm1(-xp.abs(x))

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        (gy,) = grad_outputs
        return (gy * 0.5 * F.exp(-F.absolute(x)),)


class LaplaceICDF(_unary.UnaryFloat):
    """Inverse CDF of the standard Laplace distribution."""

    name = 'laplace_icdf'

    def compute(self, xp, x):
        c = x - 0.5
        return -xp.sign(c) * xp.log1p(-2 * xp.abs(c))

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        (gy,) = grad_outputs
        return (gy / (0.5 - F.absolute(x - 0.5)),)


def _laplace_cdf(x):
    return LaplaceCDF().apply((x,))[0]


def _laplace_icdf(x):
    return LaplaceICDF().apply((x,))[0]


class Laplace(_scalar_event.LocScale):
    """Laplace distribution with location ``loc`` and scale ``scale``.

    Its density is :math:`\\frac{1}{2b} \\exp(-|x - \\mu| / b)`.
    """

    def cdf(self, x):
        return _laplace_cdf((x - self.loc) / self.scale)

    def icdf(self, x):
        return self.loc + self.scale * _laplace_icdf(x)

    def log_prob(self, x):
        return -F.log(2.0 * self.scale) - F.absolute(x - self.loc) / self.scale

    @property
    def entropy(self):
        return 1.0 + F.log(2.0 * self.scale)

    @property
    def mean(self):
        return self.loc

    @property
    def stddev(self):
        return math.sqrt(2.0) * self.scale

    @property
    def variance(self):
        return 2.0 * F.square(self.scale)

    def _standard_sample(self, xp, shape):
        return xp.random.laplace(size=shape)


@distribution.register_kl(Laplace, Laplace)
def _kl_laplace_laplace(dist1, dist2):
    diff = F.absolute(dist1.loc - dist2.loc)
    return (
        F.log(dist2.scale)
        - F.log(dist1.scale)
        + diff / dist2.scale
        + dist1.scale / dist2.scale * F.exp(-diff / dist1.scale)
        - 1.0
    )
