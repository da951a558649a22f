"""Shared node of the elementwise maximum and minimum."""

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite.functions.array import sum_to as sum_to_module
from chainerlite.utils import type_check


class ElementwiseCompare(function_node.FunctionNode):
    """Picks, elementwise, one of two inputs broadcast together.

    A subclass names the array routine that picks (``_array_function``,
    e.g. ``'maximum'``) and the comparison ``_x1_wins(x1, x2)`` that is true
    where the result is taken from ``x1``; the gradient goes to the input
    that was picked (to ``x1`` on ties).
    """

    _array_function = None
    _x1_wins = None
    # where x2 gets the gradient; None: wherever x1 does not
    _x2_wins = None

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x1', 'x2'))
        type_check.expect(
            in_types[0].dtype.kind == 'f', in_types[0].dtype == in_types[1].dtype
        )
        type_check.expect_broadcast_shapes(in_types[0].shape, in_types[1].shape)

    def forward(self, inputs):
        x1, x2 = inputs
        xp = backend.get_array_module(x1, x2)
        self.retain_inputs((0, 1))
        pick = getattr(xp, self._array_function)
        return (utils.force_array(pick(x1, x2)),)

    def backward(self, indexes, grad_outputs):
        x1, x2 = self.get_retained_inputs()
        (gy,) = grad_outputs
        to_x1 = utils.force_array(self._x1_wins(x1.array, x2.array))
        gx1 = gy * to_x1.astype(gy.dtype)
        if self._x2_wins is None:
            to_x2 = ~to_x1
        else:
            to_x2 = utils.force_array(self._x2_wins(x1.array, x2.array))
        gx2 = gy * to_x2.astype(gy.dtype)
        return (
            sum_to_module.sum_to(gx1, x1.shape),
            sum_to_module.sum_to(gx2, x2.shape),
        )
