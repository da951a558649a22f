"""Nodes defined by a formula of differentiable functions.

Some nodes of this package (the gradients of the LSTM cells, the tree LSTM
cell) compute a closed-form expression of their inputs. A
:class:`FormulaNode` runs that expression as one node, and gets its
gradients, to any order, by rebuilding the expression from differentiable
functions on (copies of) its retained inputs and differentiating it with
:func:`chainerlite.grad`.
"""

import contextlib

from chainerlite import _core
from chainerlite import function
from chainerlite import function_node
from chainerlite import variable
from chainerlite.functions.math import identity


class FormulaNode(function_node.FunctionNode):
    """A node whose outputs are ``self.formula(*inputs)``.

    Subclasses define ``formula``, which takes Variables and returns a tuple
    of Variables built from differentiable functions.
    """

    def __call__(self, *inputs):
        """Applies a new node of this class to ``inputs`` (as a Chainer
        ``Function`` object is called), so that one instance can be called
        several times.

        Returns:
            tuple of Variable: The outputs.
        """
        return type(self)().apply(inputs)

    def forward(self, inputs):
        self.retain_inputs(tuple(range(len(inputs))))
        with function.no_backprop_mode(), _unhooked():
            outputs = self.formula(*[variable.Variable(x) for x in inputs])
        return tuple(y.array for y in outputs)

    def backward(self, indexes, grad_outputs):
        # The formula is differentiated through fresh copies of the inputs:
        # the inputs may depend on each other through the graph (a cell's
        # gradient takes the cell's own output), and each must count here
        # as independent.
        with function.force_backprop_mode():
            inputs = identity.Identity().apply(self.get_retained_inputs())
            outputs = self.formula(*inputs)
        pairs = [(y, g) for y, g in zip(outputs, grad_outputs) if g is not None]
        if not pairs:
            return (None,) * len(indexes)
        ys, gys = zip(*pairs)
        return tuple(
            _core.grad(
                list(ys),
                [inputs[i] for i in indexes],
                list(gys),
                enable_double_backprop=True,
            )
        )


@contextlib.contextmanager
def _unhooked():
    """The function hooks of this thread set aside: a formula node is one
    node to them, as Chainer's LSTMGrad or TreeLSTM is, so they do not see
    the functions its forward computes with."""
    hooks = _core.get_function_hooks()
    if not hooks:
        yield
        return
    saved = dict(hooks)
    hooks.clear()
    try:
        yield
    finally:
        hooks.update(saved)
