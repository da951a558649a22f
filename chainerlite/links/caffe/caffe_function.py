"""CaffeFunction: runs a binary Caffe model (``.caffemodel``) on Variables."""

import typing
import warnings

import numpy

import chainerlite
from chainerlite import functions as F
from chainerlite import link
from chainerlite.links.caffe import _wire
from chainerlite.links.caffe import caffe_pb
from chainerlite.links.connection import convolution_2d
from chainerlite.links.connection import deconvolution_2d
from chainerlite.links.connection import linear
from chainerlite.links.connection import scale
from chainerlite.links.normalization import batch_normalization
from chainerlite.utils import argument

# Layers that feed the network from outside: the caller gives their tops.
_INPUT_TYPES = frozenset(
    ['Data', 'Input', 'ImageData', 'MemoryData', 'HDF5Data', 'DummyData', 'WindowData']
)

# Bound of the block-diagonal weight that emulates a grouped convolution
# (``groups`` times the stored weight): 1 GiB of float32.
_MAX_GROUPED_SIZE = 1 << 28

_V1: typing.Any = caffe_pb.V1LayerParameter  # enum values are set at import
# V1 layer type (an enum) -> type name of the current format
_V1_TYPES = {
    _V1.BNLL: 'BNLL',
    _V1.CONCAT: 'Concat',
    _V1.CONVOLUTION: 'Convolution',
    _V1.DATA: 'Data',
    _V1.DECONVOLUTION: 'Deconvolution',
    _V1.DROPOUT: 'Dropout',
    _V1.DUMMY_DATA: 'DummyData',
    _V1.ELTWISE: 'Eltwise',
    _V1.HDF5_DATA: 'HDF5Data',
    _V1.IMAGE_DATA: 'ImageData',
    _V1.INNER_PRODUCT: 'InnerProduct',
    _V1.LRN: 'LRN',
    _V1.MEMORY_DATA: 'MemoryData',
    _V1.POOLING: 'Pooling',
    _V1.RELU: 'ReLU',
    _V1.SIGMOID: 'Sigmoid',
    _V1.SOFTMAX: 'Softmax',
    _V1.SOFTMAX_LOSS: 'SoftmaxWithLoss',
    _V1.SPLIT: 'Split',
    _V1.SLICE: 'Slice',
    _V1.TANH: 'TanH',
    _V1.WINDOW_DATA: 'WindowData',
}


class CaffeFunction(link.Chain):
    """Caffe emulator: a Chain built from the layers of a Caffe model file.

    It reads a binary ``.caffemodel`` (a ``NetParameter`` message, in the
    current ``layer`` or the deprecated ``layers`` format) with its own
    protocol buffers decoder, and makes a link or a function for each
    supported layer: Convolution, Deconvolution, InnerProduct, BatchNorm and
    Scale become child links named after the Caffe layer (``func['conv1']``,
    or ``func['inception_3a/1x1']`` for a name with a slash); Concat,
    Dropout, Eltwise, LRN, Pooling (max and average), ReLU, Reshape,
    Sigmoid, Slice, Softmax, SoftmaxWithLoss, Split and TanH become
    functions.

    It skips data layers, warns about (and skips) layers of any other type,
    and when called ignores layers without top blobs and layers whose bottom
    blobs are not given nor computed.

    Args:
        model_path (str): Path to the binary ``.caffemodel`` file.

    Attributes:
        forwards (dict): Layer name to the callable that runs it.
        split_map (dict): Blob name made by a Split layer to its source.
        layers (list): ``(layer name, bottom names, top names)`` of each
            layer that runs, in order.

    Raises:
        ValueError: If the file is not a valid Caffe model (truncated or
            garbled), or a layer's blobs do not fit its parameters.
        RuntimeError: If a layer uses a configuration that Chainer does not
            support (e.g. stochastic pooling, LRN within channels).

    .. admonition:: Example

        >>> func = CaffeFunction('bvlc_reference_caffenet.caffemodel')  # doctest: +SKIP
        >>> y, = func(inputs={'data': x}, outputs=['fc8'])  # doctest: +SKIP

    """

    def __init__(self, model_path):
        super().__init__()
        net = _read_net(model_path)
        self.forwards = {}
        self.split_map = {}
        self.layers = []
        if len(net.layer):
            for layer in net.layer:
                self._add_layer(layer, layer.type)
        else:
            for layer in net.layers:
                self._add_layer(layer, _V1_TYPES.get(layer.type, str(layer.type)))

    def forward(self, inputs, outputs, disable=(), **kwargs):
        """Runs the network from the given blobs to the requested ones.

        Args:
            inputs (dict): Blob name to its value (Variable or array).
            outputs (list of str): Names of the blobs to return.
            disable (list of str): Names of layers to skip.

        Returns:
            tuple of Variable: The requested blobs, in order.

        Raises:
            KeyError: If a requested blob is neither given nor computed.

        """
        argument.check_unexpected_kwargs(kwargs, train=argument.TRAIN_REMOVED)
        argument.assert_kwargs_empty(kwargs)
        blobs = dict(inputs)
        disable = set(disable)
        for name, bottoms, tops in self.layers:
            if name in disable or not tops or any(b not in blobs for b in bottoms):
                continue
            ys = self.forwards[name](*[blobs[b] for b in bottoms])
            if not isinstance(ys, (tuple, list)):
                ys = (ys,)
            blobs.update(zip(tops, ys))
        result = []
        for name in outputs:
            name = self.split_map.get(name, name)
            if name not in blobs:
                raise KeyError(
                    'CaffeFunction: blob "{}" is neither given nor computed'.format(
                        name
                    )
                )
            result.append(blobs[name])
        return tuple(result)

    def _add_layer(self, layer, typ):
        bottoms = [self.split_map.get(b, b) for b in layer.bottom]
        if typ == 'Split':
            for top in layer.top:
                self.split_map[top] = bottoms[0]
            return
        setup = _SETUP.get(typ)
        if setup is None:
            if typ not in _INPUT_TYPES:
                warnings.warn(
                    'Skip the layer "{}", since CaffeFunction does not support '
                    '{} layer'.format(layer.name, typ)
                )
            return
        try:
            func = setup(layer, bottoms)
        except (TypeError, ValueError) as e:
            if str(e).startswith('CaffeFunction'):
                raise
            raise _error(layer, str(e)) from e
        name = layer.name
        if name in self.forwards:
            raise ValueError('CaffeFunction: two layers are named "{}"'.format(name))
        if isinstance(func, tuple):  # (link, how to call it)
            child, func = func
            if hasattr(self, name):
                raise ValueError(
                    'CaffeFunction: layer name "{}" clashes with an attribute of '
                    'CaffeFunction'.format(name)
                )
            self.add_link(name, child)
        self.forwards[name] = func
        self.layers.append((name, bottoms, list(layer.top)))


def _read_net(path):
    with open(path, 'rb') as f:
        data = f.read()
    try:
        net = caffe_pb.NetParameter.FromString(data)
    except _wire.DecodeError as e:
        raise ValueError(
            'CaffeFunction: {} is not a valid Caffe model: {}'.format(path, e)
        ) from None
    if not len(net.layer) and not len(net.layers):
        raise ValueError(
            'CaffeFunction: {} holds no layers (is it a Caffe model?)'.format(path)
        )
    return net


# -- blobs ---------------------------------------------------------------------


def _error(layer, message, cls=ValueError):
    return cls(
        'CaffeFunction: layer "{}" ({}): {}'.format(layer.name, layer.type, message)
    )


def _blob(layer, index, what):
    if len(layer.blobs) <= index:
        raise _error(layer, 'the {} blob (blobs[{}]) is missing'.format(what, index))
    return layer.blobs[index]


def _blob_dims(blob):
    if len(blob.shape.dim):
        return tuple(int(d) for d in blob.shape.dim)
    return (blob.num, blob.channels, blob.height, blob.width)


def _blob_array(layer, blob, shape, what):
    """The values of ``blob``, checked to fill ``shape``, as float32."""
    data = blob.data.array() if len(blob.data) else blob.double_data.array()
    size = 1
    for n in shape:
        size *= n
    if any(n < 0 for n in shape) or data.size != size:
        raise _error(
            layer,
            'the {} blob holds {} values, but {} are needed for shape {}'.format(
                what, data.size, size, tuple(shape)
            ),
        )
    return data.astype(numpy.float32, copy=False).reshape(shape)


def _pair(param, prefix, repeated, default):
    """Caffe's size rule: ``*_h``/``*_w`` if set, else one or two values."""
    h, w = prefix + '_h', prefix + '_w'
    if h in param._by_name and (param.HasField(h) or param.HasField(w)):
        return getattr(param, h), getattr(param, w)
    values = list(repeated)
    if not values:
        return default
    if len(values) == 1:
        return values[0]
    if len(values) == 2:
        return tuple(values)
    raise RuntimeError(
        'CaffeFunction: {} {} for a 2-d layer is not supported'.format(prefix, values)
    )


def _as_pair(value):
    return value if isinstance(value, tuple) else (value, value)


def _check_positive(layer, **sizes):
    # The links accept a zero stride or dilation and refuse it only when
    # called, as Chainer's do; a file's layer is refused when it is read.
    for name, value in sizes.items():
        if min(_as_pair(value)) < 1:
            raise _error(layer, '{} {} must be positive'.format(name, value))


# -- layers --------------------------------------------------------------------


def _convolution(layer, bottoms, deconv=False):
    param = layer.convolution_param
    if param.axis != 1:
        raise _error(
            layer, 'axis {} is not supported (only 1)'.format(param.axis), RuntimeError
        )
    ksize = _pair(param, 'kernel', param.kernel_size, None)
    if ksize is None:
        raise _error(layer, 'the kernel size is not given')
    stride = _pair(param, 'stride', param.stride, 1)
    pad = _pair(param, 'pad', param.pad, 0)
    dilate = _pair(param, 'dilation', param.dilation, 1)
    _check_positive(layer, stride=stride, dilation=dilate)
    groups = param.group
    blob = _blob(layer, 0, 'weight')
    dims = _blob_dims(blob)
    if len(blob.shape.dim) == 0:
        dims = dims[:2] + _as_pair(ksize)
    if len(dims) != 4 or groups < 1 or dims[0] % groups:
        raise _error(layer, 'weight of shape {} with {} groups'.format(dims, groups))
    data = _blob_array(layer, blob, dims, 'weight')
    if data.size * groups > _MAX_GROUPED_SIZE:
        raise _error(
            layer,
            'a weight of {} values in {} groups is too large'.format(data.size, groups),
        )
    # Caffe's groups become a block-diagonal weight, one block per group.
    n_first = dims[0] // groups
    W = numpy.zeros((dims[0], dims[1] * groups) + dims[2:], numpy.float32)
    for i in range(groups):
        W[i * n_first : (i + 1) * n_first, i * dims[1] : (i + 1) * dims[1]] = data[
            i * n_first : (i + 1) * n_first
        ]
    if deconv:
        in_size, out_size = dims[0], dims[1] * groups
    else:
        out_size, in_size = dims[0], dims[1] * groups
    b = None
    if param.bias_term:
        bias = _blob(layer, 1, 'bias')
        b = _blob_array(layer, bias, (out_size,), 'bias')
    args = (in_size, out_size, dims[2:], stride, pad, b is None)
    if deconv:
        child = deconvolution_2d.Deconvolution2D(
            *args, initialW=W, initial_bias=b, dilate=dilate
        )
    else:
        child = convolution_2d.Convolution2D(
            *args, initialW=W, initial_bias=b, dilate=dilate
        )
    return child, child


def _deconvolution(layer, bottoms):
    return _convolution(layer, bottoms, deconv=True)


def _inner_product(layer, bottoms):
    param = layer.inner_product_param
    if param.axis != 1:
        raise _error(
            layer, 'axis {} is not supported (only 1)'.format(param.axis), RuntimeError
        )
    blob = _blob(layer, 0, 'weight')
    dims = _blob_dims(blob)
    if len(dims) == 4:
        dims = dims[2:]
    elif len(dims) != 2:
        raise _error(
            layer, 'a {}-d weight is not supported'.format(len(dims)), RuntimeError
        )
    W = _blob_array(layer, blob, dims, 'weight')
    if param.transpose:
        W = W.T.copy()
    out_size, in_size = W.shape
    b = None
    if param.bias_term:
        b = _blob_array(layer, _blob(layer, 1, 'bias'), (out_size,), 'bias')
    child = linear.Linear(
        in_size, out_size, nobias=b is None, initialW=W, initial_bias=b
    )
    return child, child


def _batch_norm(layer, bottoms):
    param = layer.batch_norm_param
    mean_blob = _blob(layer, 0, 'mean')
    size = len(mean_blob.data) or len(mean_blob.double_data)
    mean = _blob_array(layer, mean_blob, (size,), 'mean')
    var = _blob_array(layer, _blob(layer, 1, 'variance'), (size,), 'variance')
    factor = 1.0
    if len(layer.blobs) > 2:
        stored = _blob_array(layer, layer.blobs[2], (1,), 'scale factor')[0]
        factor = 0.0 if stored == 0 else 1.0 / stored
    child = batch_normalization.BatchNormalization(
        size, eps=param.eps, use_gamma=False, use_beta=False
    )
    child.avg_mean[...] = mean * factor
    child.avg_var[...] = var * factor
    if param.use_global_stats:

        def forward(x):
            with chainerlite.using_config('train', False):
                return child(x, finetune=False)

    else:

        def forward(x):
            return child(x, finetune=False)

    return child, forward


def _scale(layer, bottoms):
    param = layer.scale_param
    learned = len(bottoms) == 1  # else the scale is the second bottom
    W = b = None
    if learned:
        w_blob = _blob(layer, 0, 'scale')
        W = _blob_array(layer, w_blob, _blob_dims(w_blob), 'scale')
    if param.bias_term:
        bias_blob = _blob(layer, 1 if learned else 0, 'bias')
        b = _blob_array(layer, bias_blob, _blob_dims(bias_blob), 'bias')
    child = scale.Scale(
        axis=param.axis,
        W_shape=None if W is None else W.shape,
        bias_term=b is not None,
        bias_shape=None if b is None else b.shape,
    )
    if W is not None:
        child.W.array[...] = W
    if b is not None:
        child.bias.b.array[...] = b
    return child, child


def _concat(layer, bottoms):
    param = layer.concat_param
    axis = param.axis
    if not param.HasField('axis') and param.HasField('concat_dim'):
        axis = param.concat_dim
    return lambda *xs: F.concat(xs, axis=axis)


def _dropout(layer, bottoms):
    ratio = layer.dropout_param.dropout_ratio
    return lambda x: F.dropout(x, ratio=ratio)


def _eltwise(layer, bottoms):
    param = layer.eltwise_param
    operation = param.operation
    coeff = list(param.coeff)
    if operation == caffe_pb.EltwiseParameter.PROD:

        def forward(*xs):
            y = xs[0]
            for x in xs[1:]:
                y = y * x
            return y

    elif operation == caffe_pb.EltwiseParameter.SUM and coeff:

        def forward(*xs):
            if len(coeff) != len(xs):
                raise AssertionError(
                    'CaffeFunction: Eltwise layer "{}" has {} coefficients for {} '
                    'inputs'.format(layer.name, len(coeff), len(xs))
                )
            y = xs[0] * coeff[0]
            for x, c in zip(xs[1:], coeff[1:]):
                y = y + x * c
            return y

    elif operation == caffe_pb.EltwiseParameter.SUM:

        def forward(*xs):
            y = xs[0]
            for x in xs[1:]:
                y = y + x
            return y

    elif operation == caffe_pb.EltwiseParameter.MAX:

        def forward(*xs):
            y = xs[0]
            for x in xs[1:]:
                y = F.maximum(y, x)
            return y

    else:
        raise _error(
            layer, 'operation {} is not supported'.format(operation), RuntimeError
        )
    return forward


def _lrn(layer, bottoms):
    param = layer.lrn_param
    if param.norm_region != caffe_pb.LRNParameter.ACROSS_CHANNELS:
        raise _error(layer, 'only ACROSS_CHANNELS is supported', RuntimeError)
    n = param.local_size
    if n < 1:
        raise _error(layer, 'local_size must be positive')
    k = param.k
    alpha = param.alpha / n
    beta = param.beta
    return lambda x: F.local_response_normalization(x, n=n, k=k, alpha=alpha, beta=beta)


def _pooling(layer, bottoms):
    param = layer.pooling_param
    stride = _pair(param, 'stride', [param.stride], 1)
    pad = _pair(param, 'pad', [param.pad], 0)
    _check_positive(layer, stride=stride)
    if param.pool == caffe_pb.PoolingParameter.MAX:
        name = 'max_pooling_2d'
    elif param.pool == caffe_pb.PoolingParameter.AVE:
        name = 'average_pooling_2d'
    else:
        raise _error(layer, 'only MAX and AVE pooling are supported', RuntimeError)
    if param.global_pooling:
        return lambda x: getattr(F, name)(x, x.shape[2:], stride=stride, pad=pad)
    kernel = [param.kernel_size] if param.HasField('kernel_size') else []
    ksize = _pair(param, 'kernel', kernel, None)
    if ksize is None:
        raise _error(layer, 'the kernel size is not given')
    return lambda x: getattr(F, name)(x, ksize, stride=stride, pad=pad)


def _relu(layer, bottoms):
    slope = layer.relu_param.negative_slope
    if slope == 0:
        return lambda x: F.relu(x)
    return lambda x: F.leaky_relu(x, slope=slope)


def _reshape(layer, bottoms):
    param = layer.reshape_param
    dims = [int(d) for d in param.shape.dim]
    first = param.axis
    num_axes = param.num_axes

    def forward(x):
        shape = list(x.shape)
        start = first + len(shape) + 1 if first < 0 else first
        stop = len(shape) if num_axes == -1 else start + num_axes
        if not 0 <= start <= stop <= len(shape):
            raise _error(
                layer, 'axes {}..{} of a {}-d input'.format(start, stop, len(shape))
            )
        # a 0 in the new shape keeps the input's size on that axis
        new = [shape[start + i] if d == 0 else d for i, d in enumerate(dims)]
        return F.reshape(x, shape=shape[:start] + new + shape[stop:])

    return forward


def _check_softmax_axis(layer):
    if layer.softmax_param.axis != 1:
        raise _error(
            layer,
            'axis {} is not supported (only 1)'.format(layer.softmax_param.axis),
            RuntimeError,
        )


def _softmax(layer, bottoms):
    _check_softmax_axis(layer)
    return lambda x: F.softmax(x)


def _softmax_with_loss(layer, bottoms):
    _check_softmax_axis(layer)
    return lambda *xs: F.softmax_cross_entropy(*xs)


def _slice(layer, bottoms):
    param = layer.slice_param
    axis = 1
    if param.HasField('axis'):
        axis = param.axis
    elif param.HasField('slice_dim'):
        axis = param.slice_dim
    points = list(param.slice_point)
    sections = points if points else len(layer.top)
    return lambda x: F.split_axis(x, indices_or_sections=sections, axis=axis)


_SETUP = {
    'BatchNorm': _batch_norm,
    'Concat': _concat,
    'Convolution': _convolution,
    'Deconvolution': _deconvolution,
    'Dropout': _dropout,
    'Eltwise': _eltwise,
    'InnerProduct': _inner_product,
    'LRN': _lrn,
    'Pooling': _pooling,
    'ReLU': _relu,
    'Reshape': _reshape,
    'Scale': _scale,
    'Sigmoid': lambda layer, bottoms: lambda x: F.sigmoid(x),
    'Slice': _slice,
    'Softmax': _softmax,
    'SoftmaxWithLoss': _softmax_with_loss,
    'TanH': lambda layer, bottoms: lambda x: F.tanh(x),
}
