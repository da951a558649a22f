"""Base of the real-line distributions given by ``loc`` and ``scale``."""

from chainerlite import distribution
from chainerlite import variable


class LocScale(distribution.Distribution):
    """``loc + scale * eps`` for a standard variable ``eps``, elementwise.

    A subclass defines :meth:`_standard_sample` (draws of ``eps``).
    """

    def __init__(self, loc, scale):
        super(LocScale, self).__init__()
        self.loc = variable.as_variable(loc)
        self.scale = variable.as_variable(scale)

    @property
    def batch_shape(self):
        return self.loc.shape

    @property
    def event_shape(self):
        return ()

    @property
    def params(self):
        return {'loc': self.loc, 'scale': self.scale}

    @property
    def support(self):
        return 'real'

    @property
    def mode(self):
        return self.loc

    def _standardize(self, x):
        return (x - self.loc) / self.scale

    def sample_n(self, n):
        shape = (n,) + self.loc.shape
        eps = self._standard_sample(self.xp, shape).astype(self.loc.dtype)
        return self.loc + self.scale * eps
