"""Normal (Gaussian) distribution."""

import math

from chainerlite import distribution
from chainerlite.distributions import _scalar_event
from chainerlite import functions as F
from chainerlite import variable

# Constants of the standard normal density: its entropy, the log of its
# normalizing constant, and that constant.
ENTROPYC = 0.5 * math.log(2 * math.pi * math.e)
LOGPROBC = -0.5 * math.log(2 * math.pi)
PROBC = 1.0 / math.sqrt(2 * math.pi)


class Normal(_scalar_event.LocScale):
    """Normal distribution :math:`N(\\mu, \\sigma^2)`.

    Args:
        loc (Variable or array): Mean :math:`\\mu`.
        scale (Variable or array): Standard deviation :math:`\\sigma`.
        log_scale (Variable or array): :math:`\\log \\sigma`; exactly one
            of ``scale`` and ``log_scale`` must be given.
    """

    def __init__(self, loc, scale=None, log_scale=None):
        distribution.Distribution.__init__(self)
        if (scale is None) == (log_scale is None):
            raise ValueError(
                'Normal: either scale or log_scale must be given (not both)'
            )
        self.loc = variable.as_variable(loc)
        self.__scale = None if scale is None else variable.as_variable(scale)
        self.__log_scale = (
            None if log_scale is None else variable.as_variable(log_scale)
        )

    @property
    def scale(self):
        if self.__scale is None:
            self.__scale = F.exp(self.__log_scale)
        return self.__scale

    @property
    def log_scale(self):
        if self.__log_scale is None:
            self.__log_scale = F.log(self.__scale)
        return self.__log_scale

    def cdf(self, x):
        return F.ndtr(self._standardize(x))

    def icdf(self, x):
        # F.ndtri needs SciPy on the CPU, as in Chainer.
        return self.loc + self.scale * F.ndtri(x)

    def survival_function(self, x):
        return F.ndtr(-self._standardize(x))

    def log_prob(self, x):
        z = self._standardize(x)
        return LOGPROBC - self.log_scale - 0.5 * F.square(z)

    @property
    def entropy(self):
        return self.log_scale + ENTROPYC

    @property
    def mean(self):
        return self.loc

    @property
    def stddev(self):
        return self.scale

    @property
    def variance(self):
        return F.square(self.scale)

    def _standard_sample(self, xp, shape):
        return xp.random.standard_normal(shape)


@distribution.register_kl(Normal, Normal)
def _kl_normal_normal(dist1, dist2):
    ratio = F.square(dist1.scale / dist2.scale)
    return (
        dist2.log_scale
        - dist1.log_scale
        + 0.5 * (ratio + F.square((dist1.loc - dist2.loc) / dist2.scale))
        - 0.5
    )
