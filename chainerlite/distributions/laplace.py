"""Laplace distribution."""

import math

from chainerlite import backend
from chainerlite import distribution
from chainerlite import function_node
from chainerlite import functions as F
from chainerlite import utils
from chainerlite.utils import type_check
from chainerlite import variable


class LaplaceCDF(function_node.FunctionNode):
    """CDF of the standard Laplace distribution."""

    @property
    def label(self):
        return 'laplace_cdf'

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        xp = backend.get_array_module(x)
        y = 0.5 - 0.5 * xp.sign(x) * xp.expm1(-xp.abs(x))
        return utils.force_array(y, x.dtype),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        return gy * 0.5 * F.exp(-F.absolute(x)),


class LaplaceICDF(function_node.FunctionNode):
    """Inverse CDF of the standard Laplace distribution."""

    @property
    def label(self):
        return 'laplace_icdf'

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        xp = backend.get_array_module(x)
        c = x - 0.5
        y = -xp.sign(c) * xp.log1p(-2 * xp.abs(c))
        return utils.force_array(y, x.dtype),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        return gy / (0.5 - F.absolute(x - 0.5)),


def _laplace_cdf(x):
    return LaplaceCDF().apply((x,))[0]


def _laplace_icdf(x):
    return LaplaceICDF().apply((x,))[0]


class Laplace(distribution.Distribution):
    """Laplace distribution with location ``loc`` and scale ``scale``.

    Its density is :math:`\\frac{1}{2b} \\exp(-|x - \\mu| / b)`.
    """

    def __init__(self, loc, scale):
        super(Laplace, self).__init__()
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

    def cdf(self, x):
        return _laplace_cdf((x - self.loc) / self.scale)

    def icdf(self, x):
        return self.loc + self.scale * _laplace_icdf(x)

    def log_prob(self, x):
        return (-F.log(2.0 * self.scale)
                - F.absolute(x - self.loc) / self.scale)

    @property
    def entropy(self):
        return 1.0 + F.log(2.0 * self.scale)

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @property
    def stddev(self):
        return math.sqrt(2.0) * self.scale

    @property
    def variance(self):
        return 2.0 * F.square(self.scale)

    def sample_n(self, n):
        xp = self.xp
        shape = (n,) + self.loc.shape
        eps = xp.random.laplace(size=shape).astype(self.loc.dtype)
        return self.loc + self.scale * eps


@distribution.register_kl(Laplace, Laplace)
def _kl_laplace_laplace(dist1, dist2):
    diff = F.absolute(dist1.loc - dist2.loc)
    return (F.log(dist2.scale) - F.log(dist1.scale) + diff / dist2.scale
            + dist1.scale / dist2.scale * F.exp(-diff / dist1.scale) - 1.0)
