"""Gradient nodes that Chainer's function modules name (``DivGrad``,
``SinGrad``, ...) where chainerlite's op declares its derivative itself.

Code written for Chainer applies them: ``SinGrad().apply((x, gy))``. Their
values come from the op's own backward, so the derivative stays declared
once (by the op): a :class:`GradOf` node is a formula node
(``rnn._formula.FormulaNode``) whose formula runs the op on its inputs and
takes the op's input gradients for the upstream gradient among them; its
backward differentiates that formula (the op's grad nodes' own second
order).
"""

import chainerlite
from chainerlite import function
from chainerlite.functions.rnn import _formula


class GradOf(_formula.FormulaNode):
    """Base of a gradient node computed by the backward of the op it is the
    gradient of. A subclass defines ``gradients(xs)``: with ``xs`` the
    node's inputs as Variables, in Chainer's order (the op's inputs, then
    the upstream gradient), the op's input gradients (see
    :func:`grads_of`)."""

    forward_cpu = forward_gpu = _formula.FormulaNode.forward

    def formula(self, *xs):
        return tuple(
            _zeros_like(x) if g is None else g
            for g, x in zip(self.gradients(xs), self._like(xs))
        )

    def _like(self, xs):
        """Per output, a Variable of its shape and dtype (for a gradient
        that the op leaves None, which is then zeros): the op's inputs by
        default, all but the last input (the upstream gradient)."""
        return xs[:-1]


def _zeros_like(x):
    return chainerlite.Variable(x.array * 0)


def grads_of(f, inputs, upstream):
    """The gradients of ``f(*inputs)`` (one output) at ``inputs`` for the
    upstream gradient ``upstream``, themselves differentiable."""
    with function.force_backprop_mode():
        y = f(*inputs)
    return chainerlite.grad([y], list(inputs), [upstream], enable_double_backprop=True)
