"""Differentiable functions on variables, re-exported flat as ``F.*``."""

from chainerlite.functions.activation.relu import relu  # NOQA

from chainerlite.functions.array.broadcast import broadcast_to  # NOQA
from chainerlite.functions.array.get_item import get_item  # NOQA
from chainerlite.functions.array.reshape import reshape  # NOQA
from chainerlite.functions.array.sum_to import sum_to  # NOQA
from chainerlite.functions.array.transpose import transpose  # NOQA

from chainerlite.functions.connection.linear import linear  # NOQA

from chainerlite.functions.math.exponential import exp  # NOQA
from chainerlite.functions.math.exponential import log  # NOQA
from chainerlite.functions.math.identity import identity  # NOQA
from chainerlite.functions.math.matmul import matmul  # NOQA
from chainerlite.functions.math.sum import sum  # NOQA

from chainerlite.functions.util.forget import forget  # NOQA
