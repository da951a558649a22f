"""Valid base calls of every public function, for the integer-parameter
sweep (``test_int_parameter_sweep.py``).

``BASES`` maps each name of ``chainerlite.functions`` to builders of valid
calls; each builder returns ``(args, kwargs)`` with small inputs (no axis
longer than ``SIZE``). The sweep binds each call to the function's
signature and varies every argument that is an int or a tuple of ints, and
the float arguments named in ``FLOAT_PARAMS``. Integer parameters whose
default is ``None`` are given as ints in a builder, so that they are swept.

Run as a script, this module is the sweep's worker: it reads one case a
line (JSON ``[name, base, param, value]``) from stdin, makes the call and
writes its outcome and the CPU seconds it took as one JSON line.
``INT_SWEEP_PACKAGE=chainer`` makes it call Chainer's functions instead.
"""

import importlib
import json
import os
import resource
import sys
import time
import warnings

import numpy

SIZE = 5
#: The package whose functions the worker calls: ``chainer`` (in a Chainer
#: environment) gives Chainer's outcomes of the same cases, to compare.
PACKAGE = os.environ.get('INT_SWEEP_PACKAGE', 'chainerlite')
f32 = numpy.float32
i32 = numpy.int32


def r(*shape):
    return numpy.random.RandomState(0).uniform(0.5, 1.5, shape).astype(f32)


def ints(high, *shape):
    return numpy.random.RandomState(1).randint(0, high, shape).astype(i32)


def img(*dims):
    return r(2, 3, *dims)


def one(*args, **kwargs):
    return [lambda: (args, kwargs)]


def _rnn(n_gates, bi, cell=False):
    # n_step_{rnn,gru,lstm} and their bidirectional forms: 1 layer,
    # inputs and hidden states of 3 units, 2 sequences
    dirs = 2 if bi else 1
    ws = [[r(3, 3) for _ in range(n_gates)] for _ in range(dirs)]
    bs = [[r(3) for _ in range(n_gates)] for _ in range(dirs)]
    hx = r(dirs, 2, 3)
    states = (hx, r(dirs, 2, 3)) if cell else (hx,)
    return one(1, 0.0, *states, ws, bs, [r(2, 3), r(1, 3)])


UNARY = """absolute arccos arcsin arctan arctanh batch_l2_norm_squared ceil cos
cosh digamma erf erfc erfcx erfinv erfcinv exp expm1 fix flatten floor gelu
hard_sigmoid identity lgamma log log10 log1p log2 log_ndtr ndtr ndtri neg
relu relu6 rsqrt sigmoid sign sin sinh sqrt square tan tanh fliplr flipud
clipped_relu elu leaky_relu selu softplus rrelu dropout decov""".split()
BINARY = """absolute_error arctan2 maximum minimum mean_absolute_error
mean_squared_error squared_difference squared_error add sub mul div pow
bernoulli_nll""".split()
SQUARE = 'batch_det batch_inv'.split()

x4 = img(SIZE, SIZE)
BASES = {name: one(r(2, 3) * 0.5) for name in UNARY}
BASES.update({name: one(r(2, 3), r(2, 3)) for name in BINARY})
BASES.update({name: one(r(2, 3, 3) + 3 * numpy.eye(3, dtype=f32)) for name in SQUARE})
for _name in 'det inv cholesky'.split():
    BASES[_name] = one(r(3, 3) + 3 * numpy.eye(3, dtype=f32))
for _name in 'argmax argmin cumprod cumsum logsumexp'.split():
    BASES[_name] = one(r(2, 3), axis=1)
for _name in 'max min sum mean prod'.split():
    BASES[_name] = one(r(2, 3), axis=1)
for _name in 'softmax log_softmax normalize crelu'.split():
    BASES[_name] = one(r(2, 3), axis=1)
for _name in 'hstack vstack dstack'.split():
    BASES[_name] = one([r(2, 3), r(2, 3)])
for _name in 'fft ifft'.split():
    BASES[_name] = one((r(2, 4), r(2, 4)))
for _name in 'lstm'.split():
    BASES[_name] = one(r(2, 3), r(2, 12))
for _name in ('precision', 'recall', 'f1_score', 'classification_summary'):
    BASES[_name] = one(r(4, 3), ints(3, 4), label_num=3, ignore_label=-1)
for _d, _shape in (
    ('1d', (SIZE,)),
    ('2d', (SIZE, SIZE)),
    ('3d', (3, 3, 3)),
    ('nd', (SIZE, SIZE)),
):
    _x = img(*_shape)
    _n = len(_shape)
    _w = r(4, 3, *(2,) * _n)
    BASES['max_pooling_{}'.format(_d)] = [
        lambda x=_x: ((x, 2), {}),
        lambda x=_x, n=_n: ((x, (2,) * n), {'stride': (1,) * n, 'pad': (1,) * n}),
    ]
    BASES['average_pooling_{}'.format(_d)] = [
        lambda x=_x: ((x, 2), {}),
        lambda x=_x, n=_n: ((x, (2,) * n), {'stride': (1,) * n, 'pad': (1,) * n}),
    ]
    BASES['unpooling_{}'.format(_d)] = [
        lambda x=_x: ((x, 2), {'stride': 2, 'pad': 0, 'outsize': None}),
        lambda x=_x, n=_n: ((x, (2,) * n), {'stride': (1,) * n, 'pad': (1,) * n}),
        lambda x=_x, n=_n: ((x, 2), {'outsize': tuple(2 * d for d in x.shape[2:])}),
    ]
    BASES['convolution_{}'.format(_d)] = [
        lambda x=_x, w=_w: ((x, w), {'stride': 1, 'pad': 1, 'dilate': 1, 'groups': 1}),
        lambda x=_x, w=_w, n=_n: ((x, w), {'stride': (1,) * n, 'pad': (1,) * n}),
    ]
    _wd = r(3, 4, *(2,) * _n)
    BASES['deconvolution_{}'.format(_d)] = [
        lambda x=_x, w=_wd: ((x, w), {'stride': 1, 'pad': 1, 'dilate': 1, 'groups': 1}),
        lambda x=_x, w=_wd, n=_n: (
            (x, w),
            {
                'stride': (2,) * n,
                'pad': (0,) * n,
                'outsize': tuple(2 * d for d in x.shape[2:]),
            },
        ),
    ]

BASES.update(
    accuracy=one(r(4, 3), ints(3, 4), ignore_label=-1),
    binary_accuracy=one(r(4, 3) - 1, ints(2, 4, 3)),
    argmax_crf1d=one(r(3, 3), [r(2, 3), r(1, 3)]),
    crf1d=one(r(3, 3), [r(2, 3), r(1, 3)], [ints(3, 2), ints(3, 1)]),
    as_strided=one(r(2, 3), (3, 2), (1, 3), storage_offset=0),
    average=one(r(2, 3), axis=1),
    batch_matmul=one(r(2, 3, 3), r(2, 3, 3)),
    matmul=one(r(2, 3, 3), r(2, 3, 3)),
    batch_normalization=one(r(4, 3), r(3), r(3), axis=0),
    fixed_batch_normalization=one(r(4, 3), r(3), r(3), r(3), r(3), axis=0),
    batch_renormalization=one(
        r(4, 3), r(3), r(3), 1.0, 0.0, running_mean=r(3), running_var=r(3)
    ),
    fixed_batch_renormalization=one(r(4, 3), r(3), r(3), r(3), r(3)),
    decorrelated_batch_normalization=one(r(4, 4), groups=2),
    fixed_decorrelated_batch_normalization=one(r(4, 4), r(2, 2), r(2, 2, 2), groups=2),
    group_normalization=one(r(2, 4, 3), 2, r(4), r(4)),
    layer_normalization=one(r(2, 3), r(3), r(3)),
    local_response_normalization=one(x4, n=5),
    bias=one(r(2, 3), r(3), axis=1),
    scale=one(r(2, 3), r(3), axis=1),
    bilinear=one(r(2, 3), r(2, 3), r(3, 3, 2)),
    black_out=one(r(2, 3), ints(5, 2), r(5, 3), ints(5, 2, 2)),
    broadcast=one(r(1, 3), r(2, 1)),
    broadcast_to=one(r(1, 3), (2, 3)),
    cast=one(r(2, 3), numpy.float64),
    clip=one(r(2, 3), 0.6, 1.2),
    concat=one([r(2, 3), r(2, 3)], axis=1),
    connectionist_temporal_classification=one(
        [r(2, 4) for _ in range(4)],
        ints(3, 2, 2) + 1,
        0,
        input_length=numpy.full(2, 4, i32),
        label_length=numpy.full(2, 2, i32),
    ),
    contrastive=one(r(2, 3), r(2, 3), ints(2, 2), margin=1),
    copy=one(r(2, 3), -1),
    cross_covariance=one(r(2, 3), r(2, 3)),
    deformable_convolution_2d_sampler=one(
        x4, r(2, 8, SIZE, SIZE), r(4, 3, 2, 2), stride=1, pad=1
    ),
    depth2space=one(r(2, 4, 2, 2), 2),
    space2depth=one(r(2, 1, 4, 4), 2),
    depthwise_convolution_2d=one(x4, r(2, 3, 2, 2), stride=1, pad=1),
    dilated_convolution_2d=one(x4, r(4, 3, 2, 2), stride=1, pad=1, dilate=2),
    diagonal=one(r(3, 3), offset=0, axis1=0, axis2=1),
    discriminative_margin_based_clustering_loss=one(
        r(2, 3, 4, 4), ints(3, 2, 4, 4), 0.5, 1.5, 3, norm=1
    ),
    einsum=one('ij,jk->ik', r(2, 3), r(3, 2)),
    embed_id=one(ints(5, 4), r(5, 3), ignore_label=-1),
    expand_dims=one(r(2, 3), 1),
    flip=one(r(2, 3), 1),
    fmod=one(r(2, 3), r(2, 3)),
    forget=one(lambda a: a * 2, r(2, 3)),
    gaussian=one(r(2, 3), r(2, 3)),
    gaussian_kl_divergence=one(r(2, 3), r(2, 3)),
    gaussian_nll=one(r(2, 3), r(2, 3), r(2, 3)),
    get_item=one(r(2, 3), (1, slice(0, 2))),
    gumbel_softmax=one(r(2, 3), axis=1),
    hinge=one(r(4, 3), ints(3, 4)),
    huber_loss=one(r(2, 3), r(2, 3), 1.0),
    im2col=[
        lambda: ((x4, 2), {'stride': 1, 'pad': 1, 'dilate': 1}),
        lambda: ((x4, (2, 2)), {'stride': (1, 1), 'pad': (1, 1), 'dilate': (1, 1)}),
    ],
    linear=one(r(2, 3), r(4, 3), r(4), n_batch_axes=1),
    linear_interpolate=one(r(2, 3), r(2, 3), r(2, 3)),
    local_convolution_2d=one(x4, r(2, 4, 4, 3, 2, 2), stride=1),
    maxout=one(r(2, 6), 2, axis=1),
    moveaxis=one(r(2, 3), 0, 1),
    negative_sampling=one(
        r(2, 3), ints(5, 2), r(5, 3), lambda shape: ints(5, *shape), 2
    ),
    pad=[lambda: ((r(2, 3), 1), {}), lambda: ((r(2, 3), ((1, 1), (1, 1))), {})],
    pad_sequence=one([r(2, 3), r(1, 3)], length=3),
    permutate=one(r(3, 2), numpy.array([2, 0, 1], i32), axis=0),
    polygamma=one(ints(3, 2, 3), r(2, 3)),
    prelu=one(r(2, 3), r(3)),
    r2_score=one(r(4), r(4)),
    repeat=one(r(2, 3), 2, axis=1),
    reshape=one(r(2, 3), (3, 2)),
    resize_images=one(x4, (SIZE + 1, SIZE + 1)),
    roi_average_align_2d=one(
        x4, r(2, 4) * 2, numpy.array([0, 1], i32), 2, 1.0, sampling_ratio=2
    ),
    roi_max_align_2d=one(
        x4, r(2, 4) * 2, numpy.array([0, 1], i32), 2, 1.0, sampling_ratio=2
    ),
    roi_average_pooling_2d=one(x4, r(2, 4) * 2, numpy.array([0, 1], i32), 2, 1.0),
    roi_max_pooling_2d=one(x4, r(2, 4) * 2, numpy.array([0, 1], i32), 2, 1.0),
    roi_pooling_2d=one(
        x4, numpy.concatenate([numpy.zeros((2, 1), f32), r(2, 4) * 2], 1), 2, 2, 1.0
    ),
    rollaxis=one(r(2, 3), 1, start=0),
    scatter_add=one(r(2, 3), (1, slice(0, 2)), r(2)),
    select_item=one(r(2, 3), ints(3, 2)),
    separate=one(r(2, 3), axis=0),
    shift=one(r(2, 9, SIZE, SIZE), ksize=3, dilate=1),
    sigmoid_cross_entropy=one(r(2, 3), ints(2, 2, 3)),
    simplified_dropconnect=one(r(2, 3), r(4, 3)),
    slstm=one(r(2, 3), r(2, 3), r(2, 12), r(2, 12)),
    softmax_cross_entropy=one(r(4, 3), ints(3, 4), ignore_label=-1),
    sparse_matmul=[lambda: ((_coo(), r(3, 2)), {})],
    spatial_pyramid_pooling_2d=one(x4, 2, pooling='max'),
    spatial_transformer_grid=one(r(2, 2, 3), (SIZE, SIZE)),
    spatial_transformer_sampler=one(x4, r(2, 2, SIZE, SIZE) - 1),
    split_axis=one(r(2, 6), 3, 1),
    squeeze=one(r(2, 1), axis=1),
    stack=one([r(2, 3), r(2, 3)], axis=0),
    sum_to=one(r(2, 3), (1, 3)),
    swapaxes=one(r(2, 3), 0, 1),
    swish=one(r(2, 3), r(3)),
    tensordot=one(r(2, 3), r(3, 2), axes=1),
    tile=one(r(2, 3), 2),
    transpose=one(r(2, 3), (1, 0)),
    transpose_sequence=one([r(2, 3), r(1, 3)]),
    tree_lstm=one(r(2, 3), r(2, 3), r(2, 15)),
    triplet=one(r(2, 3), r(2, 3), r(2, 3)),
    upsampling_2d=[
        lambda: ((x4, ints(4, 2, 3, SIZE, SIZE), 2), {'stride': 2, 'pad': 0}),
        lambda: ((x4, ints(4, 2, 3, SIZE, SIZE), 2), {'outsize': (2 * SIZE, 2 * SIZE)}),
    ],
    where=one(r(2, 3) > 1, r(2, 3), r(2, 3)),
    zeta=one(r(2, 3) + 1, r(2, 3)),
    zoneout=one(r(2, 3), r(2, 3)),
    n_step_rnn=_rnn(2, False),
    n_step_birnn=_rnn(2, True),
    n_step_gru=_rnn(6, False),
    n_step_bigru=_rnn(6, True),
    n_step_lstm=_rnn(8, False, cell=True),
    n_step_bilstm=_rnn(8, True, cell=True),
)


def _coo():
    utils = importlib.import_module(PACKAGE + '.utils')

    return utils.to_coo(numpy.array([[1, 0, 0], [0, 2, 0]], f32))


#: Functions not swept, each with the reason.
EXCLUDED = {}

#: Integer arguments that set no amount of work, not swept.
PARAMS_EXCLUDED = {
    ('copy', 'dst'): 'a device id: an int names a GPU (an error without CuPy)'
}

_OUTPUT_NOT_POSITIVE = 'an output length that is not positive, as in Chainer'
#: Exceptions besides ValueError, TypeError, InvalidType, IndexError and
#: MemoryError that a function raises for an argument, as Chainer does.
ALSO_RAISES = {
    name: ('AssertionError', _OUTPUT_NOT_POSITIVE)
    for name in """max_pooling_1d max_pooling_2d max_pooling_3d max_pooling_nd
    average_pooling_1d average_pooling_2d average_pooling_3d average_pooling_nd
    deconvolution_1d deconvolution_3d deconvolution_nd""".split()
}
ALSO_RAISES.update(
    {
        name: ('RuntimeError', _OUTPUT_NOT_POSITIVE)
        for name in """convolution_1d convolution_2d convolution_3d convolution_nd
        depthwise_convolution_2d dilated_convolution_2d deconvolution_2d""".split()
    }
)
ALSO_RAISES.update(
    {
        name: ('ZeroDivisionError', "a block size r of 0, as Chainer's reshape fails")
        for name in ('depth2space', 'space2depth')
    }
)

#: Float arguments that set an amount of work (swept with FLOAT_VALUES).
FLOAT_PARAMS = {'spatial_scale'}
FLOAT_VALUES = [0.0, -1.0, 2.0**31, 2.0**62, float('inf'), float('nan')]


def int_values():
    """The values each integer argument takes."""
    return [0, -1, 1, SIZE + 1, 10**9, 2**31, 2**62, -(2**62)]


def worker():
    """Answers the cases read from stdin (see the module docstring)."""
    F = importlib.import_module(PACKAGE + '.functions')
    type_check = importlib.import_module(PACKAGE + '.utils.type_check')

    warnings.simplefilter('ignore')
    # an absurd allocation fails at once instead of taking the machine
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
    clean = (ValueError, TypeError, type_check.InvalidType, IndexError, MemoryError)
    for line in sys.stdin:
        name, base, param, value = json.loads(line)
        args, kwargs = BASES[name][base]()
        if param is not None:
            value = tuple(value) if isinstance(value, list) else value
            args, kwargs = substitute(getattr(F, name), args, kwargs, param, value)
        start = time.process_time()
        try:
            getattr(F, name)(*args, **kwargs)
            outcome = 'ok'
        except clean as e:
            outcome = '{}: {}'.format(type(e).__name__, str(e)[:200])
        except BaseException as e:  # reported as the failure it is
            outcome = 'BAD {}: {}'.format(type(e).__name__, str(e)[:300])
        seconds = time.process_time() - start
        print(json.dumps([outcome, seconds]), flush=True)


def bound(func, args, kwargs):
    """The arguments of a call by name (defaults left out)."""
    import inspect

    return inspect.signature(func).bind(*args, **kwargs)


def substitute(func, args, kwargs, param, value):
    """The call's arguments with ``param`` set to ``value``."""
    import inspect

    if param not in inspect.signature(func).parameters:  # in its **kwargs
        return args, dict(kwargs, **{param: value})
    b = bound(func, args, kwargs)
    b.arguments[param] = value
    return b.args, b.kwargs


if __name__ == '__main__':
    worker()
