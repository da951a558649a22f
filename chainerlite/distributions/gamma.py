"""Gamma distribution (shape ``k``, scale ``theta``)."""

from chainerlite import distribution
from chainerlite.distributions import _scalar_event
from chainerlite import functions as F


class Gamma(_scalar_event.ScalarEvent):
    """Gamma distribution with density
    :math:`x^{k-1} e^{-x/\\theta} / (\\Gamma(k) \\theta^k)` on :math:`x > 0`.

    ``log_prob``, ``entropy`` and the KL divergence use :func:`F.lgamma`
    and :func:`F.digamma`, which need SciPy on the CPU.
    """

    _param_names = ('k', 'theta')
    _support = 'positive'

    def __init__(self, k, theta):
        super(Gamma, self).__init__()
        self._set_params(k=k, theta=theta)

    def log_prob(self, x):
        k, theta = self.k, self.theta
        return -F.lgamma(k) - k * F.log(theta) + (k - 1.0) * F.log(x) - x / theta

    @property
    def entropy(self):
        k = self.k
        return k + F.log(self.theta) + F.lgamma(k) + (1.0 - k) * F.digamma(k)

    @property
    def mean(self):
        return self.k * self.theta

    @property
    def variance(self):
        return self.k * F.square(self.theta)

    def sample_n(self, n):
        xp = self.xp
        k = self.k.array
        eps = xp.random.gamma(k, size=(n,) + k.shape).astype(k.dtype)
        return self.theta * eps


@distribution.register_kl(Gamma, Gamma)
def _kl_gamma_gamma(dist1, dist2):
    k1, k2 = dist1.k, dist2.k
    t1, t2 = dist1.theta, dist2.theta
    return (
        (k1 - k2) * F.digamma(k1)
        - F.lgamma(k1)
        + F.lgamma(k2)
        + k2 * (F.log(t2) - F.log(t1))
        + k1 * (t1 - t2) / t2
    )
