"""Categorical distribution over ``{0, ..., K - 1}``."""

import numpy

from chainerlite import distribution
from chainerlite.distributions import utils as dist_utils
from chainerlite import functions as F
from chainerlite import variable


class Categorical(distribution.Distribution):
    """Categorical distribution; the last axis of ``p`` (or ``logit``)
    indexes the ``K`` categories.

    Args:
        p (Variable or array): Probabilities, summing to one on the last
            axis.
        logit (Variable or array): Unnormalized log-probabilities; exactly
            one of ``p`` and ``logit`` must be given.
    """

    def __init__(self, p=None, logit=None):
        super(Categorical, self).__init__()
        if (p is None) == (logit is None):
            raise ValueError(
                '{}: either p or logit must be given (not both)'.format(
                    type(self).__name__
                )
            )
        if p is not None:
            self.p = variable.as_variable(p)
            self.log_p = F.log(self.p)
        else:
            logit = variable.as_variable(logit)
            self.log_p = F.log_softmax(logit, axis=-1)
            self.p = F.exp(self.log_p)

    @property
    def batch_shape(self):
        return self.p.shape[:-1]

    @property
    def event_shape(self):
        return ()

    @property
    def params(self):
        return {'p': self.p}

    @property
    def support(self):
        return '{0, 1, ..., K-1}'

    @property
    def entropy(self):
        return -F.sum(dist_utils._modified_xlogx(self.p), axis=-1)

    def log_prob(self, x):
        x = variable.as_array(x).astype('i', copy=False)
        k = self.p.shape[-1]
        shape = self.xp.broadcast(x, self.xp.empty(self.batch_shape)).shape
        log_p = F.broadcast_to(self.log_p, shape + (k,))
        index = self.xp.broadcast_to(x, shape).reshape(-1)
        picked = F.select_item(F.reshape(log_p, (-1, k)), index)
        return F.reshape(picked, shape)

    def _draw_indices(self, n):
        # As NumPy's choice(K, n, p=row) draws, row after row of the batch,
        # as Chainer calls it: n uniforms per row against the row's
        # cumulative sums (float64, scaled to end at one), so a seeded
        # draw gives Chainer's samples. Returns (n,) + batch_shape indices.
        xp = self.xp
        k = self.p.shape[-1]
        rows = self.p.array.reshape(-1, k).astype(numpy.float64)
        cum = xp.cumsum(rows, axis=1)
        cum /= cum[:, -1:]
        u = xp.random.random_sample(size=(rows.shape[0], n))
        idx = (cum[:, None, :] <= u[:, :, None]).sum(axis=-1)
        idx = xp.minimum(idx, k - 1)
        return idx.T.reshape((n,) + self.batch_shape)

    def sample_n(self, n):
        return variable.Variable(self._draw_indices(n))


@distribution.register_kl(Categorical, Categorical)
def _kl_categorical_categorical(dist1, dist2):
    return F.sum(dist1.p * (dist1.log_p - dist2.log_p), axis=-1)
