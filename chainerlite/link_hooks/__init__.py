"""Ready-made link hooks (see :class:`chainerlite.LinkHook`)."""

from chainerlite.link_hooks.spectral_normalization import SpectralNormalization  # NOQA
from chainerlite.link_hooks.timer import TimerHook  # NOQA
from chainerlite.link_hooks.weight_standardization import WeightStandardization  # NOQA
