"""``export``: a chainerlite model as an ONNX ModelProto (``onnx_chainer.export``)."""

import collections
import warnings

import chainerlite
import onnx
from onnx import checker
from onnx import helper
from onnx import numpy_helper
from onnx import shape_inference

from chainerlite.onnx.context import Context
from chainerlite.onnx.converters import converters as builtin_converters
from chainerlite.onnx.graph import Graph
from chainerlite.onnx.names import format_customized_shapes
from chainerlite.onnx.names import rename_variables
from chainerlite.onnx.replace_func import patch_functions
from chainerlite.onnx.retain import RetainInputHook

MINIMUM_OPSET_VERSION = 7
MAXIMUM_OPSET_VERSION = 11


def convert_parameter(parameter, context):
    """A Parameter, Variable or array as a TensorProto named by ``context``."""
    if isinstance(parameter, chainerlite.Variable):
        array = parameter.array
    elif isinstance(parameter, chainerlite.get_array_types()):
        array = parameter
    else:
        raise ValueError(
            'The type of parameter is unknown. It should be either Parameter '
            'or Variable or ndarray, but the type was {}.'.format(type(parameter))
        )
    array = chainerlite.backend.CpuDevice().send(array)
    return numpy_helper.from_array(array, context.get_name(parameter))


def _value_info(name, array_or_tensor, shape=None):
    if isinstance(array_or_tensor, onnx.TensorProto):
        return helper.make_tensor_value_info(
            name, array_or_tensor.data_type, array_or_tensor.dims
        )
    return helper.make_tensor_value_info(
        name,
        helper.np_dtype_to_tensor_dtype(array_or_tensor.dtype),
        array_or_tensor.shape if shape is None else shape,
    )


def _run_model(model, args, context):
    """Calls the model; returns (args as Variables, named inputs, outputs)."""
    inputs = collections.OrderedDict()
    array_types = chainerlite.get_array_types()

    def as_var(arg):
        var = chainerlite.Variable(arg) if isinstance(arg, array_types) else arg
        inputs[context.get_name(var)] = var
        return var

    if isinstance(args, (list, tuple)):
        args = [as_var(a) for a in args]
        outputs = model(*args)
    elif isinstance(args, dict):
        args = {k: as_var(a) for k, a in args.items()}
        outputs = model(**args)
    elif isinstance(args, array_types + (chainerlite.Variable,)):
        args = as_var(args)
        outputs = model(args)
    else:
        raise ValueError(
            "The 'args' argument should be a list, tuple, dict, numpy array, "
            'or Chainer Variable. But a {} object was given.'.format(type(args))
        )
    return args, inputs, outputs


def _flat_outputs(outputs):
    if isinstance(outputs, (list, tuple)):
        flat = list(outputs)
    elif isinstance(outputs, dict):
        flat = list(outputs.values())
    elif isinstance(outputs, chainerlite.Variable):
        flat = [outputs]
    else:
        raise RuntimeError(
            'Unexpected output type from the model: {}'.format(type(outputs))
        )
    if not all(isinstance(o, chainerlite.Variable) for o in flat):
        raise ValueError("The all 'outputs' must be Chainer Variable")
    return flat


def _check_model(model, external_converters, external_opset_imports):
    try:
        checker.check_model(model)
    except checker.ValidationError as e:
        if external_converters is None or external_opset_imports:
            raise
        warnings.warn(
            'ValidationError is occurred but ignored. ONNX-Chainer recommends '
            'to set `external_opset_imports` when using `external_converters` '
            'on exporting. Please take care about ONNX format check is '
            'insufficient. Error message:\n{}'.format(e),
            UserWarning,
        )


def export(
    model,
    args,
    filename=None,
    export_params=True,
    graph_name='Graph',
    save_text=False,
    opset_version=None,
    input_names=None,
    output_names=None,
    train=False,
    return_named_inout=False,
    external_converters=None,
    external_opset_imports=None,
    input_shapes=None,
    no_testcase=False,
):
    """Runs ``model`` on ``args`` and returns the traced graph as ONNX.

    Args:
        model: a callable Link (usually a Chain); it is called as
            ``model(*args)``, ``model(**args)`` or ``model(args)``.
        args: list/tuple, dict, array or Variable: the model's inputs
            (arrays are wrapped in Variables).
        filename (str or file-like): where to write the model, if given.
        export_params (bool): whether to store parameter values as
            initializers.
        graph_name (str): the ``name`` of the ONNX graph.
        save_text (bool): also write ``filename + '.txt'`` in text format.
        opset_version (int): ONNX opset; default the newest of onnx's and
            11. Outside 7..11 a warning is given.
        input_names, output_names (str, list or dict): names of the graph's
            inputs and outputs, matching how ``args`` and the outputs are
            structured.
        train (bool): trace with ``chainer.config.train`` set to this.
        return_named_inout (bool): also return the named inputs and outputs
            (two ordered dicts of Variables).
        external_converters (dict): converters by function node name; they
            override the built-in ones and take a
            :class:`FunctionConverterParams`.
        external_opset_imports (dict): opset versions by domain name.
        input_shapes (tuple, list or dict): shapes to declare for the
            inputs (strings for free dimensions).
        no_testcase (bool): leave out the deprecation warning given when a
            file is written by ``export`` rather than ``export_testcase``.

    Returns:
        onnx.ModelProto, or ``(model, inputs, outputs)`` with
        ``return_named_inout``.
    """
    if not no_testcase and filename is not None:
        warnings.warn(
            'Exporting ONNX without testcases is deprecated. Use export_testcase '
            'instead',
            DeprecationWarning,
        )
    with (
        chainerlite.using_config('train', train),
        chainerlite.using_config('in_recomputing', True),
        chainerlite.using_config('enable_backprop', True),
    ):
        return _export(
            model,
            args,
            filename,
            export_params,
            graph_name,
            save_text,
            opset_version,
            input_names,
            output_names,
            return_named_inout,
            external_converters,
            external_opset_imports,
            input_shapes,
        )


def _export(
    model,
    args,
    filename,
    export_params,
    graph_name,
    save_text,
    opset_version,
    input_names,
    output_names,
    return_named_inout,
    external_converters,
    external_opset_imports,
    input_shapes,
):
    if opset_version is None:
        opset_version = min(int(onnx.defs.onnx_opset_version()), MAXIMUM_OPSET_VERSION)
    elif not MINIMUM_OPSET_VERSION <= opset_version <= MAXIMUM_OPSET_VERSION:
        warnings.warn(
            'ONNX-Chainer has been tested only with opset_version {} ~ {}. The '
            'ONNX file exported with your requested opset_version ({}) may cause '
            'some problems because the converters used for the opset_version '
            'have not been tested.'.format(
                MINIMUM_OPSET_VERSION, MAXIMUM_OPSET_VERSION, opset_version
            )
        )
    if input_shapes is not None:
        input_shapes = format_customized_shapes(args, input_shapes)

    with RetainInputHook() as hook, patch_functions():
        context = Context(model)
        context.variable_of = hook.variable_of
        args, network_inputs, outputs = _run_model(model, args, context)
        rename_variables(context, args, network_inputs, input_names)

        initializers = []
        input_tensors = []
        param_names = set()
        for path, param in model.namedparams():
            if param.array is None:
                warnings.warn(
                    "The parameter '{}' is not initialized, skip setting to ONNX "
                    'graph'.format(path)
                )
                continue
            tensor = convert_parameter(param, context)
            param_names.add(tensor.name)
            initializers.append(tensor)
            input_tensors.append(_value_info(tensor.name, tensor))
        for i, (name, var) in enumerate(network_inputs.items()):
            shape = None if input_shapes is None else input_shapes[i]
            input_tensors.append(_value_info(name, var.array, shape))

        if external_converters:
            chainerlite.utils.experimental('external_converters')
            converters = dict(builtin_converters, **external_converters)
        else:
            converters = builtin_converters

        network_outputs = collections.OrderedDict(
            (context.get_name(var), var) for var in _flat_outputs(outputs)
        )
        if output_names:
            rename_variables(context, outputs, network_outputs, output_names)
        graph = Graph(
            context,
            converters,
            opset_version,
            param_names | set(network_inputs),
            network_outputs,
            hook.variable_of,
        )
        graph.to_onnx_graph()

    for var in context.implicit_inputs.values():
        tensor = convert_parameter(var, context)
        initializers.append(tensor)
        input_tensors.append(_value_info(tensor.name, tensor))
    for array in context.parameters:
        tensor = convert_parameter(array, context)
        initializers.append(tensor)
        input_tensors.append(_value_info(tensor.name, tensor))
    output_tensors = [
        _value_info(name, var.array) for name, var in network_outputs.items()
    ]
    onnx_graph = helper.make_graph(
        graph.graph,
        graph_name,
        input_tensors,
        output_tensors,
        initializer=initializers if export_params else [],
    )
    opset_imports = [helper.make_operatorsetid('', opset_version)]
    if external_opset_imports:
        chainerlite.utils.experimental('external_opset_imports')
        for domain, version in external_opset_imports.items():
            opset_imports.append(helper.make_operatorsetid(domain, version))
    onnx_model = helper.make_model(
        onnx_graph,
        producer_name='Chainer',
        producer_version=chainerlite.__version__,
        opset_imports=opset_imports,
    )
    onnx_model.ir_version = onnx.IR_VERSION
    _check_model(onnx_model, external_converters, external_opset_imports)
    if input_shapes is not None:
        for output in onnx_model.graph.output:
            for dim in output.type.tensor_type.shape.dim:
                dim.Clear()
        onnx_model = shape_inference.infer_shapes(onnx_model)
        _check_model(onnx_model, external_converters, external_opset_imports)

    if isinstance(filename, str):
        with open(filename, 'wb') as f:
            f.write(onnx_model.SerializeToString())
        if save_text:
            with open(filename + '.txt', 'w') as f:
                print(onnx_model, file=f)
    elif hasattr(filename, 'write'):
        filename.write(onnx_model.SerializeToString())

    if return_named_inout:
        chainerlite.utils.experimental('return_named_inout')
        return onnx_model, network_inputs, network_outputs
    return onnx_model
