"""Helpers shared by the distributions."""

from chainerlite import backend
from chainerlite import function_node
from chainerlite import functions as F
from chainerlite import utils
from chainerlite.utils import type_check


class ModifiedXLogX(function_node.FunctionNode):
    """``x * log(x)`` extended by continuity with ``0`` at ``x = 0``."""

    @property
    def label(self):
        return 'modified_xlogx'

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        xp = backend.get_array_module(x)
        positive = x > 0
        safe = xp.where(positive, x, x.dtype.type(1))
        y = xp.where(positive, x * xp.log(safe), x.dtype.type(0))
        return utils.force_array(y, x.dtype),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        # d/dx x log x = log x + 1; at 0 this is -inf, as NumPy warns.
        return gy * (F.log(x) + 1.0),


def _modified_xlogx(x):
    """``x * log(x)`` with the value ``0`` at ``x = 0`` (used by entropies)."""
    return ModifiedXLogX().apply((x,))[0]
