"""Log-normal distribution."""

from chainerlite import distribution
from chainerlite.distributions import _scalar_event
from chainerlite.distributions import normal
from chainerlite import functions as F

# log of the normalizing constant of the normal density.
LOGPROBC = normal.LOGPROBC


class LogNormal(_scalar_event.ScalarEvent):
    """Distribution of :math:`e^Y` where :math:`Y \\sim N(\\mu, \\sigma^2)`."""

    _param_names = ('mu', 'sigma')
    _support = 'positive'

    def __init__(self, mu, sigma):
        super(LogNormal, self).__init__()
        self._set_params(mu=mu, sigma=sigma)

    def log_prob(self, x):
        logx = F.log(x)
        z = (logx - self.mu) / self.sigma
        return -logx - F.log(self.sigma) + LOGPROBC - 0.5 * F.square(z)

    @property
    def entropy(self):
        return self.mu + F.log(self.sigma) + (0.5 - LOGPROBC)

    @property
    def mean(self):
        return F.exp(self.mu + 0.5 * F.square(self.sigma))

    @property
    def variance(self):
        s2 = F.square(self.sigma)
        return F.expm1(s2) * F.exp(2.0 * self.mu + s2)

    def sample_n(self, n):
        xp = self.xp
        shape = (n,) + self.mu.shape
        eps = xp.random.standard_normal(shape).astype(self.mu.dtype)
        return F.exp(self.mu + self.sigma * eps)


@distribution.register_kl(LogNormal, LogNormal)
def _kl_log_normal_log_normal(dist1, dist2):
    return (
        F.log(dist2.sigma)
        - F.log(dist1.sigma)
        + 0.5
        * (F.square(dist1.sigma) + F.square(dist1.mu - dist2.mu))
        / F.square(dist2.sigma)
        - 0.5
    )
