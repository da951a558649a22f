"""Shared node of the elementwise maximum and minimum."""

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite.functions.array import broadcast
from chainerlite.functions.array import where
from chainerlite.utils import type_check


class ElementwiseCompare(function_node.FunctionNode):
    """Picks, elementwise, one of two inputs broadcast together.

    A subclass names the array routine that picks (``_array_function``,
    e.g. ``'maximum'``) and its gradient node (``_grad``, an
    :class:`ElementwiseCompareGrad` whose comparisons say where the result
    is taken from each input); the gradient goes to the input that was
    picked (to ``x1`` on ties).
    """

    _array_function = None
    _grad = None

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
        return self._grad(x1.array, x2.array).apply(grad_outputs)


class ElementwiseCompareGrad(function_node.FunctionNode):
    """Gradient of an :class:`ElementwiseCompare` node at its inputs
    ``x1`` and ``x2`` (arrays): applied to ``(gy,)``, ``gy`` where the
    subclass's comparison ``_x1_wins(x1, x2)`` holds, summed to the shape of
    ``x1``, and ``gy`` where ``_x2_wins`` does (None: wherever ``_x1_wins``
    does not), summed to the shape of ``x2``. Its backward takes the upstream
    gradient of ``x1``'s where ``_x1_wins`` holds and that of ``x2``'s
    elsewhere (as Chainer's, also where neither input got ``gy``)."""

    _x1_wins = None
    # where x2 gets the gradient; None: wherever x1 does not
    _x2_wins = None

    def __init__(self, x1, x2):
        self.cond = utils.force_array(self._x1_wins(x1, x2))
        if self._x2_wins is None:
            self.cond2 = ~self.cond
        else:
            self.cond2 = utils.force_array(self._x2_wins(x1, x2))
        self.x1_shape = x1.shape
        self.x2_shape = x2.shape

    check_type_forward = type_check.declare_kinds(gy='f')

    def forward(self, inputs):
        (gy,) = inputs
        gx1 = gy * self.cond.astype(gy.dtype)
        gx2 = gy * self.cond2.astype(gy.dtype)
        return (
            utils.force_array(utils.sum_to(gx1, self.x1_shape)),
            utils.force_array(utils.sum_to(gx2, self.x2_shape)),
        )

    forward_cpu = forward_gpu = forward

    def backward(self, indexes, grad_outputs):
        shape = self.cond.shape
        gg1, gg2 = (
            None if g is None else broadcast.broadcast_to(g, shape)
            for g in grad_outputs
        )
        if gg2 is None:
            return (gg1 * self.cond.astype(gg1.dtype),)
        if gg1 is None:
            return (gg2 * (~self.cond).astype(gg2.dtype),)
        return (where.where(self.cond, gg1, gg2),)
