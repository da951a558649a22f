"""Exponential distribution."""

from chainerlite import distribution
from chainerlite.distributions import _scalar_event
from chainerlite import functions as F
from chainerlite import variable


class Exponential(_scalar_event.ScalarEvent):
    """Exponential distribution with rate ``lam`` (density
    :math:`\\lambda e^{-\\lambda x}` on :math:`x \\ge 0`)."""

    _param_names = ('lam',)
    _support = 'positive'

    def __init__(self, lam):
        super(Exponential, self).__init__()
        self._set_params(lam=lam)

    def cdf(self, x):
        return -F.expm1(-self.lam * x)

    def icdf(self, x):
        # a Variable: -x of a 0-d array would be a NumPy scalar
        return -F.log1p(-variable.as_variable(x)) / self.lam

    def log_prob(self, x):
        # x may also be a Python or NumPy scalar, as in Chainer
        logp = F.log(self.lam) - self.lam * x
        xp = self.xp
        inside = xp.broadcast_to(xp.asarray(variable.as_array(x)) >= 0, logp.shape)
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
