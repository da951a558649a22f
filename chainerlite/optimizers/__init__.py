"""Optimizers: gradient methods that update the parameters of a link."""

from chainerlite.optimizers.ada_delta import AdaDelta  # NOQA
from chainerlite.optimizers.ada_grad import AdaGrad  # NOQA
from chainerlite.optimizers.adam import AdaBound  # NOQA
from chainerlite.optimizers.adam import Adam  # NOQA
from chainerlite.optimizers.adam import AdamW  # NOQA
from chainerlite.optimizers.adam import AMSBound  # NOQA
from chainerlite.optimizers.adam import AMSGrad  # NOQA
from chainerlite.optimizers.corrected_momentum_sgd import CorrectedMomentumSGD  # NOQA
from chainerlite.optimizers.momentum_sgd import MomentumSGD  # NOQA
from chainerlite.optimizers.msvag import MSVAG  # NOQA
from chainerlite.optimizers.nesterov_ag import NesterovAG  # NOQA
from chainerlite.optimizers.rmsprop import RMSprop  # NOQA
from chainerlite.optimizers.rmsprop_graves import RMSpropGraves  # NOQA
from chainerlite.optimizers.sgd import SGD  # NOQA
from chainerlite.optimizers.smorms3 import SMORMS3  # NOQA
