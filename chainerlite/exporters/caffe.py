"""Export of a computational graph as a Caffe model (prototxt + caffemodel)."""

import os

import numpy

import chainerlite
from chainerlite import variable
from chainerlite.links.caffe import caffe_pb

_PROTOTXT = 'chainer_model.prototxt'
_CAFFEMODEL = 'chainer_model.caffemodel'


def export(model, args, directory=None, export_params=True, graph_name='Graph'):
    """(Experimental) Exports a computational graph in Caffe's format.

    It runs ``model(*args)`` in test mode (``chainer.config.train`` is
    ``False``) and writes the graph that computes the outputs as a Caffe
    network: ``chainer_model.prototxt`` (text, without the weights) and
    ``chainer_model.caffemodel`` (binary, with the weights unless
    ``export_params`` is ``False``). The inputs become the network inputs
    ``data``, ``data1``, ...; each layer is named after the function that
    made it and its top blob has the layer's name.

    Supported functions: :func:`~chainerlite.functions.linear`,
    :func:`~chainerlite.functions.convolution_2d`,
    :func:`~chainerlite.functions.deconvolution_2d`,
    :func:`~chainerlite.functions.max_pooling_2d`,
    :func:`~chainerlite.functions.average_pooling_2d`,
    :func:`~chainerlite.functions.fixed_batch_normalization` (what
    :class:`~chainerlite.links.BatchNormalization` runs in test mode),
    :func:`~chainerlite.functions.local_response_normalization`,
    :func:`~chainerlite.functions.relu`,
    :func:`~chainerlite.functions.leaky_relu`,
    :func:`~chainerlite.functions.concat`,
    :func:`~chainerlite.functions.softmax`,
    :func:`~chainerlite.functions.sigmoid`,
    :func:`~chainerlite.functions.tanh`,
    :func:`~chainerlite.functions.reshape` and the sum ``x + y``.

    Args:
        model (~chainerlite.Chain): The model; ``model(*args)`` runs it.
        args (Variable or array or list of them): The inputs of the model.
        directory (str): Where the two files are written; if ``None``,
            nothing is written.
        export_params (bool): Whether the caffemodel holds the parameters.
        graph_name (str): The ``name`` of the Caffe network.

    Raises:
        NotImplementedError: If the graph holds a function that Caffe
            cannot express.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.links as L
        >>> from chainerlite.exporters import caffe
        >>> model = L.Convolution2D(3, 2, 1)
        >>> caffe.export(model, [np.zeros((1, 3, 4, 4), np.float32)])

    """
    if not isinstance(args, (list, tuple)):
        args = [args]
    args = [
        a if isinstance(a, variable.Variable) else variable.Variable(a) for a in args
    ]
    with chainerlite.using_config('train', False):
        outputs = model(*args)
    if not isinstance(outputs, (list, tuple)):
        outputs = [outputs]
    net = caffe_pb.NetParameter(name=graph_name)
    names = {}  # id(VariableNode) -> blob name
    for i, x in enumerate(args):
        name = 'data' if i == 0 else 'data{}'.format(i)
        names[id(x.node)] = name
        net.input.append(name)
        net.input_shape.add().dim.extend(x.shape)
    counts = {}
    keep = []  # the blobs' nodes stay alive while their ids are keys
    for node in _sorted_nodes(outputs):
        label = type(node).__name__
        converter = _CONVERTERS.get(label)
        if converter is None:
            raise NotImplementedError(
                'chainer.exporters.caffe.export: {} cannot be exported to Caffe'.format(
                    label
                )
            )
        counts[label] = counts.get(label, 0) + 1
        name = '{}-{}'.format(label, counts[label])
        bottoms = [names.get(id(x)) for x in node.inputs]
        converter(node, net, name, bottoms)
        out = node.outputs[0]()
        names[id(out)] = name
        keep.append(out)
    if not export_params:
        for layer in net.layer:
            del layer.blobs[:]
    if directory is not None:
        with open(os.path.join(directory, _PROTOTXT), 'w') as f:
            f.write(net.to_text(exclude=('blobs',)))
        with open(os.path.join(directory, _CAFFEMODEL), 'wb') as f:
            f.write(net.SerializeToString())


def _sorted_nodes(outputs):
    """Function nodes that compute ``outputs``, each after its inputs."""
    order = []
    seen = set()
    stack = [(y.creator_node, False) for y in reversed(outputs) if y.creator_node]
    while stack:
        node, expanded = stack.pop()
        if expanded:
            order.append(node)
            continue
        if id(node) in seen:
            continue
        seen.add(id(node))
        stack.append((node, True))
        for x in reversed(node.inputs):
            if x.creator_node is not None and id(x.creator_node) not in seen:
                stack.append((x.creator_node, False))
    return order


def _layer(net, name, typ, bottoms):
    """Adds a layer whose bottoms are blob names (``None``: not a blob)."""
    if None in bottoms:
        raise NotImplementedError(
            'chainer.exporters.caffe.export: an input of {} is neither a model '
            'input nor computed from one'.format(name)
        )
    layer = net.layer.add(name=name, type=typ)
    layer.bottom.extend(bottoms)
    layer.top.append(name)
    return layer


def _add_blob(layer, array):
    blob = layer.blobs.add()
    array = numpy.asarray(chainerlite.backend.CpuDevice().send(array), numpy.float32)
    blob.shape.dim.extend(array.shape)
    blob.data._add_array(array.ravel())


def _params(node):
    """The arrays of the inputs after the first (weights, statistics)."""
    arrays = []
    for x in node.inputs[1:]:
        var = x.get_variable_or_none()
        array = x.data if var is None else var.array
        if array is None:
            raise NotImplementedError(
                'chainer.exporters.caffe.export: a parameter of {} is no longer '
                'available'.format(type(node).__name__)
            )
        arrays.append(array)
    return arrays


def _linear(node, net, name, bottoms):
    layer = _layer(net, name, 'InnerProduct', bottoms[:1])
    params = _params(node)
    layer.inner_product_param.num_output = params[0].shape[0]
    layer.inner_product_param.bias_term = len(params) > 1
    for p in params:
        _add_blob(layer, p)


def _convolution(node, net, name, bottoms, typ='Convolution'):
    conv = node.params
    if any(conv.cover_all):
        raise NotImplementedError(
            'chainer.exporters.caffe.export: convolution with cover_all=True'
        )
    layer = _layer(net, name, typ, bottoms[:1])
    params = _params(node)
    W = params[0]
    p = layer.convolution_param
    p.num_output = W.shape[0] if typ == 'Convolution' else W.shape[1] * conv.groups
    p.bias_term = len(params) > 1
    p.kernel_h, p.kernel_w = W.shape[2:]
    p.stride_h, p.stride_w = conv.stride
    p.pad_h, p.pad_w = conv.pad
    if conv.dilate != (1, 1):
        p.dilation.extend(conv.dilate)
    p.group = conv.groups
    for param in params:
        _add_blob(layer, param)


def _deconvolution(node, net, name, bottoms):
    return _convolution(node, net, name, bottoms, 'Deconvolution')


def _pooling(node, net, name, bottoms, pool):
    # Caffe rounds the output size up (as cover_all=True does)
    if not node.cover_all:
        for size, k, s, p in zip(
            node.inputs[0].shape[2:], node.ksize, node.stride, node.pad
        ):
            if (size + 2 * p - k) % s:
                raise NotImplementedError(
                    'chainer.exporters.caffe.export: {} whose windows do not '
                    'cover the input (Caffe would add a partial window)'.format(
                        type(node).__name__
                    )
                )
    layer = _layer(net, name, 'Pooling', bottoms[:1])
    p = layer.pooling_param
    p.pool = pool
    p.kernel_h, p.kernel_w = node.ksize
    p.stride_h, p.stride_w = node.stride
    p.pad_h, p.pad_w = node.pad


def _max_pooling(node, net, name, bottoms):
    return _pooling(node, net, name, bottoms, caffe_pb.PoolingParameter.MAX)


def _average_pooling(node, net, name, bottoms):
    return _pooling(node, net, name, bottoms, caffe_pb.PoolingParameter.AVE)


def _batch_normalization(node, net, name, bottoms):
    # the axes the forward reduced over (Chainer's node keeps them): Caffe's
    # BatchNorm has the statistics of each channel, over axis 0 and 2..
    ndim = len(node.inputs[0].shape)
    if tuple(node.axis) != (0,) + tuple(range(2, ndim)):
        raise NotImplementedError(
            'chainer.exporters.caffe.export: batch normalization over axis {}'.format(
                node.axis
            )
        )
    gamma, beta, mean, var = _params(node)
    bn = _layer(net, name + '_bn', 'BatchNorm', bottoms[:1])
    bn.batch_norm_param.use_global_stats = True
    bn.batch_norm_param.eps = node.eps
    for array in (mean, var, numpy.ones(1, numpy.float32)):
        _add_blob(bn, array)
    sc = _layer(net, name, 'Scale', [name + '_bn'])
    sc.scale_param.axis = 1
    sc.scale_param.bias_term = True
    _add_blob(sc, gamma)
    _add_blob(sc, beta)


def _lrn(node, net, name, bottoms):
    layer = _layer(net, name, 'LRN', bottoms[:1])
    n = 2 * node.half + 1
    p = layer.lrn_param
    p.local_size = n
    p.alpha = node.alpha * n
    p.beta = node.beta
    p.k = node.k


def _relu(node, net, name, bottoms):
    _layer(net, name, 'ReLU', bottoms[:1])


def _leaky_relu(node, net, name, bottoms):
    layer = _layer(net, name, 'ReLU', bottoms[:1])
    layer.relu_param.negative_slope = node.slope


def _softmax(node, net, name, bottoms):
    layer = _layer(net, name, 'Softmax', bottoms[:1])
    layer.softmax_param.axis = node.axis


def _simple(typ):
    return lambda node, net, name, bottoms: _layer(net, name, typ, bottoms[:1])


def _reshape(node, net, name, bottoms):
    layer = _layer(net, name, 'Reshape', bottoms[:1])
    layer.reshape_param.shape.dim.extend(node.outputs[0]().shape)


def _concat(node, net, name, bottoms):
    layer = _layer(net, name, 'Concat', bottoms)
    layer.concat_param.axis = node.axis


def _add(node, net, name, bottoms):
    layer = _layer(net, name, 'Eltwise', bottoms)
    layer.eltwise_param.operation = caffe_pb.EltwiseParameter.SUM


_CONVERTERS = {
    'Add': _add,
    'AveragePooling2D': _average_pooling,
    'Concat': _concat,
    'Convolution2DFunction': _convolution,
    'Deconvolution2DFunction': _deconvolution,
    'FixedBatchNormalization': _batch_normalization,
    'LeakyReLU': _leaky_relu,
    'LinearFunction': _linear,
    'LocalResponseNormalization': _lrn,
    'MaxPooling2D': _max_pooling,
    'ReLU': _relu,
    'Reshape': _reshape,
    'Sigmoid': _simple('Sigmoid'),
    'Softmax': _softmax,
    'Tanh': _simple('TanH'),
}
