"""Gradient nodes that Chainer's function modules name (``DivGrad``,
``SinGrad``, ...) where chainerlite's op declares its derivative itself.

Code written for Chainer applies them: ``SinGrad().apply((x, gy))``. Their
values come from the op's own backward, so the derivative stays declared
once (by the op): :class:`GradOf`'s forward runs the op on its inputs and
takes the op's input gradients for the upstream gradient among them, and
its backward differentiates those gradients again (the op's grad nodes'
own second order).
"""

import chainerlite
from chainerlite import configuration
from chainerlite import function_node
from chainerlite import variable


class GradOf(function_node.FunctionNode):
    """Base of a gradient node computed by the backward of the op it is the
    gradient of. A subclass defines ``gradients(xs, double)``: with ``xs``
    the node's inputs as Variables, in Chainer's order (the op's inputs,
    then the upstream gradient), the op's input gradients (a tuple of
    Variables), taken with ``enable_double_backprop=double``."""

    def forward(self, inputs):
        self.retain_inputs(tuple(range(len(inputs))))
        xs = [variable.Variable(x) for x in inputs]
        with configuration.using_config('enable_backprop', True):
            gxs = self.gradients(xs, False)
        return tuple(_array_of(g, x) for g, x in zip(gxs, self._like(inputs)))

    forward_cpu = forward_gpu = forward

    def _like(self, inputs):
        """Per output, an array of its shape and dtype (for a gradient
        that the op leaves None, which is then zeros): the op's inputs by
        default, all but the last input (the upstream gradient)."""
        return inputs[:-1]

    def backward(self, indexes, grad_outputs):
        retained = self.get_retained_inputs()
        # with no graph wanted of the result, the op's graph is built on
        # leaves of the same arrays (nothing past them is traversed)
        graph = configuration.config.enable_backprop
        xs = retained if graph else [variable.Variable(x.array) for x in retained]
        with configuration.using_config('enable_backprop', True):
            gxs = self.gradients(xs, True)
            pairs = [
                (g, gg)
                for g, gg in zip(gxs, grad_outputs)
                if g is not None and gg is not None
            ]
            if not pairs:
                return (None,) * len(indexes)
            return tuple(
                chainerlite.grad(
                    [g for g, _ in pairs],
                    [xs[i] for i in indexes],
                    [gg for _, gg in pairs],
                    enable_double_backprop=graph,
                )
            )


def _array_of(g, like):
    if g is None:
        return like * 0
    return g.array


def grads_of(f, inputs, upstream, double):
    """The gradients of ``f(*inputs)`` (one output) at ``inputs`` for the
    upstream gradient ``upstream``."""
    return chainerlite.grad(
        [f(*inputs)], list(inputs), [upstream], enable_double_backprop=double
    )
