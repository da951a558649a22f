"""Bases of the distributions with scalar events and named parameters."""

from chainerlite import distribution
from chainerlite import variable


class ScalarEvent(distribution.Distribution):
    """A batch of scalar distributions given by the parameters named in
    ``_param_names`` (the first one gives the batch shape)."""

    _param_names = ()
    _support = 'real'

    def _set_params(self, **params):
        for name, value in params.items():
            setattr(self, name, variable.as_variable(value))

    @property
    def batch_shape(self):
        return getattr(self, self._param_names[0]).shape

    @property
    def event_shape(self):
        return ()

    @property
    def params(self):
        return {name: getattr(self, name) for name in self._param_names}

    @property
    def support(self):
        return self._support


class LocScale(ScalarEvent):
    """``loc + scale * eps`` for a standard variable ``eps``, elementwise.

    A subclass defines :meth:`_standard_sample` (draws of ``eps``).
    """

    _param_names = ('loc', 'scale')

    def __init__(self, loc, scale):
        super(LocScale, self).__init__()
        self._set_params(loc=loc, scale=scale)

    @property
    def mode(self):
        return self.loc

    def _standardize(self, x):
        return (x - self.loc) / self.scale

    def sample_n(self, n):
        shape = (n,) + self.loc.shape
        eps = self._standard_sample(self.xp, shape).astype(self.loc.dtype)
        return self.loc + self.scale * eps
