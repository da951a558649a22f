"""The part of Caffe's message schema (``caffe.proto``) that models use.

Field numbers, kinds and defaults are those of BVLC Caffe's public
``caffe.proto``; fields not listed here are skipped when a file is read.
The classes behave like the ``caffe_pb2`` module that the protobuf compiler
generates (see :mod:`chainerlite.links.caffe._message`).
"""

from chainerlite.links.caffe._message import Field
from chainerlite.links.caffe._message import Message

_ENGINE = {'DEFAULT': 0, 'CAFFE': 1, 'CUDNN': 2}
_PHASE = {'TRAIN': 0, 'TEST': 1}


def _opt(name, number, kind, default=None, **kwargs):
    return Field(name, number, kind, default=default, **kwargs)


def _rep(name, number, kind, **kwargs):
    return Field(name, number, kind, repeated=True, **kwargs)


def _msg(name, number, message, repeated=False):
    return Field(name, number, 'message', repeated=repeated, message=message)


def _engine(number):
    return _opt('engine', number, 'enum', 0, enum=_ENGINE)


class BlobShape(Message):
    FIELDS = (_rep('dim', 1, 'int64', packed=True),)


class BlobProto(Message):
    FIELDS = (
        _msg('shape', 7, 'BlobShape'),
        _rep('data', 5, 'float', packed=True),
        _rep('diff', 6, 'float', packed=True),
        _rep('double_data', 8, 'double', packed=True),
        _rep('double_diff', 9, 'double', packed=True),
        _opt('num', 1, 'int32'),
        _opt('channels', 2, 'int32'),
        _opt('height', 3, 'int32'),
        _opt('width', 4, 'int32'),
    )


class NetState(Message):
    FIELDS = (
        _opt('phase', 1, 'enum', 1, enum=_PHASE),
        _opt('level', 2, 'int32'),
        _rep('stage', 3, 'string'),
    )


class NetStateRule(Message):
    FIELDS = (
        _opt('phase', 1, 'enum', 0, enum=_PHASE),
        _opt('min_level', 2, 'int32'),
        _opt('max_level', 3, 'int32'),
        _rep('stage', 4, 'string'),
        _rep('not_stage', 5, 'string'),
    )


class ParamSpec(Message):
    ENUMS = {'STRICT': 0, 'PERMISSIVE': 1}
    FIELDS = (
        _opt('name', 1, 'string'),
        _opt('share_mode', 2, 'enum', 0, enum=ENUMS),
        _opt('lr_mult', 3, 'float', 1.0),
        _opt('decay_mult', 4, 'float', 1.0),
    )


class BatchNormParameter(Message):
    FIELDS = (
        _opt('use_global_stats', 1, 'bool'),
        _opt('moving_average_fraction', 2, 'float', 0.999),
        _opt('eps', 3, 'float', 1e-5),
    )


class ConcatParameter(Message):
    FIELDS = (_opt('axis', 2, 'int32', 1), _opt('concat_dim', 1, 'uint32', 1))


class ConvolutionParameter(Message):
    ENUMS = _ENGINE
    FIELDS = (
        _opt('num_output', 1, 'uint32'),
        _opt('bias_term', 2, 'bool', True),
        _rep('pad', 3, 'uint32'),
        _rep('kernel_size', 4, 'uint32'),
        _rep('stride', 6, 'uint32'),
        _rep('dilation', 18, 'uint32'),
        _opt('pad_h', 9, 'uint32'),
        _opt('pad_w', 10, 'uint32'),
        _opt('kernel_h', 11, 'uint32'),
        _opt('kernel_w', 12, 'uint32'),
        _opt('stride_h', 13, 'uint32'),
        _opt('stride_w', 14, 'uint32'),
        _opt('group', 5, 'uint32', 1),
        _engine(15),
        _opt('axis', 16, 'int32', 1),
        _opt('force_nd_im2col', 17, 'bool'),
    )


class DropoutParameter(Message):
    FIELDS = (_opt('dropout_ratio', 1, 'float', 0.5),)


class EltwiseParameter(Message):
    ENUMS = {'PROD': 0, 'SUM': 1, 'MAX': 2}
    FIELDS = (
        _opt('operation', 1, 'enum', 1, enum=ENUMS),
        _rep('coeff', 2, 'float'),
        _opt('stable_prod_grad', 3, 'bool', True),
    )


class InnerProductParameter(Message):
    FIELDS = (
        _opt('num_output', 1, 'uint32'),
        _opt('bias_term', 2, 'bool', True),
        _opt('axis', 5, 'int32', 1),
        _opt('transpose', 6, 'bool'),
    )


class InputParameter(Message):
    FIELDS = (_msg('shape', 1, 'BlobShape', repeated=True),)


class LRNParameter(Message):
    ENUMS = dict(_ENGINE, ACROSS_CHANNELS=0, WITHIN_CHANNEL=1)
    FIELDS = (
        _opt('local_size', 1, 'uint32', 5),
        _opt('alpha', 2, 'float', 1.0),
        _opt('beta', 3, 'float', 0.75),
        _opt(
            'norm_region',
            4,
            'enum',
            0,
            enum={'ACROSS_CHANNELS': 0, 'WITHIN_CHANNEL': 1},
        ),
        _opt('k', 5, 'float', 1.0),
        _engine(6),
    )


class PoolingParameter(Message):
    _POOL = {'MAX': 0, 'AVE': 1, 'STOCHASTIC': 2}
    ENUMS = dict(_ENGINE, **_POOL)
    FIELDS = (
        _opt('pool', 1, 'enum', 0, enum=_POOL),
        _opt('pad', 4, 'uint32', 0),
        _opt('pad_h', 9, 'uint32', 0),
        _opt('pad_w', 10, 'uint32', 0),
        _opt('kernel_size', 2, 'uint32'),
        _opt('kernel_h', 5, 'uint32'),
        _opt('kernel_w', 6, 'uint32'),
        _opt('stride', 3, 'uint32', 1),
        _opt('stride_h', 7, 'uint32'),
        _opt('stride_w', 8, 'uint32'),
        _engine(11),
        _opt('global_pooling', 12, 'bool'),
    )


class ReLUParameter(Message):
    ENUMS = _ENGINE
    FIELDS = (_opt('negative_slope', 1, 'float', 0.0), _engine(2))


class ReshapeParameter(Message):
    FIELDS = (
        _msg('shape', 1, 'BlobShape'),
        _opt('axis', 2, 'int32', 0),
        _opt('num_axes', 3, 'int32', -1),
    )


class ScaleParameter(Message):
    FIELDS = (
        _opt('axis', 1, 'int32', 1),
        _opt('num_axes', 2, 'int32', 1),
        _opt('bias_term', 4, 'bool'),
    )


class SigmoidParameter(Message):
    ENUMS = _ENGINE
    FIELDS = (_engine(1),)


class SliceParameter(Message):
    FIELDS = (
        _opt('axis', 3, 'int32', 1),
        _rep('slice_point', 2, 'uint32'),
        _opt('slice_dim', 1, 'uint32', 1),
    )


class SoftmaxParameter(Message):
    ENUMS = _ENGINE
    FIELDS = (_engine(1), _opt('axis', 2, 'int32', 1))


class TanHParameter(Message):
    ENUMS = _ENGINE
    FIELDS = (_engine(1),)


# (field name, number in LayerParameter, number in V1LayerParameter, message)
_LAYER_PARAMS = (
    ('batch_norm_param', 139, None, 'BatchNormParameter'),
    ('concat_param', 104, 9, 'ConcatParameter'),
    ('convolution_param', 106, 10, 'ConvolutionParameter'),
    ('dropout_param', 108, 12, 'DropoutParameter'),
    ('eltwise_param', 110, 24, 'EltwiseParameter'),
    ('inner_product_param', 117, 17, 'InnerProductParameter'),
    ('input_param', 143, None, 'InputParameter'),
    ('lrn_param', 118, 18, 'LRNParameter'),
    ('pooling_param', 121, 19, 'PoolingParameter'),
    ('relu_param', 123, 30, 'ReLUParameter'),
    ('reshape_param', 133, None, 'ReshapeParameter'),
    ('scale_param', 142, None, 'ScaleParameter'),
    ('sigmoid_param', 124, 38, 'SigmoidParameter'),
    ('softmax_param', 125, 39, 'SoftmaxParameter'),
    ('slice_param', 126, 31, 'SliceParameter'),
    ('tanh_param', 127, 37, 'TanHParameter'),
)


class LayerParameter(Message):
    FIELDS = (
        _opt('name', 1, 'string'),
        _opt('type', 2, 'string'),
        _rep('bottom', 3, 'string'),
        _rep('top', 4, 'string'),
        _opt('phase', 10, 'enum', 0, enum=_PHASE),
        _rep('loss_weight', 5, 'float'),
        _msg('param', 6, 'ParamSpec', repeated=True),
        _msg('blobs', 7, 'BlobProto', repeated=True),
        _rep('propagate_down', 11, 'bool'),
        _msg('include', 8, 'NetStateRule', repeated=True),
        _msg('exclude', 9, 'NetStateRule', repeated=True),
    ) + tuple(_msg(name, number, message) for name, number, _, message in _LAYER_PARAMS)


class V1LayerParameter(Message):
    """A layer of the deprecated ``layers`` field (Caffe before 2015)."""

    ENUMS = {
        'NONE': 0,
        'ABSVAL': 35,
        'ACCURACY': 1,
        'ARGMAX': 30,
        'BNLL': 2,
        'CONCAT': 3,
        'CONTRASTIVE_LOSS': 37,
        'CONVOLUTION': 4,
        'DATA': 5,
        'DECONVOLUTION': 39,
        'DROPOUT': 6,
        'DUMMY_DATA': 32,
        'EUCLIDEAN_LOSS': 7,
        'ELTWISE': 25,
        'EXP': 38,
        'FLATTEN': 8,
        'HDF5_DATA': 9,
        'HDF5_OUTPUT': 10,
        'HINGE_LOSS': 28,
        'IM2COL': 11,
        'IMAGE_DATA': 12,
        'INFOGAIN_LOSS': 13,
        'INNER_PRODUCT': 14,
        'LRN': 15,
        'MEMORY_DATA': 29,
        'MULTINOMIAL_LOGISTIC_LOSS': 16,
        'MVN': 34,
        'POOLING': 17,
        'POWER': 26,
        'RELU': 18,
        'SIGMOID': 19,
        'SIGMOID_CROSS_ENTROPY_LOSS': 27,
        'SILENCE': 36,
        'SOFTMAX': 20,
        'SOFTMAX_LOSS': 21,
        'SPLIT': 22,
        'SLICE': 33,
        'TANH': 23,
        'WINDOW_DATA': 24,
        'THRESHOLD': 31,
    }
    FIELDS = (
        _rep('bottom', 2, 'string'),
        _rep('top', 3, 'string'),
        _opt('name', 4, 'string'),
        _msg('include', 32, 'NetStateRule', repeated=True),
        _msg('exclude', 33, 'NetStateRule', repeated=True),
        _opt('type', 5, 'enum', 0, enum=ENUMS),
        _msg('blobs', 6, 'BlobProto', repeated=True),
        _rep('param', 1001, 'string'),
        _rep('blobs_lr', 7, 'float'),
        _rep('weight_decay', 8, 'float'),
        _rep('loss_weight', 35, 'float'),
    ) + tuple(
        _msg(name, number, message)
        for name, _, number, message in _LAYER_PARAMS
        if number is not None
    )


class NetParameter(Message):
    FIELDS = (
        _opt('name', 1, 'string'),
        _rep('input', 3, 'string'),
        _msg('input_shape', 8, 'BlobShape', repeated=True),
        _rep('input_dim', 4, 'int32'),
        _opt('force_backward', 5, 'bool'),
        _msg('state', 6, 'NetState'),
        _opt('debug_info', 7, 'bool'),
        _msg('layer', 100, 'LayerParameter', repeated=True),
        _msg('layers', 2, 'V1LayerParameter', repeated=True),
    )
