"""Helpers shared by the distributions."""

from chainerlite import functions as F
from chainerlite.functions.math import _unary


class ModifiedXLogX(_unary.UnaryFloat):
    """``x * log(x)`` extended by continuity with ``0`` at ``x = 0``."""

    name = 'modified_xlogx'

    def compute(self, xp, x):
        positive = x > 0
        safe = xp.where(positive, x, x.dtype.type(1))
        return xp.where(positive, x * xp.log(safe), x.dtype.type(0))

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        (gy,) = grad_outputs
        # d/dx x log x = log x + 1; at 0 this is -inf, as NumPy warns.
        return (gy * (F.log(x) + 1.0),)


def _modified_xlogx(x):
    """``x * log(x)`` with the value ``0`` at ``x = 0`` (used by entropies)."""
    return ModifiedXLogX().apply((x,))[0]
