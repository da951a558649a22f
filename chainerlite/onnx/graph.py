"""Walks a traced computational graph and converts it node by node."""

import collections
import heapq

import chainerlite

from chainerlite.onnx import onnx_helper
from chainerlite.onnx.converters.converter import FunctionConverterParams


def _function_nodes(outputs):
    """The function nodes behind ``outputs``, inputs before their users."""
    found = collections.OrderedDict()
    heap = []
    count = 0
    for out in outputs:
        node = out.node
        heapq.heappush(heap, (-node.rank, count, node))
        count += 1
    while heap:
        node = heapq.heappop(heap)[2]
        creator = node.creator_node
        if creator is None or id(creator) in found:
            continue
        found[id(creator)] = creator
        for inode in creator.inputs:
            heapq.heappush(heap, (-inode.rank, count, inode))
            count += 1
    return list(reversed(found.values()))


class Graph(object):
    """Converts the function nodes between ``network_outputs`` and the inputs.

    ``variable_of(node)`` gives the Variable the export keeps for a
    variable node (or None); ``graph`` collects the ONNX nodes.
    """

    def __init__(
        self,
        context,
        converters,
        opset_version,
        explicit_input_names,
        network_outputs,
        variable_of,
    ):
        self.context = context
        self.converters = converters
        self.opset_version = opset_version
        self.explicit_input_names = explicit_input_names
        self.network_outputs = network_outputs
        self.variable_of = variable_of
        self.graph = []
        self.outputs = set()
        self.func_name_counts = collections.defaultdict(int)
        self.function_nodes = _function_nodes(list(network_outputs.values()))

    def _input_names(self, function):
        names = []
        for inode in function.inputs:
            var = self.variable_of(inode)
            if var is None:
                names.append(self.context.get_name(inode))
                continue
            name = self.context.get_name(var)
            if name not in self.explicit_input_names and name not in self.outputs:
                self.context.implicit_inputs[name] = var
            names.append(name)
        return names

    def _output_names(self, function, base_name):
        names = []
        refs = function.outputs
        for i, ref in enumerate(refs):
            node = ref()
            var = ref if node is None else self.variable_of(node)
            if var is None:
                var = node
            name = self.context.get_name(var)
            if not self.context.is_pinned(var):
                new_name = base_name if len(refs) == 1 else '{}_{}'.format(base_name, i)
                if name in self.network_outputs:
                    self.network_outputs[new_name] = self.network_outputs.pop(name)
                self.context.set_name(var, new_name)
                name = new_name
            self.outputs.add(name)
            names.append(name)
        return names

    def convert(self, function):
        """Appends the ONNX nodes of one function node to ``graph``."""
        if isinstance(function, chainerlite.function.FunctionAdapter):
            function = function.function
        func_name = getattr(
            function, 'custom_function_node_name', type(function).__name__
        )
        base_name = '{}_{}'.format(func_name, self.func_name_counts[func_name])
        self.func_name_counts[func_name] += 1
        input_names = self._input_names(function)
        output_names = self._output_names(function, base_name)
        onnx_helper.set_func_name(base_name)
        converter = self.converters.get(func_name)
        if converter is None:
            raise ValueError('{} is not supported'.format(func_name))
        nodes = list(
            converter(
                FunctionConverterParams(
                    function,
                    self.opset_version,
                    input_names,
                    output_names,
                    self.context,
                )
            )
        )
        self.graph.extend(self.context.constants)
        del self.context.constants[:]
        self.graph.extend(nodes)

    def to_onnx_graph(self):
        """Converts every function node, inputs first."""
        for function in self.function_nodes:
            self.convert(function)
