"""Pareto distribution."""

from chainerlite import distribution
from chainerlite.distributions import _scalar_event
from chainerlite import functions as F
from chainerlite import variable


class Pareto(_scalar_event.ScalarEvent):
    """Pareto distribution: density :math:`\\alpha s^\\alpha / x^{\\alpha+1}`
    on :math:`x \\ge s` (``scale`` :math:`s`, shape ``alpha``)."""

    _param_names = ('scale', 'alpha')
    _support = '[scale, inf]'

    def __init__(self, scale, alpha):
        super(Pareto, self).__init__()
        self._set_params(scale=scale, alpha=alpha)

    def log_prob(self, x):
        x = variable.as_variable(x)
        logp = (
            F.log(self.alpha)
            + self.alpha * F.log(self.scale)
            - (self.alpha + 1.0) * F.log(x)
        )
        xp = self.xp
        inside = xp.broadcast_to(
            x.array >= xp.broadcast_to(self.scale.array, logp.shape), logp.shape
        )
        return F.where(inside, logp, xp.full(logp.shape, -xp.inf, logp.dtype))

    @property
    def entropy(self):
        return F.log(self.scale / self.alpha) + 1.0 / self.alpha + 1.0

    def _where_alpha_above(self, bound, value):
        xp = self.xp
        inf = xp.full(value.shape, xp.inf, value.dtype)
        return F.where(self._alpha_above(bound), value, inf)

    def _alpha_above(self, bound):
        # an array even for 0-d parameters (a comparison there gives a bool_)
        return self.xp.asarray(self.alpha.array > bound)

    @property
    def mean(self):
        a = self.alpha
        # For alpha <= 1 the mean is infinite; guard the division there.
        safe = F.where(self._alpha_above(1), a, self.xp.full(a.shape, 2, a.dtype))
        return self._where_alpha_above(1, safe * self.scale / (safe - 1.0))

    @property
    def variance(self):
        a = self.alpha
        safe = F.where(self._alpha_above(2), a, self.xp.full(a.shape, 3, a.dtype))
        value = F.square(self.scale) * safe / (F.square(safe - 1.0) * (safe - 2.0))
        return self._where_alpha_above(2, value)

    def sample_n(self, n):
        xp = self.xp
        shape = (n,) + self.scale.shape
        u = xp.random.uniform(size=shape).astype(self.scale.dtype)
        # Inverse CDF; 1 - u lies in (0, 1].
        return self.scale * F.exp(-F.log(1.0 - u) / self.alpha)


@distribution.register_kl(Pareto, Pareto)
def _kl_pareto_pareto(dist1, dist2):
    a1, a2 = dist1.alpha, dist2.alpha
    kl = F.log(a1 / a2) + a2 * (F.log(dist1.scale) - F.log(dist2.scale)) + a2 / a1 - 1.0
    xp = dist1.xp
    covered = dist1.scale.array >= dist2.scale.array
    return F.where(covered, kl, xp.full(kl.shape, xp.inf, kl.dtype))
