"""Joining a delegate variable into a graph."""

import chainerlite
from chainerlite import function_node
from chainerlite.chainermn.functions import _util


class PseudoConnect(function_node.FunctionNode):
    """Outputs its inputs after the first unchanged; the first gets a zero grad."""

    def forward(self, inputs):
        self._delegate_grad = _util.zero_grad_of(inputs[0])
        return tuple(inputs[1:])

    def backward(self, indexes, grad_outputs):
        return tuple(
            self._delegate_grad() if i == 0 else grad_outputs[i - 1] for i in indexes
        )


def pseudo_connect(delegate_variable, *actual_variables):
    """Makes ``actual_variables`` carry ``delegate_variable`` into the graph.

    The outputs have the values of ``actual_variables``; back-propagating
    through them also reaches ``delegate_variable`` (with a zero gradient),
    so that the backward of a :func:`send` whose delegate it is runs too.

    Args:
        delegate_variable (chainer.Variable): Typically the result of
            :func:`chainermn.functions.send`; None leaves the actual
            variables as they are.
        *actual_variables: Variables or arrays.

    Returns:
        tuple of chainer.Variable: One per actual variable.
    """
    if not actual_variables:
        raise ValueError(
            'chainermn.functions.pseudo_connect: give at least one actual variable'
        )
    if delegate_variable is None:  # nothing was sent: nothing to join
        return tuple(chainerlite.as_variable(x) for x in actual_variables)
    return PseudoConnect().apply((delegate_variable,) + actual_variables)
