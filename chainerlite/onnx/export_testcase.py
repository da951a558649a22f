"""``export_testcase``: the model plus input/output (and gradient) tensors."""

import os
import warnings

import chainerlite
import chainerlite.functions as F

from chainerlite.onnx.export import export
from chainerlite.onnx.onnx_helper import cleanse_param_name
from chainerlite.onnx.onnx_helper import write_tensor_pb


def _to_cpu(array):
    return chainerlite.backend.CpuDevice().send(array)


def export_testcase(model, args, out_dir, output_grad=False, **kwargs):
    """Writes ``out_dir/model.onnx`` and ``out_dir/test_data_set_0/*.pb``.

    The test data set holds ``input_<i>.pb`` and ``output_<i>.pb`` (each
    tensor named as the graph's input or output) and, with
    ``output_grad``, ``gradient_<i>.pb``: the gradient of each parameter
    (named as its initializer) after backpropagating ones from the
    outputs. ``kwargs`` go to :func:`export`.
    """
    os.makedirs(out_dir, exist_ok=True)
    model.cleargrads()
    _, inputs, outputs = export(
        model,
        args,
        filename=os.path.join(out_dir, 'model.onnx'),
        return_named_inout=True,
        no_testcase=True,
        **kwargs,
    )
    data_dir = os.path.join(out_dir, 'test_data_set_0')
    os.makedirs(data_dir, exist_ok=True)
    for kind, named in (('input', inputs), ('output', outputs)):
        for i, (name, var) in enumerate(named.items()):
            path = os.path.join(data_dir, '{}_{}.pb'.format(kind, i))
            write_tensor_pb(path, name, _to_cpu(var.array))
    if not output_grad:
        return
    heads = list(outputs.values())
    if len(heads) > 1:
        heads = F.identity(*heads)
    for out in heads:
        out.grad = model.xp.ones_like(out.array)
    heads[0].backward()
    for i, (path, param) in enumerate(model.namedparams()):
        if param.grad is None:
            warnings.warn('Parameter `{}` does not have gradient value'.format(path))
            continue
        write_tensor_pb(
            os.path.join(data_dir, 'gradient_{}.pb'.format(i)),
            cleanse_param_name(path),
            _to_cpu(param.grad),
        )
