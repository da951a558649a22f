"""Names, parameters and constants shared by the converters of one export."""

import chainerlite
import numpy
import onnx
from onnx import numpy_helper

from chainerlite.onnx import onnx_helper


def _constant_tensor(array, name):
    # typed fields instead of raw bytes: constants are small and readable so
    # (float16 stays raw, as in Chainer: its field holds bit patterns)
    tensor = numpy_helper.from_array(array, name=name)
    try:
        field = onnx.helper.tensor_dtype_to_field(tensor.data_type)
    except (KeyError, ValueError):
        field = None
    if array.dtype == numpy.float16:
        field = None
    if field is not None and field != 'raw_data':
        tensor.ClearField('raw_data')
        values = array.flatten()
        if values.dtype == bool:  # stored in int32_data as 0 and 1
            values = values.astype(numpy.int32)
        getattr(tensor, field)[:] = values.tolist()
    return tensor


def _live_variable(node):
    return node.get_variable_or_none()


class Context(object):
    """What the converters of one export share.

    ``name_list`` maps ``id`` of a variable, node or array to ``(name,
    pinned)``; a Variable's array gets its name too, since some functions
    see only arrays. ``parameters`` are arrays converters add as
    initializers, ``constants`` Constant nodes waiting to be emitted,
    ``implicit_inputs`` variables read by the graph that are neither
    network inputs nor parameters.
    """

    def __init__(self, model):
        self.name_list = {}
        self.parameters = []
        self.constants = []
        self.implicit_inputs = {}
        # the exporter replaces this with the variables it retained
        self.variable_of = _live_variable
        links = dict(model.namedlinks())
        self.param_to_link = {}
        for path, param in model.namedparams():
            link_path = path[: path.rindex('/')]
            if link_path in links:
                self.param_to_link[id(param)] = (
                    onnx_helper.cleanse_param_name(link_path),
                    links[link_path],
                )
            self.set_name(param, onnx_helper.cleanse_param_name(path))

    def get_name(self, variable):
        """The ONNX name of ``variable``, made (``vN``) when it has none."""
        entry = self.name_list.get(id(variable))
        if entry is not None:
            return entry[0]
        name = 'v{}'.format(len(self.name_list))
        self.set_name(variable, name)
        return name

    def set_name(self, variable, name, pinned=False):
        """Names ``variable``; a pinned name is never renamed afterwards."""
        entry = self.name_list.get(id(variable))
        if entry is not None and entry[1]:
            raise ValueError(
                'Context.set_name: {!r} is pinned as {!r}'.format(name, entry[0])
            )
        self.name_list[id(variable)] = (name, pinned)
        if isinstance(variable, chainerlite.Variable):
            self.name_list[id(variable.array)] = (name, pinned)

    def is_pinned(self, variable):
        """Whether ``variable``'s name is pinned."""
        entry = self.name_list.get(id(variable))
        return entry is not None and entry[1]

    def add_param(self, array, name, use_original_name=False):
        """Adds ``array`` as an initializer; returns its ONNX name."""
        if use_original_name:
            onnx_name = name
        else:
            if not name.startswith(('/', '_')):
                name = '/' + name
            onnx_name = '{}_{}'.format(
                onnx_helper.get_func_name(), onnx_helper.cleanse_param_name(name)
            )
        self.set_name(array, onnx_name)
        self.parameters.append(array)
        return onnx_name

    def add_const(self, array, name):
        """Adds ``array`` as a Constant node; returns its ONNX name."""
        if '/' in name:
            raise ValueError('Context.add_const: name {!r} has a "/"'.format(name))
        onnx_name = '{}_const_{}'.format(onnx_helper.get_func_name(), name)
        self.set_name(array, onnx_name)
        self.constants.append(
            onnx_helper.make_node(
                'Constant', [], [onnx_name], value=_constant_tensor(array, onnx_name)
            )
        )
        return onnx_name

    def get_link(self, param):
        """``(onnx link name, link)`` owning ``param``, or None."""
        return self.param_to_link.get(id(param))
