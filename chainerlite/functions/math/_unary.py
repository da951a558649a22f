"""Base of one-input elementwise nodes on floats."""

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite.utils import type_check


class UnaryFloat(function_node.FunctionNode):
    """One float input, kept for the backward.

    ``name`` is the label; :meth:`compute` ``(xp, x)`` is the forward on raw
    arrays, cast back to the dtype of ``x``.
    """

    name = None
    keeps_input = True  # False where the backward reads only the output

    @property
    def label(self):
        return self.name

    check_type_forward = type_check.declare_kinds(x='f')

    def forward(self, inputs):
        (x,) = inputs
        if self.keeps_input:
            self.retain_inputs((0,))
        y = self.compute(backend.get_array_module(x), x)
        return (utils.force_array(y, x.dtype),)
