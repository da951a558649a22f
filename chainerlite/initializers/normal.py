"""Initializers that draw from a Gaussian distribution."""

import numpy

from chainerlite import backend
from chainerlite.initializers import initializer


class Normal(initializer.Initializer):
    """Draws each element from a Gaussian with mean 0 and deviation ``scale``.

    Args:
        scale (float): Standard deviation of the distribution.
        dtype: Data type specifier.
        rng (numpy.random.RandomState or cupy.random.RandomState): Random
            number generator; the array module's global one when ``None``.

    """

    def __init__(self, scale=0.05, dtype=None, *, rng=None):
        super().__init__(dtype)
        self.scale = scale
        self.rng = rng

    def __call__(self, array):
        self._check_dtype(array)
        rng = self.rng
        if rng is None:
            rng = backend.get_array_module(array).random
        array[...] = rng.normal(loc=0.0, scale=self.scale, size=array.shape)


class LeCunNormal(initializer.Initializer):
    """Gaussian initializer scaled by the fan-in (LeCun 98).

    Each element is drawn from a Gaussian with mean 0 and standard deviation
    :math:`scale \\times \\sqrt{1 / fan_{in}}`, where :math:`fan_{in}` is the
    number of input units (see :func:`get_fans`).

    Args:
        scale (float): Factor of the standard deviation.
        dtype: Data type specifier.
        rng (numpy.random.RandomState or cupy.random.RandomState): Random
            number generator; the array module's global one when ``None``.

    """

    def __init__(self, scale=1.0, dtype=None, *, rng=None):
        super().__init__(dtype)
        self.scale = scale
        self.rng = rng

    def __call__(self, array):
        self._check_dtype(array)
        fan_in, _ = initializer.get_fans(array.shape)
        std = self.scale * numpy.sqrt(1.0 / fan_in)
        Normal(std, rng=self.rng)(array)


class GlorotNormal(initializer.Initializer):
    """Gaussian initializer scaled by the fan-in and fan-out (Glorot 2010).

    Each element is drawn from a Gaussian with mean 0 and standard deviation
    :math:`scale \\times \\sqrt{2 / (fan_{in} + fan_{out})}` (see
    :func:`get_fans`).

    Args:
        scale (float): Factor of the standard deviation.
        dtype: Data type specifier.
        rng (numpy.random.RandomState or cupy.random.RandomState): Random
            number generator; the array module's global one when ``None``.

    """

    def __init__(self, scale=1.0, dtype=None, *, rng=None):
        super().__init__(dtype)
        self.scale = scale
        self.rng = rng

    def __call__(self, array):
        self._check_dtype(array)
        fan_in, fan_out = initializer.get_fans(array.shape)
        std = self.scale * numpy.sqrt(2.0 / (fan_in + fan_out))
        Normal(std, rng=self.rng)(array)


class HeNormal(initializer.Initializer):
    """Gaussian initializer for layers followed by ReLU (He 2015).

    Each element is drawn from a Gaussian with mean 0 and standard deviation
    :math:`scale \\times \\sqrt{2 / fan}`, where :math:`fan` is the fan-in
    or the fan-out of the array (see :func:`get_fans`).

    Args:
        scale (float): Factor of the standard deviation.
        dtype: Data type specifier.
        fan_option (str): ``'fan_in'`` or ``'fan_out'``: which fan
            scales the deviation.
        rng (numpy.random.RandomState or cupy.random.RandomState): Random
            number generator; the array module's global one when ``None``.

    Raises:
        ValueError: When called with a ``fan_option`` other than the two
            above.

    """

    def __init__(self, scale=1.0, dtype=None, fan_option='fan_in', *,
                 rng=None):
        super().__init__(dtype)
        self.scale = scale
        self.fan_option = fan_option
        self.rng = rng

    def __call__(self, array):
        self._check_dtype(array)
        fan_in, fan_out = initializer.get_fans(array.shape)
        if self.fan_option == 'fan_in':
            fan = fan_in
        elif self.fan_option == 'fan_out':
            fan = fan_out
        else:
            raise ValueError(
                'fan_option should be either \'fan_in\' or \'fan_out\', '
                'got {!r}'.format(self.fan_option))
        std = self.scale * numpy.sqrt(2.0 / fan)
        Normal(std, rng=self.rng)(array)
