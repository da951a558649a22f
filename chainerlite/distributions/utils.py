"""Helpers shared by the distributions."""

from chainerlite import backend
from chainerlite import function_node
from chainerlite import functions as F
from chainerlite import utils
from chainerlite.utils import type_check


class UnaryNode(function_node.FunctionNode):
    """One float input kept for the backward; ``name`` is the label and
    :meth:`compute` the forward on raw arrays."""

    name = None

    @property
    def label(self):
        return self.name

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        y = self.compute(backend.get_array_module(x), x)
        return utils.force_array(y, x.dtype),


class ModifiedXLogX(UnaryNode):
    """``x * log(x)`` extended by continuity with ``0`` at ``x = 0``."""

    name = 'modified_xlogx'

    def compute(self, xp, x):
        positive = x > 0
        safe = xp.where(positive, x, x.dtype.type(1))
        return xp.where(positive, x * xp.log(safe), x.dtype.type(0))

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        # d/dx x log x = log x + 1; at 0 this is -inf, as NumPy warns.
        return gy * (F.log(x) + 1.0),


def _modified_xlogx(x):
    """``x * log(x)`` with the value ``0`` at ``x = 0`` (used by entropies)."""
    return ModifiedXLogX().apply((x,))[0]
