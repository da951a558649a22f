"""One-hot categorical distribution."""

from chainerlite.distributions import categorical
from chainerlite import functions as F
from chainerlite import variable


class OneHotCategorical(categorical.Categorical):
    """Categorical distribution whose samples are one-hot vectors of length
    ``K`` (the last axis of ``p``)."""

    def __init__(self, p):
        super(OneHotCategorical, self).__init__(p=p)

    @property
    def event_shape(self):
        return self.p.shape[-1:]

    @property
    def support(self):
        return '{0, 1}^K with one 1'

    def log_prob(self, x):
        x = variable.as_array(x).astype(self.p.dtype, copy=False)
        # Categories with x == 0 contribute nothing, even where p == 0.
        xp = self.xp
        log_p = F.broadcast_to(self.log_p, xp.broadcast(x, self.p.array).shape)
        finite = F.where(
            xp.broadcast_to(x != 0, log_p.shape),
            log_p,
            xp.zeros(log_p.shape, log_p.dtype),
        )
        return F.sum(finite * x, axis=-1)

    @property
    def mean(self):
        return self.p

    @property
    def variance(self):
        return self.p * (1.0 - self.p)

    def sample_n(self, n):
        idx = self._draw_indices(n)
        k = self.p.shape[-1]
        onehot = (idx[..., None] == self.xp.arange(k)).astype(self.p.dtype)
        return variable.Variable(onehot)
