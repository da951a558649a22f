"""Beta distribution."""

from chainerlite import distribution
from chainerlite.distributions import _scalar_event
from chainerlite import functions as F
from chainerlite import variable


def _lbeta(a, b):
    return F.lgamma(a) + F.lgamma(b) - F.lgamma(a + b)


class Beta(_scalar_event.ScalarEvent):
    """Beta distribution with density
    :math:`x^{a-1} (1-x)^{b-1} / B(a, b)` on :math:`[0, 1]`.

    ``log_prob``, ``entropy`` and the KL divergence need SciPy on the CPU
    (for :func:`F.lgamma` and :func:`F.digamma`).
    """

    _param_names = ('a', 'b')
    _support = '[0, 1]'

    def __init__(self, a, b):
        super(Beta, self).__init__()
        self._set_params(a=a, b=b)

    def log_prob(self, x):
        a, b = self.a, self.b
        x = variable.as_variable(x)  # -x of a 0-d array would be a NumPy scalar
        return (a - 1.0) * F.log(x) + (b - 1.0) * F.log1p(-x) - _lbeta(a, b)

    @property
    def entropy(self):
        a, b = self.a, self.b
        return (
            _lbeta(a, b)
            - (a - 1.0) * F.digamma(a)
            - (b - 1.0) * F.digamma(b)
            + (a + b - 2.0) * F.digamma(a + b)
        )

    @property
    def mean(self):
        return self.a / (self.a + self.b)

    @property
    def variance(self):
        s = self.a + self.b
        return self.a * self.b / (F.square(s) * (s + 1.0))

    def sample_n(self, n):
        xp = self.xp
        a, b = self.a.array, self.b.array
        draws = xp.random.beta(a, b, size=(n,) + a.shape)
        return variable.Variable(draws.astype(a.dtype))


@distribution.register_kl(Beta, Beta)
def _kl_beta_beta(dist1, dist2):
    a1, b1, a2, b2 = dist1.a, dist1.b, dist2.a, dist2.b
    return (
        _lbeta(a2, b2)
        - _lbeta(a1, b1)
        + (a1 - a2) * F.digamma(a1)
        + (b1 - b2) * F.digamma(b1)
        + (a2 - a1 + b2 - b1) * F.digamma(a1 + b1)
    )
