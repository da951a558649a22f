"""Ready-made link hooks (see :class:`chainerlite.LinkHook`)."""

from chainerlite.link_hooks.forget_hook import ForgetHook  # NOQA
from chainerlite.link_hooks.forget_plan import ForgetPlan  # NOQA
from chainerlite.link_hooks.forget_plan import plan_forget  # NOQA
from chainerlite.link_hooks.spectral_normalization import SpectralNormalization  # NOQA
from chainerlite.link_hooks.timer import TimerHook  # NOQA
from chainerlite.link_hooks.weight_standardization import WeightStandardization  # NOQA
