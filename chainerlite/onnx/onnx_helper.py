"""Small helpers for writing ONNX converters (``onnx_chainer.onnx_helper``)."""

import onnx

# The node name of the Chainer function being converted; the exporter sets
# it before it calls each converter, so that nodes and constants a converter
# makes carry its name.
_state = {'func_name': None}


def set_func_name(func_name):
    """Sets the name of the function node now being converted."""
    _state['func_name'] = func_name


def get_func_name():
    """The name of the function node now being converted."""
    name = _state['func_name']
    if name is None:
        raise RuntimeError('onnx_helper.get_func_name: no function is being converted')
    return name


def make_node(*args, **kwargs):
    """``onnx.helper.make_node`` with the node named after the converted function."""
    return onnx.helper.make_node(*args, name=get_func_name(), **kwargs)


class GraphBuilder(object):
    """Builds a chain of ONNX nodes for one converted function.

    ``op`` adds a node whose outputs get fresh names and returns them;
    ``op_output_named`` adds one with the given output names; ``nodes``
    returns everything added so far.
    """

    def __init__(self):
        self._nodes = []
        self._func_name = get_func_name()

    def node_name(self):
        """The name the next node gets."""
        return '{}_tmp_{}'.format(self._func_name, len(self._nodes))

    def op(self, op_name, input_names, num_outputs=1, **kwargs):
        """Adds a node; returns its output name (a tuple when several)."""
        base = self.node_name()
        if num_outputs == 1:
            output_names = [base]
        else:
            output_names = ['{}_{}'.format(base, i) for i in range(num_outputs)]
        return self.op_output_named(op_name, input_names, output_names, **kwargs)

    def op_output_named(self, op_name, input_names, output_names, **kwargs):
        """Adds a node with the given output names; returns them."""
        if isinstance(input_names, str):
            raise TypeError(
                'GraphBuilder.op: input_names must be a list of names, not '
                'the string {!r}'.format(input_names)
            )
        node = onnx.helper.make_node(
            op_name, input_names, output_names, name=self.node_name(), **kwargs
        )
        self._nodes.append(node)
        if len(output_names) == 1:
            return node.output[0]
        return tuple(node.output)

    def nodes(self, output_names=None):
        """All nodes so far; ``output_names`` renames the last node's outputs."""
        if output_names is not None:
            last = self._nodes[-1]
            if len(last.output) != len(output_names):
                raise ValueError(
                    'GraphBuilder.nodes: the last node has {} outputs, {} names '
                    'given'.format(len(last.output), len(output_names))
                )
            last.output[:] = output_names
        return tuple(self._nodes)


def write_tensor_pb(filename, name, value):
    """Writes ``value`` as a TensorProto named ``name`` to ``filename``."""
    tensor = onnx.numpy_helper.from_array(value, name)
    with open(filename, 'wb') as f:
        f.write(tensor.SerializeToString())


def cleanse_param_name(name):
    """ONNX name of a parameter path: ``/l1/W`` becomes ``param_l1_W``."""
    return 'param' + name.replace('/', '_')


def is_support_non_standard_domain():
    """Whether the installed onnx checker skips ops of custom domains (>= 1.5)."""
    parts = onnx.__version__.split('.')
    if len(parts) < 2 or not parts[1].isdecimal():
        raise RuntimeError(
            'onnx_helper: cannot read the version of the onnx package: {}'.format(
                onnx.__version__
            )
        )
    return parts[0] == '1' and int(parts[1]) >= 5
