"""Geometric distribution over the positive integers."""

from chainerlite import distribution
from chainerlite.distributions import _scalar_event
from chainerlite import functions as F
from chainerlite import variable


class Geometric(_scalar_event.ScalarEvent):
    """Number of Bernoulli(``p``) trials up to and including the first
    success: :math:`P(x) = (1 - p)^{x - 1} p` for :math:`x = 1, 2, \\dots`.
    """

    _param_names = ('p',)
    _support = 'positive integer'

    def __init__(self, p):
        super(Geometric, self).__init__()
        self._set_params(p=p)

    def log_prob(self, x):
        x = variable.as_array(x)
        return (x - 1) * F.log1p(-self.p) + F.log(self.p)

    @property
    def mean(self):
        return 1.0 / self.p

    @property
    def variance(self):
        return (1.0 - self.p) / F.square(self.p)

    @property
    def entropy(self):
        p = self.p
        q = 1.0 - p
        return -(q * F.log(q) + p * F.log(p)) / p

    def sample_n(self, n):
        xp = self.xp
        p = self.p.array
        draws = xp.random.geometric(p, size=(n,) + p.shape)
        return variable.Variable(draws.astype(p.dtype))


@distribution.register_kl(Geometric, Geometric)
def _kl_geometric_geometric(dist1, dist2):
    p, q = dist1.p, dist2.p
    return (1.0 - p) / p * (F.log1p(-p) - F.log1p(-q)) + F.log(p) - F.log(q)
