"""Poisson distribution."""

from chainerlite import distribution
from chainerlite.distributions import _scalar_event
from chainerlite import functions as F
from chainerlite import variable


class Poisson(_scalar_event.ScalarEvent):
    """Poisson distribution with rate ``lam``.

    ``log_prob`` needs SciPy on the CPU (for :func:`F.lgamma`).
    """

    _param_names = ('lam',)
    _support = 'non negative integer'

    def __init__(self, lam):
        super(Poisson, self).__init__()
        self._set_params(lam=lam)

    def log_prob(self, x):
        x = self.xp.asarray(variable.as_array(x))  # a NumPy scalar too
        # a Variable: xf + 1.0 of a 0-d array would be a NumPy scalar
        xf = variable.as_variable(x.astype(self.lam.dtype, copy=False))
        return xf * F.log(self.lam) - self.lam - F.lgamma(xf + 1.0)

    @property
    def mean(self):
        return self.lam

    @property
    def variance(self):
        return self.lam

    def sample_n(self, n):
        xp = self.xp
        lam = self.lam.array
        draws = xp.random.poisson(lam, size=(n,) + lam.shape)
        return variable.Variable(draws.astype(lam.dtype))


@distribution.register_kl(Poisson, Poisson)
def _kl_poisson_poisson(dist1, dist2):
    lam1, lam2 = dist1.lam, dist2.lam
    return lam1 * (F.log(lam1) - F.log(lam2)) - lam1 + lam2
