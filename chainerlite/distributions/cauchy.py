"""Cauchy distribution."""

import math
import warnings

from chainerlite.distributions import _scalar_event
from chainerlite import functions as F
from chainerlite import variable


class Cauchy(_scalar_event.LocScale):
    """Cauchy distribution with location ``loc`` and scale ``scale``.

    Its mean and variance are undefined: they are NaN, with a
    :class:`RuntimeWarning`.
    """

    def log_prob(self, x):
        z = (x - self.loc) / self.scale
        return -math.log(math.pi) - F.log(self.scale) - F.log1p(F.square(z))

    def cdf(self, x):
        return 0.5 + F.arctan((x - self.loc) / self.scale) / math.pi

    def icdf(self, x):
        # a Variable: arithmetic on a 0-d array would give a NumPy scalar
        x = variable.as_variable(x)
        return self.loc + self.scale * F.tan(math.pi * (x - 0.5))

    @property
    def entropy(self):
        return F.log(4 * math.pi * self.scale)

    def _undefined(self, name):
        warnings.warn(
            '{} of the Cauchy distribution is undefined'.format(name), RuntimeWarning
        )
        xp = self.xp
        return variable.Variable(xp.full(self.loc.shape, xp.nan, self.loc.dtype))

    @property
    def mean(self):
        return self._undefined('Mean')

    @property
    def variance(self):
        return self._undefined('Variance')

    def _standard_sample(self, xp, shape):
        return xp.random.standard_cauchy(shape)
