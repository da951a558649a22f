"""Optimizer hooks: gradient transformations run around an update."""

from chainerlite.optimizer_hooks.gradient_clipping import GradientClipping  # NOQA
from chainerlite.optimizer_hooks.gradient_hard_clipping import GradientHardClipping  # NOQA
from chainerlite.optimizer_hooks.gradient_lars import GradientLARS  # NOQA
from chainerlite.optimizer_hooks.gradient_noise import GradientNoise  # NOQA
from chainerlite.optimizer_hooks.lasso import Lasso  # NOQA
from chainerlite.optimizer_hooks.weight_decay import WeightDecay  # NOQA
