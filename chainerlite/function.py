"""Old-style ``Function`` (Chainer v1 API) and the backprop-mode switches.

A ``Function`` computes on raw arrays in both directions: ``forward(inputs)``
and ``backward(inputs, grad_outputs)`` take and return tuples of arrays. It
runs on the same compiled graph as :class:`FunctionNode` through
:class:`FunctionAdapter`; its backward is not differentiable again (no double
backprop), as in Chainer.
"""

from __future__ import annotations

import typing
import weakref

import numpy

from chainerlite._core import force_backprop_mode, no_backprop_mode  # NOQA
from chainerlite.backends import cuda
from chainerlite.configuration import config as chainer_config
from chainerlite.function_hook import FunctionHook  # NOQA: F401  (Chainer's old path)
from chainerlite.function_node import FunctionNode
from chainerlite.variable import Variable

if typing.TYPE_CHECKING:
    from chainerlite import function_hook
    from chainerlite import types


class FunctionAdapter(FunctionNode):
    """FunctionNode that runs an old-style :class:`Function`.

    Args:
        function (Function): The function to run.
    """

    def __init__(self, function):
        self._function = function

    @property
    def function(self):
        """The adapted :class:`Function`."""
        return self._function

    @property
    def label(self):
        return self._function.label

    @property
    def _impl_name(self):
        return type(self._function).__name__

    def check_type_forward(self, in_types):
        self._function.check_type_forward(in_types)

    def forward(self, inputs):
        # All inputs are kept for backward unless the function says otherwise.
        self.retain_inputs(range(len(inputs)))
        outputs = self._function.forward(inputs)
        # what is no tuple is refused by apply; the node's apply makes
        # chainerlite's own nodes' NumPy scalars arrays, but a user's
        # Function may not return one, as in Chainer
        if isinstance(outputs, tuple) and any(
            isinstance(y, numpy.generic) for y in outputs
        ):
            raise TypeError(
                'forward output must be a tuple of ndarrays.\nFunction: %s\n'
                'Actual output types: %s'
                % (self.label, tuple([type(y) for y in outputs]))
            )
        return outputs

    def backward(self, target_input_indexes, grad_outputs):
        in_data = tuple([x.data for x in self.inputs])
        grad_out_data = tuple([None if g is None else g.array for g in grad_outputs])
        gxs = self._function.backward(in_data, grad_out_data)
        if not isinstance(gxs, (tuple, list)):
            raise TypeError(
                '%s.backward must return a tuple, got %s'
                % (self.label, type(gxs).__name__)
            )
        # As in Chainer, only the gradients of the inputs that need one are
        # read: a backward may leave out trailing inputs that need none (the
        # labels of a loss), and what it returns past them is not looked at.
        needed = max(target_input_indexes, default=-1)
        if len(gxs) <= needed:
            raise IndexError(
                '%s.backward returned %d gradients, but input %d of %d needs '
                'one' % (self.label, len(gxs), needed, len(in_data))
            )
        gxs = [gxs[i] for i in target_input_indexes]
        if chainer_config.enable_backprop:
            return _refusing_second_order(self, gxs, grad_outputs)
        return tuple([None if gx is None else Variable(gx) for gx in gxs])


def _refusing_second_order(adapter, gxs, grad_outputs):
    # Under double backprop the gradients come out of a node whose backward
    # raises, as Chainer raises when a pass reaches them: an old-style
    # backward computes on arrays, so there is no graph to differentiate.
    given = [i for i, gx in enumerate(gxs) if gx is not None]
    if not given:
        return (None,) * len(gxs)
    inputs = [g for g in grad_outputs if g is not None]
    inputs += [x for x in adapter.get_retained_inputs() if x is not None]
    node = _OldStyleGradient(adapter.label, tuple([gxs[i] for i in given]))
    outputs = node.apply(tuple(inputs))
    ret = [None] * len(gxs)
    for i, y in zip(given, outputs):
        ret[i] = y
    return tuple(ret)


class _OldStyleGradient(FunctionNode):
    """Gradients computed by an old-style ``Function``; not differentiable."""

    def __init__(self, label, gxs):
        self._function_label = label
        self._gxs = gxs

    def forward(self, inputs):
        gxs, self._gxs = self._gxs, None
        return gxs

    def backward(self, target_input_indexes, grad_outputs):
        raise RuntimeError(
            'cannot twice-differentiate an old style Function "%s"'
            % self._function_label
        )


class Function(object):
    """Old-style differentiable function on arrays (Chainer v1 API).

    Implement ``forward`` (or ``forward_cpu``/``forward_gpu``) and
    ``backward`` (or ``backward_cpu``/``backward_gpu``) on tuples of arrays,
    then call the instance on Variables. Each call creates a new graph node,
    so an instance should be called once.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite as chainer
        >>> class Square(chainer.Function):
        ...     def forward(self, inputs):
        ...         x, = inputs
        ...         return x * x,
        ...     def backward(self, inputs, grad_outputs):
        ...         x, = inputs
        ...         return 2 * x * grad_outputs[0],
        >>> x = chainer.Variable(np.array([1.0, 3.0], np.float32))
        >>> y = Square()(x)
        >>> y.grad = np.ones(2, np.float32)
        >>> y.backward()
        >>> x.grad
        array([2., 6.], dtype=float32)
    """

    _node_ref = None
    _owned_node = None

    def __call__(
        self, *inputs: Variable | types.NdArray
    ) -> Variable | tuple[Variable, ...]:
        node = self.node
        if node.inputs is not None:
            # a second call gets a node of its own
            node = self._new_node()
        # From now on the graph owns the node; the function only points to it.
        self._owned_node = None
        outputs = node.apply(inputs)
        return outputs[0] if len(outputs) == 1 else outputs

    @property
    def node(self):
        """The :class:`FunctionAdapter` that represents this function.

        Until the function is called it owns its node (so local hooks added
        before the call stay); afterwards the graph owns it and the function
        holds it weakly, so the two never form a reference cycle.
        """
        node = None if self._node_ref is None else self._node_ref()
        if node is None:
            node = self._new_node()
        return node

    def _new_node(self):
        node = FunctionAdapter(self)
        self._owned_node = node
        self._node_ref = weakref.ref(node)
        return node

    @property
    def label(self):
        """Name of the function (the class name by default)."""
        return type(self).__name__

    @property
    def inputs(self):
        return self.node.inputs

    @property
    def outputs(self):
        return self.node.outputs

    @property
    def rank(self):
        return self.node.rank

    @property
    def stack(self):
        """Where the function was called (recorded in debug mode), else
        None."""
        return self.node.stack

    @property
    def local_function_hooks(self):
        return self.node.local_function_hooks

    @property
    def output_data(self):
        """Tuple of the retained output arrays (None for the others)."""
        return self.node.output_data

    def add_hook(
        self, hook: function_hook.FunctionHook, name: str | None = None
    ) -> None:
        """Registers a function hook on this function only."""
        self.node.add_hook(hook, name)

    def delete_hook(self, name: str) -> None:
        """Unregisters the local hook named ``name``."""
        self.node.delete_hook(name)

    def check_type_forward(self, in_types):
        """Checks input types (override with ``type_check.expect``)."""
        pass

    def forward(self, inputs: tuple[types.NdArray, ...]) -> tuple[types.NdArray, ...]:
        """Computes outputs from input arrays; dispatches on the array type."""
        if any(isinstance(x, cuda.ndarray) for x in inputs):
            return self.forward_gpu(inputs)
        return self.forward_cpu(inputs)

    def forward_cpu(
        self, inputs: tuple[types.NdArray, ...]
    ) -> tuple[types.NdArray, ...]:
        raise NotImplementedError('%s does not implement forward_cpu' % self.label)

    def forward_gpu(
        self, inputs: tuple[types.NdArray, ...]
    ) -> tuple[types.NdArray, ...]:
        raise NotImplementedError('%s does not implement forward_gpu' % self.label)

    def backward(self, inputs, grad_outputs):
        """Computes input gradients from arrays; dispatches on the array type.

        Returns:
            tuple: One gradient array (or None) per input.
        """
        arrays = tuple(inputs) + tuple(grad_outputs)
        if any(isinstance(x, cuda.ndarray) for x in arrays):
            return self.backward_gpu(inputs, grad_outputs)
        return self.backward_cpu(inputs, grad_outputs)

    def backward_cpu(self, inputs, grad_outputs):
        return (None,) * len(inputs)

    def backward_gpu(self, inputs, grad_outputs):
        return (None,) * len(inputs)

    def retain_inputs(self, indexes):
        """Keeps only these inputs for backward (call inside forward)."""
        self.node.retain_inputs(indexes)

    def retain_outputs(self, indexes, retain_after_backward=False):
        """Keeps these outputs for backward (call inside forward)."""
        self.node.retain_outputs(indexes)

    def unchain(self):
        """Purges input and output references of the node."""
        self.node.unchain()
