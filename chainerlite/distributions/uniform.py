"""Continuous uniform distribution."""

from chainerlite import distribution
from chainerlite.distributions import _scalar_event
from chainerlite import functions as F
from chainerlite import variable


class Uniform(_scalar_event.ScalarEvent):
    """Uniform distribution on ``[low, high]``.

    Give either ``low`` and ``high``, or ``loc`` and ``scale`` (then
    ``low = loc`` and ``high = loc + scale``).
    """

    _param_names = ('low', 'high')
    _support = '[low, high]'

    def __init__(self, **kwargs):
        super(Uniform, self).__init__()
        unknown = set(kwargs) - {'low', 'high', 'loc', 'scale'}
        if unknown:
            raise TypeError('Uniform: unexpected arguments {}'.format(sorted(unknown)))
        low, high = kwargs.get('low'), kwargs.get('high')
        loc, scale = kwargs.get('loc'), kwargs.get('scale')
        if low is not None and high is not None and loc is None and scale is None:
            self.low = variable.as_variable(low)
            self.high = variable.as_variable(high)
        elif loc is not None and scale is not None and low is None and high is None:
            self.low = variable.as_variable(loc)
            self.high = self.low + variable.as_variable(scale)
        else:
            raise ValueError('Uniform: give either (low, high) or (loc, scale)')
        self.loc = self.low
        self.scale = self.high - self.low

    def _inside(self, x, shape):
        xp = self.xp
        x = variable.as_array(x)
        inside = (x >= self.low.array) & (x <= self.high.array)
        return xp.broadcast_to(inside, shape)

    def log_prob(self, x):
        logp = -F.log(self.scale)
        x_shape = variable.as_array(x).shape
        shape = self.xp.broadcast(logp.array, self.xp.empty(x_shape)).shape
        logp = F.broadcast_to(logp, shape)
        xp = self.xp
        return F.where(
            self._inside(x, shape), logp, xp.full(shape, -xp.inf, logp.dtype)
        )

    def cdf(self, x):
        return F.clip((x - self.low) / self.scale, 0.0, 1.0)

    def icdf(self, x):
        return self.low + self.scale * x

    @property
    def entropy(self):
        return F.log(self.scale)

    @property
    def mean(self):
        return 0.5 * (self.low + self.high)

    @property
    def variance(self):
        return F.square(self.scale) / 12.0

    def sample_n(self, n):
        xp = self.xp
        shape = (n,) + self.low.shape
        u = xp.random.uniform(size=shape).astype(self.low.dtype)
        return self.low + self.scale * u


@distribution.register_kl(Uniform, Uniform)
def _kl_uniform_uniform(dist1, dist2):
    kl = F.log(dist2.scale) - F.log(dist1.scale)
    xp = dist1.xp
    covered = (dist1.low.array >= dist2.low.array) & (
        dist1.high.array <= dist2.high.array
    )
    return F.where(covered, kl, xp.full(kl.shape, xp.inf, kl.dtype))
