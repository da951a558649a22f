"""Exponential distribution."""

from chainerlite import distribution
from chainerlite import functions as F
from chainerlite import variable


class Exponential(distribution.Distribution):
    """Exponential distribution with rate ``lam`` (density
    :math:`\\lambda e^{-\\lambda x}` on :math:`x \\ge 0`)."""

    def __init__(self, lam):
        super(Exponential, self).__init__()
        self.lam = variable.as_variable(lam)

    @property
    def batch_shape(self):
        return self.lam.shape

    @property
    def event_shape(self):
        return ()

    @property
    def params(self):
        return {'lam': self.lam}

    @property
    def support(self):
        return 'positive'

    def cdf(self, x):
        return -F.expm1(-self.lam * x)

    def icdf(self, x):
        return -F.log1p(-x) / self.lam

    def log_prob(self, x):
        x = variable.as_variable(x)
        logp = F.log(self.lam) - self.lam * x
        xp = self.xp
        inside = xp.broadcast_to(x.array >= 0, logp.shape)
        return F.where(inside, logp, xp.full(logp.shape, -xp.inf, logp.dtype))

    @property
    def entropy(self):
        return 1.0 - F.log(self.lam)

    @property
    def mean(self):
        return 1.0 / self.lam

    @property
    def mode(self):
        return 0.0 * self.lam

    @property
    def variance(self):
        return 1.0 / F.square(self.lam)

    def sample_n(self, n):
        xp = self.xp
        shape = (n,) + self.lam.shape
        eps = xp.random.standard_exponential(shape).astype(self.lam.dtype)
        return eps / self.lam


@distribution.register_kl(Exponential, Exponential)
def _kl_exponential_exponential(dist1, dist2):
    ratio = dist2.lam / dist1.lam
    return ratio - F.log(ratio) - 1.0
