"""Bernoulli distribution."""

import numpy

from chainerlite import backend
from chainerlite import distribution
from chainerlite.distributions import utils as dist_utils
from chainerlite import function_node
from chainerlite import functions as F
from chainerlite import utils
from chainerlite.utils import type_check
from chainerlite import variable


class BernoulliLogProb(function_node.FunctionNode):
    """``x * logit - softplus(logit)``; its limit where ``logit`` is
    infinite."""

    def __init__(self, binary_check=False):
        self.binary_check = binary_check

    @property
    def label(self):
        return 'bernoulli_log_prob'

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('logit', 'x'))
        logit_type, x_type = in_types
        type_check.expect(
            logit_type.dtype.kind == 'f',
            x_type.dtype == logit_type.dtype,
            x_type.shape == logit_type.shape,
        )

    def forward(self, inputs):
        logit, x = inputs
        self.retain_inputs((0, 1))
        xp = backend.get_array_module(logit)
        finite = xp.isfinite(logit)
        safe = xp.where(finite, logit, logit.dtype.type(0))
        softplus = xp.maximum(safe, 0) + xp.log1p(xp.exp(-xp.abs(safe)))
        y = x * safe - softplus
        # logit = +inf means p = 1: log(p ** x (1 - p) ** (1 - x)) tends to
        # log(x) for x in [0, 1] as Chainer takes it (0 at x = 1, -inf at
        # x = 0); logit = -inf means p = 0, log(1 - x)
        with numpy.errstate(divide='ignore', invalid='ignore'):
            limit = xp.where(logit > 0, xp.log(x), xp.log(1 - x))
        y = xp.where(finite, y, limit)
        if self.binary_check:
            y = xp.where((x == 0) | (x == 1), y, -xp.inf)
        return (utils.force_array(y, logit.dtype),)

    def backward(self, indexes, grad_outputs):
        logit, x = self.get_retained_inputs()
        (gy,) = grad_outputs
        return gy * (x - F.sigmoid(logit)), None


def _bernoulli_log_prob(logit, x, binary_check=False):
    """Log-probability of ``x`` under a Bernoulli given by its logit."""
    logit = variable.as_variable(logit)
    x = variable.as_array(x)
    if logit.shape != x.shape:
        shape = backend.get_array_module(x).broadcast(logit.array, x).shape
        logit = F.broadcast_to(logit, shape)
        x = backend.get_array_module(x).broadcast_to(x, shape)
    x = x.astype(logit.dtype, copy=False)
    return BernoulliLogProb(binary_check).apply((logit, x))[0]


class Bernoulli(distribution.Distribution):
    """Bernoulli distribution over ``{0, 1}``.

    Args:
        p (Variable or array): Probability of ``1``.
        logit (Variable or array): Log-odds of ``1``; exactly one of ``p``
            and ``logit`` must be given.
        binary_check (bool): If ``True``, :meth:`log_prob` is ``-inf`` for
            values other than 0 and 1.
    """

    def __init__(self, p=None, logit=None, binary_check=False):
        super(Bernoulli, self).__init__()
        if (p is None) == (logit is None):
            raise ValueError('Bernoulli: either p or logit must be given (not both)')
        self.__p = None if p is None else variable.as_variable(p)
        self.__logit = None if logit is None else variable.as_variable(logit)
        self.binary_check = binary_check

    @property
    def p(self):
        if self.__p is None:
            self.__p = F.sigmoid(self.__logit)
        return self.__p

    @property
    def logit(self):
        if self.__logit is None:
            self.__logit = F.log(self.__p) - F.log1p(-self.__p)
        return self.__logit

    @property
    def batch_shape(self):
        return self.p.shape

    @property
    def event_shape(self):
        return ()

    @property
    def params(self):
        return {'logit': self.logit}

    @property
    def support(self):
        return '{0, 1}'

    @property
    def entropy(self):
        p = self.p
        return -(dist_utils._modified_xlogx(p) + dist_utils._modified_xlogx(1.0 - p))

    def log_prob(self, x):
        return _bernoulli_log_prob(self.logit, x, self.binary_check)

    @property
    def mean(self):
        return self.p

    @property
    def variance(self):
        return self.p * (1.0 - self.p)

    def sample_n(self, n):
        # binomial draws of one trial, integers, as Chainer's: a seeded
        # draw gives its samples
        p = self.p.array
        return variable.Variable(self.xp.random.binomial(1, p, size=(n,) + p.shape))


@distribution.register_kl(Bernoulli, Bernoulli)
def _kl_bernoulli_bernoulli(dist1, dist2):
    p, q = dist1.p, dist2.p
    return p * (dist1.logit - dist2.logit) + F.log1p(-p) - F.log1p(-q)
