"""Base class of probability distributions and the KL-divergence registry."""

import numpy

from chainerlite import backend
from chainerlite import functions as F
from chainerlite.utils import _chainer_errors


class Distribution(object):
    """Interface of probability distributions.

    A concrete distribution overrides the properties and methods it can
    evaluate; the others raise :class:`NotImplementedError`.  Derived
    quantities (``prob``, ``stddev``, ``survival_function``...) are computed
    from the primitive ones when the subclass does not provide them.
    """

    def __init__(self):
        self.__xp = None

    def _unavailable(self, name):
        return NotImplementedError(
            '{} does not support {}'.format(type(self).__name__, name)
        )

    def __repr__(self):
        try:
            params = self.params
        except NotImplementedError:  # a distribution without params: never fail
            return object.__repr__(self)
        params = ', '.join(
            '{}={}'.format(k, getattr(v, 'array', v)) for k, v in sorted(params.items())
        )
        return '{}({})'.format(type(self).__name__, params)

    @property
    def batch_shape(self):
        """Shape of the batch of independent distributions."""
        raise self._unavailable('batch_shape')

    @property
    def event_shape(self):
        """Shape of one sample of a single distribution."""
        raise self._unavailable('event_shape')

    @property
    def params(self):
        """Dictionary of the parameters of this distribution."""
        raise self._unavailable('params')

    @property
    def xp(self):
        """Array module (NumPy or CuPy) of the parameters."""
        for value in self.params.values():
            return backend.get_array_module(value)
        return numpy

    @property
    def support(self):
        """Description of the set where the density is non-zero."""
        raise self._unavailable('support')

    def cdf(self, x):
        """Cumulative distribution function at ``x``."""
        return F.exp(self.log_cdf(x))

    def log_cdf(self, x):
        """Logarithm of the cumulative distribution function at ``x``."""
        if type(self).cdf is Distribution.cdf:
            raise self._unavailable('log_cdf')
        return F.log(self.cdf(x))

    def icdf(self, x):
        """Inverse of the cumulative distribution function."""
        raise self._unavailable('icdf')

    def survival_function(self, x):
        """Probability that a sample exceeds ``x``: ``1 - cdf(x)``."""
        if type(self).log_survival_function is not Distribution.log_survival_function:
            return F.exp(self.log_survival_function(x))
        return 1.0 - self.cdf(x)

    def log_survival_function(self, x):
        """Logarithm of the survival function at ``x``."""
        return F.log(self.survival_function(x))

    def log_prob(self, x):
        """Logarithm of the probability (density or mass) at ``x``."""
        if type(self).prob is Distribution.prob:
            raise self._unavailable('log_prob')
        return F.log(self.prob(x))

    def prob(self, x):
        """Probability (density or mass) at ``x``."""
        return F.exp(self.log_prob(x))

    def perplexity(self, x):
        """Perplexity of ``x``: ``exp(-log_prob(x))``."""
        return F.exp(-self.log_prob(x))

    @property
    def mean(self):
        raise self._unavailable('mean')

    @property
    def mode(self):
        raise self._unavailable('mode')

    @property
    def variance(self):
        raise self._unavailable('variance')

    @property
    def stddev(self):
        """Standard deviation: the square root of the variance."""
        return F.sqrt(self.variance)

    @property
    def covariance(self):
        raise self._unavailable('covariance')

    @property
    def entropy(self):
        raise self._unavailable('entropy')

    def sample_n(self, n):
        """Draws ``n`` samples; the result has shape ``(n,) + batch + event``."""
        raise self._unavailable('sample_n')

    def sample(self, sample_shape=()):
        """Draws samples of shape ``sample_shape + batch + event``.

        Args:
            sample_shape (int or tuple of ints): Leading shape of the result.
        """
        if isinstance(sample_shape, (int, numpy.integer)):
            sample_shape = (int(sample_shape),)
        sample_shape = tuple(sample_shape)
        n = int(numpy.prod(sample_shape, dtype=numpy.int64))
        samples = self.sample_n(n)
        return F.reshape(samples, sample_shape + samples.shape[1:])


_KLDIVERGENCE = {}


def register_kl(Dist1, Dist2):
    """Decorator registering the KL divergence between two distribution types.

    The decorated function takes an instance of ``Dist1`` and one of
    ``Dist2`` and returns :math:`KL(p \\| q)` per batch element.
    """

    def wrapper(func):
        _KLDIVERGENCE[Dist1, Dist2] = func
        return func

    return wrapper


def _lookup_kl(type1, type2):
    for t1 in type1.__mro__:
        for t2 in type2.__mro__:
            func = _KLDIVERGENCE.get((t1, t2))
            if func is not None:
                return func
    raise _chainer_errors.UnregisteredKeyError(
        'kl_divergence between {} and {} is not registered'.format(
            type1.__name__, type2.__name__
        )
    )


def kl_divergence(dist1, dist2):
    """Kullback-Leibler divergence :math:`KL(dist1 \\| dist2)`.

    Args:
        dist1 (Distribution): The first distribution ``p``.
        dist2 (Distribution): The second distribution ``q``.

    Returns:
        Variable: The divergence for each element of the batch.
    """
    return _lookup_kl(type(dist1), type(dist2))(dist1, dist2)


def cross_entropy(dist1, dist2):
    """Cross entropy :math:`H(dist1) + KL(dist1 \\| dist2)`."""
    return dist1.entropy + kl_divergence(dist1, dist2)
