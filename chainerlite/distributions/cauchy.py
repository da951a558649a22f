"""Cauchy distribution."""

import math
import warnings

from chainerlite import distribution
from chainerlite import functions as F
from chainerlite import variable


class Cauchy(distribution.Distribution):
    """Cauchy distribution with location ``loc`` and scale ``scale``.

    Its mean and variance are undefined: they are NaN, with a
    :class:`RuntimeWarning`.
    """

    def __init__(self, loc, scale):
        super(Cauchy, self).__init__()
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
        return -math.log(math.pi) - F.log(self.scale) - F.log1p(F.square(z))

    def cdf(self, x):
        return 0.5 + F.arctan((x - self.loc) / self.scale) / math.pi

    def icdf(self, x):
        return self.loc + self.scale * F.tan(math.pi * (x - 0.5))

    @property
    def entropy(self):
        return F.log(4 * math.pi * self.scale)

    def _undefined(self, name):
        warnings.warn('{} of the Cauchy distribution is undefined'.format(
            name), RuntimeWarning)
        xp = self.xp
        return variable.Variable(
            xp.full(self.loc.shape, xp.nan, self.loc.dtype))

    @property
    def mean(self):
        return self._undefined('Mean')

    @property
    def mode(self):
        return self.loc

    @property
    def variance(self):
        return self._undefined('Variance')

    def sample_n(self, n):
        xp = self.xp
        shape = (n,) + self.loc.shape
        eps = xp.random.standard_cauchy(shape).astype(self.loc.dtype)
        return self.loc + self.scale * eps
