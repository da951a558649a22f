"""Chi-square distribution."""

import math

from chainerlite.distributions import _scalar_event
from chainerlite import functions as F
from chainerlite import variable


class Chisquare(_scalar_event.ScalarEvent):
    """Chi-square distribution with ``k`` degrees of freedom (the Gamma
    distribution of shape ``k / 2`` and scale 2).

    ``log_prob`` and ``entropy`` need SciPy on the CPU (for
    :func:`F.lgamma` and :func:`F.digamma`).
    """

    _param_names = ('k',)
    _support = 'positive'

    def __init__(self, k):
        super(Chisquare, self).__init__()
        self._set_params(k=k)

    def log_prob(self, x):
        half_k = 0.5 * self.k
        return (
            (half_k - 1.0) * F.log(x)
            - 0.5 * x
            - half_k * math.log(2.0)
            - F.lgamma(half_k)
        )

    @property
    def entropy(self):
        half_k = 0.5 * self.k
        return (
            half_k
            + math.log(2.0)
            + F.lgamma(half_k)
            + (1.0 - half_k) * F.digamma(half_k)
        )

    @property
    def mean(self):
        return self.k

    @property
    def variance(self):
        return 2.0 * self.k

    def sample_n(self, n):
        xp = self.xp
        k = self.k.array
        draws = xp.random.chisquare(k, size=(n,) + k.shape)
        return variable.Variable(draws.astype(k.dtype))
