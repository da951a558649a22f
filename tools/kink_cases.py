"""The cases of the kink sweep (``tools/kink_sweep.py``).

Each case calls one public function of ``chainer.functions`` at its kinks,
ties and special values (0, -0, +-inf, NaN, equal elements, the bounds of
clip-like functions). It is written against the module pair ``(chainer,
F)`` so that the same case runs with Chainer 7.8.1 (to record the oracle)
and with chainerlite (to compare). Inputs are NumPy arrays: the floating
ones become ``Variable`` objects whose gradients are compared, the others
are passed as they are. Only NumPy is imported here, so that the oracle's
venv can load the table.
"""

import typing

import numpy

inf = numpy.inf
nan = numpy.nan
f16, f32, f64 = numpy.float16, numpy.float32, numpy.float64
i32 = numpy.int32


class Case(typing.NamedTuple):
    func: str  # the name in chainerlite.functions that the case covers
    label: str
    inputs: tuple  # NumPy arrays; floating ones are differentiated
    call: typing.Callable  # call(chainer, F, *inputs) -> outputs
    grad: bool = True  # compare gradients (False: forward only)
    double: bool = True  # run with double backprop too (False: refused there)

    @property
    def key(self):
        return f'{self.func}/{self.label}'


# Functions of chainerlite.functions that the sweep does not call, and why.
EXCLUDED = {
    'gelu': 'not in Chainer 7.8.1, so there is no oracle to compare with',
    'gumbel_softmax': 'draws random noise in every mode; Chainer and '
    'chainerlite draw from different generators',
    'gaussian': 'draws random noise in every mode (Chainer samples in test '
    'mode too); the generators differ',
}

# Twelve special values: infinities, large, signed zeros, kinks at +-1.
SPECIAL = [-inf, -100.0, -1.0, -0.5, -0.0, 0.0, 0.5, 1.0, 2.0, 100.0, inf, nan]
# Nine values whose 81 pairs feed the binary functions.
PAIR = [-inf, -1.0, -0.0, 0.0, 0.5, 1.0, 2.0, inf, nan]
# Rows for reductions along axis 1: ties, signed zeros, infinities, NaN.
ROWS = [
    [1.0, 1.0, 1.0, 1.0],
    [0.0, -0.0, 0.0, -0.0],
    [inf, inf, 1.0, 2.0],
    [-inf, -inf, -inf, -inf],
    [nan, 1.0, nan, 2.0],
    [inf, -inf, 0.0, 1.0],
    [nan, inf, -inf, 0.0],
    [2.0, 1.0, 2.0, 0.0],
]

CASES = []


def a(values, dtype=f32, shape=None):
    out = numpy.array(values, dtype=dtype)
    return out if shape is None else out.reshape(shape)


def special(dtype=f32, extra=(), shape=None):
    return a(SPECIAL + list(extra), dtype, shape)


def pairs(dtype=f32):
    x, y = numpy.meshgrid(a(PAIR, dtype), a(PAIR, dtype), indexing='ij')
    return x.ravel(), y.ravel()


def rows(dtype=f32):
    return a(ROWS, dtype)


def ramp(shape, dtype=f32, scale=0.1):
    """Finite, distinct values of ``shape``."""
    n = int(numpy.prod(shape))
    return (numpy.arange(n) * scale - n * scale / 3).astype(dtype).reshape(shape)


def add(func, label, inputs, call=None, grad=True, double=True):
    if call is None:
        name = func
        call = lambda ch, F, *xs: getattr(F, name)(*xs)  # noqa: E731
    CASES.append(Case(func, label, tuple(inputs), call, grad, double))


def evaluating(ch, thunk):
    with ch.using_config('train', False):
        return thunk()


def _unary():
    extras = {
        'clipped_relu': [20.0],
        'digamma': [-3.0],
        'lgamma': [-3.0],
        'hard_sigmoid': [-2.5, 2.5],
        'relu6': [6.0],
    }
    activations = (
        'clipped_relu elu hard_sigmoid leaky_relu relu relu6 selu sigmoid softplus tanh'
    ).split()
    plain = (
        'absolute arccos arcsin arctan arctanh ceil cos cosh digamma erf erfc '
        'erfcinv erfcx erfinv exp expm1 fix floor identity lgamma log log10 '
        'log1p log2 log_ndtr ndtr ndtri rsqrt sign sin sinh sqrt square tan'
    ).split()
    for name in plain + activations:
        dtypes = (f16, f32, f64) if name in activations else (f32,)
        for dtype in dtypes:
            add(
                name,
                f'special_{numpy.dtype(dtype).name}',
                [special(dtype, extras.get(name, ()))],
            )
    add('neg', 'special', [special()], lambda ch, F, x: -x)
    add('absolute', 'abs_operator', [special()], lambda ch, F, x: abs(x))
    add('clipped_relu', 'z1', [special()], lambda ch, F, x: F.clipped_relu(x, 1.0))
    add('clipped_relu', 'z0', [special()], lambda ch, F, x: F.clipped_relu(x, 0.0))
    for slope in (0.0, -0.5, 2.0):
        add(
            'leaky_relu',
            f'slope{slope}',
            [special()],
            lambda ch, F, x, s=slope: F.leaky_relu(x, s),
        )
    add('elu', 'alpha0.5', [special()], lambda ch, F, x: F.elu(x, 0.5))
    add('elu', 'alpha0', [special()], lambda ch, F, x: F.elu(x, 0.0))
    add('selu', 'alpha2', [special()], lambda ch, F, x: F.selu(x, 2.0, 0.5))
    add('softplus', 'beta2', [special()], lambda ch, F, x: F.softplus(x, 2.0))
    add('softplus', 'large', [a([-1e4, -90, -30, 30, 90, 1e4])])
    add('sigmoid', 'large', [a([-1e4, -90, -30, 30, 90, 1e4])])
    add('swish', 'beta', [special(shape=(3, 4)), a([0.0, -0.0, inf, nan])])
    add('swish', 'beta_bcast', [special(shape=(3, 4)), a([0.0])])
    add('prelu', 'slopes', [special(shape=(3, 4)), a([0.0, -1.0, inf, nan])])
    add('clip', 'bounds', [special()], lambda ch, F, x: F.clip(x, -1.0, 1.0))
    add('clip', 'equal_bounds', [special()], lambda ch, F, x: F.clip(x, 0.5, 0.5))
    add('clip', 'inf_bounds', [special()], lambda ch, F, x: F.clip(x, -inf, inf))
    add('clip', 'f64', [special(f64)], lambda ch, F, x: F.clip(x, -1.0, 2.0))
    add('crelu', 'special', [special(shape=(3, 4))])
    add(
        'rrelu',
        'eval',
        [special()],
        lambda ch, F, x: evaluating(ch, lambda: F.rrelu(x)),
    )
    n = a([0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2], i32)
    add('polygamma', 'special', [n, special()])
    add(
        'zeta',
        'q_special',
        [special()],
        lambda ch, F, q: F.zeta(numpy.full(12, 2.0, f32), q),
    )
    add(
        'zeta',
        'x_special',
        [numpy.ones(12, f32)],
        lambda ch, F, q: F.zeta(special(), q),
    )


def _binary():
    for dtype in (f32, f64):
        dn = numpy.dtype(dtype).name
        x, y = pairs(dtype)
        ops = {
            'add': lambda ch, F, p, q: p + q,
            'sub': lambda ch, F, p, q: p - q,
            'mul': lambda ch, F, p, q: p * q,
            'div': lambda ch, F, p, q: p / q,
            'pow': lambda ch, F, p, q: p**q,
        }
        for name, call in ops.items():
            add(name, f'pairs_{dn}', [x, y], call)
        for name in (
            'maximum minimum arctan2 fmod squared_difference absolute_error '
            'squared_error mean_squared_error mean_absolute_error'
        ).split():
            add(name, f'pairs_{dn}', [x, y])
    x = special()
    consts = {
        'pow': [
            ('x**2', lambda p: p**2),
            ('x**0.5', lambda p: p**0.5),
            ('x**0', lambda p: p**0),
            ('x**-1', lambda p: p**-1),
            ('2**x', lambda p: 2**p),
            ('0**x', lambda p: 0**p),
            ('0.0**x', lambda p: 0.0**p),
            ('1**x', lambda p: 1**p),
        ],
        'div': [
            ('1/x', lambda p: 1 / p),
            ('x/0', lambda p: p / 0.0),
            ('0/x', lambda p: 0.0 / p),
        ],
        'sub': [('2-x', lambda p: 2 - p)],
        'mul': [('x*inf', lambda p: p * inf), ('x*0', lambda p: p * 0.0)],
        'add': [('x+inf', lambda p: p + inf)],
    }
    for name, items in consts.items():
        for label, fn in items:
            add(name, label, [x], lambda ch, F, p, fn=fn: fn(p))
    add('add', 'three', [x, x[::-1].copy(), x], lambda ch, F, p, q, r: F.add(p, q, r))
    x4, y4 = special(shape=(3, 4)), a([0.0, -0.0, inf, nan])
    add('bias', 'special', [x4, y4], lambda ch, F, p, q: F.bias(p, q, axis=1))
    add('scale', 'special', [x4, y4], lambda ch, F, p, q: F.scale(p, q, axis=1))
    p, q = pairs()
    add('linear_interpolate', 'pairs', [special(extra=[0.0] * 69)[:81], p, q])
    cond = numpy.arange(81) % 2 == 0
    add('where', 'pairs', [cond, p, q])


def _reductions():
    r = rows()
    for name in ('max', 'min'):
        add(name, 'rows', [r], lambda ch, F, x, n=name: getattr(F, n)(x, axis=1))
        add(name, 'ties_all', [a([2.0, 2.0, 1.0, 2.0])])
        add(name, 'zeros_all', [a([0.0, -0.0, -0.0, 0.0])])
        add(
            name,
            'keepdims',
            [r],
            lambda ch, F, x, n=name: getattr(F, n)(x, axis=0, keepdims=True),
        )
    for name in ('argmax', 'argmin'):
        add(
            name,
            'rows',
            [r],
            lambda ch, F, x, n=name: getattr(F, n)(x, axis=1),
            grad=False,
        )
        add(name, 'ties_all', [a([2.0, 1.0, 2.0])], grad=False)
    for name in ('sum', 'mean', 'prod', 'cumsum', 'cumprod', 'logsumexp'):
        add(name, 'rows', [r], lambda ch, F, x, n=name: getattr(F, n)(x, axis=1))
    add('sum', 'all', [r])
    add(
        'prod',
        'zeros',
        [a([[0.0, 2.0, 3.0], [0.0, 0.0, 3.0], [-0.0, 1.0, 1.0]])],
        lambda ch, F, x: F.prod(x, axis=1),
    )
    add(
        'cumprod',
        'zeros',
        [a([[0.0, 2.0, 3.0], [2.0, 0.0, 3.0], [0.0, 0.0, 3.0]])],
        lambda ch, F, x: F.cumprod(x, axis=1),
    )
    add('logsumexp', 'all', [a([-inf, -inf])])
    add(
        'average',
        'weights',
        [r, a([1.0, 0.0, 2.0, 1.0])],
        lambda ch, F, x, w: F.average(x, axis=1, weights=w),
    )
    add(
        'average',
        'zero_weights',
        [r[:2], a([1.0, -1.0, 0.0, 0.0])],
        lambda ch, F, x, w: F.average(x, axis=1, weights=w),
    )
    add('batch_l2_norm_squared', 'rows', [r])
    for name in ('softmax', 'log_softmax'):
        add(name, 'rows', [r])
        add(name, 'rows_f64', [rows(f64)])
    add('normalize', 'rows', [r])
    add('normalize', 'zero', [a([[0.0, 0.0], [0.0, -0.0]])])
    add('maxout', 'rows', [r], lambda ch, F, x: F.maxout(x, 2))
    add('layer_normalization', 'rows', [r, numpy.ones(4, f32), numpy.zeros(4, f32)])
    add('local_response_normalization', 'special', [r.reshape(2, 4, 2, 2)])


def _pool_input(dims, values):
    return a(values, f32, (1, 2) + (2,) * dims)


def _pooling():
    ties = [1.0] * 8 + [nan, 1.0, inf, 1.0, -inf, -inf, -inf, -inf]
    for dims, suffix in ((1, '1d'), (2, '2d'), (3, '3d')):
        n = 2 * 2**dims
        vals = (ties * 4)[:n]
        x = _pool_input(dims, vals)
        for kind in ('max', 'average'):
            name = f'{kind}_pooling_{suffix}'
            add(name, 'ties', [x], lambda ch, F, v, nm=name: getattr(F, nm)(v, 2))
            add(name, 'pad', [x], lambda ch, F, v, nm=name: getattr(F, nm)(v, 2, 1, 1))
            nd = f'{kind}_pooling_nd'
            add(nd, f'ties_{suffix}', [x], lambda ch, F, v, nm=nd: getattr(F, nm)(v, 2))
        un = f'unpooling_{suffix}'
        add(
            un,
            'special',
            [x],
            lambda ch, F, v, nm=un: getattr(F, nm)(v, 2, cover_all=False),
        )
        add(
            'unpooling_nd',
            f'special_{suffix}',
            [x],
            lambda ch, F, v: F.unpooling_nd(v, 2, cover_all=False),
        )
    x = a(ties[:8] + ties[8:], f32, (1, 1, 4, 4))
    add('max_pooling_2d', 'cover_all', [x], lambda ch, F, v: F.max_pooling_2d(v, 3, 2))
    add(
        'average_pooling_2d',
        'window3',
        [x],
        lambda ch, F, v: F.average_pooling_2d(v, 3, 2, 1),
    )
    add(
        'spatial_pyramid_pooling_2d',
        'ties',
        [x],
        lambda ch, F, v: F.spatial_pyramid_pooling_2d(v, 2, 'max'),
    )
    idx = numpy.array([[[[0, 3], [1, 2]]]], numpy.int64)
    up = lambda ch, F, v, i: F.upsampling_2d(v, i, 2, outsize=(4, 4))  # noqa: E731
    add(
        'upsampling_2d',
        'special',
        [a([nan, inf, -0.0, 1.0], f32, (1, 1, 2, 2)), idx],
        up,
    )
    for bad in (4, -1, 100):
        add(
            'upsampling_2d',
            f'index{bad}',
            [
                a([1, 2, 3, 4], f32, (1, 1, 2, 2)),
                numpy.array([[[[0, bad], [1, 2]]]], numpy.int64),
            ],
            up,
        )
    x = a([nan, 1.0, 1.0, 1.0, inf, 2.0, 0.0, -0.0] * 4, f32, (1, 2, 4, 4))
    rois = a([[0.0, 0.0, 3.0, 3.0], [1.0, 1.0, 1.0, 1.0], [0.5, 0.5, 2.5, 2.5]])
    ridx = numpy.zeros(3, i32)
    for name in ('roi_average_align_2d', 'roi_max_align_2d'):
        add(
            name,
            'special',
            [x, rois, ridx],
            lambda ch, F, v, r, i, nm=name: getattr(F, nm)(v, r, i, 2, 1.0, 2),
        )
    for name in ('roi_average_pooling_2d', 'roi_max_pooling_2d'):
        add(
            name,
            'special',
            [x, rois, ridx],
            lambda ch, F, v, r, i, nm=name: getattr(F, nm)(v, r, i, 2, 1.0),
        )
    rois5 = numpy.concatenate([numpy.zeros((3, 1), f32), rois], axis=1)
    add(
        'roi_pooling_2d',
        'special',
        [x, rois5],
        lambda ch, F, v, r: F.roi_pooling_2d(v, r, 2, 2, 1.0),
    )


def _connection():
    x = ramp((1, 2, 4), scale=0.5)
    x[0, 0, 1], x[0, 1, 2] = nan, inf
    w = ramp((3, 2, 2), scale=0.25)
    w[0, 0, 0] = 0.0
    b = a([0.0, inf, -0.0])
    for dims, suffix in ((1, '1d'), (2, '2d'), (3, '3d')):
        xs = numpy.resize(x, (1, 2) + (3,) * dims).astype(f32)
        ws = numpy.resize(w, (3, 2) + (2,) * dims).astype(f32)
        wd = numpy.resize(w, (2, 3) + (2,) * dims).astype(f32)
        add(f'convolution_{suffix}', 'special', [xs, ws, b])
        add('convolution_nd', f'special_{suffix}', [xs, ws, b])
        add(f'deconvolution_{suffix}', 'special', [xs, wd, b])
        add('deconvolution_nd', f'special_{suffix}', [xs, wd, b])
    x2 = numpy.resize(x, (1, 2, 3, 3)).astype(f32)
    add(
        'depthwise_convolution_2d',
        'special',
        [x2, numpy.resize(w, (1, 2, 2, 2)).astype(f32)],
    )
    add(
        'dilated_convolution_2d',
        'special',
        [x2, numpy.resize(w, (3, 2, 2, 2)).astype(f32)],
        lambda ch, F, v, k: F.dilated_convolution_2d(v, k, dilate=2, pad=1),
    )
    add(
        'local_convolution_2d',
        'special',
        [x2, numpy.resize(w, (3, 2, 2, 2, 2, 2)).astype(f32)],
    )
    add(
        'shift',
        'special',
        [numpy.resize(x, (1, 9, 2, 2)).astype(f32)],
        lambda ch, F, v: F.shift(v, 3, 1),
    )
    add('im2col', 'special', [x2], lambda ch, F, v: F.im2col(v, 2, pad=1))
    offs = numpy.zeros((1, 8, 2, 2), f32)
    offs[0, 0, 0, 0], offs[0, 5, 1, 1], offs[0, 2, 0, 1] = nan, inf, 0.5
    add(
        'deformable_convolution_2d_sampler',
        'special',
        [x2, offs, numpy.resize(w, (3, 2, 2, 2)).astype(f32)],
    )
    xl = special(shape=(3, 4))
    add('linear', 'special', [xl, ramp((2, 4)), a([0.0, nan])])
    add('bilinear', 'special', [xl[:, :2], xl[:, 2:], ramp((2, 2, 3))])
    wemb = a([[0.0, 1.0], [inf, nan], [-0.0, -inf]])
    add(
        'embed_id',
        'ignore',
        [numpy.array([0, 1, 2, 1, -1], i32), wemb],
        lambda ch, F, t, w: F.embed_id(t, w, ignore_label=-1),
    )


def _array():
    x = special(shape=(3, 4))
    x3 = special(shape=(1, 3, 2, 2))
    calls = {
        'as_strided': lambda ch, F, v: F.as_strided(v, (2, 2), (4, 1)),
        'broadcast_to': lambda ch, F, v: F.broadcast_to(v, (2, 3, 4)),
        'cast': lambda ch, F, v: F.cast(v, numpy.float64),
        'copy': lambda ch, F, v: F.copy(v, -1),
        'diagonal': lambda ch, F, v: F.diagonal(v),
        'expand_dims': lambda ch, F, v: F.expand_dims(v, 1),
        'flatten': lambda ch, F, v: F.flatten(v),
        'flip': lambda ch, F, v: F.flip(v, 1),
        'fliplr': lambda ch, F, v: F.fliplr(v),
        'flipud': lambda ch, F, v: F.flipud(v),
        'get_item': lambda ch, F, v: F.get_item(v, (slice(None), [0, 0, 3])),
        'moveaxis': lambda ch, F, v: F.moveaxis(v, 0, 1),
        'pad': lambda ch, F, v: F.pad(v, 1, 'constant', constant_values=inf),
        'permutate': lambda ch, F, v: F.permutate(v, numpy.array([2, 0, 1], i32)),
        'repeat': lambda ch, F, v: F.repeat(v, 2, 1),
        'reshape': lambda ch, F, v: F.reshape(v, (2, 6)),
        'rollaxis': lambda ch, F, v: F.rollaxis(v, 1),
        'separate': lambda ch, F, v: F.separate(v, 1),
        'split_axis': lambda ch, F, v: F.split_axis(v, [1, 3], 1),
        'squeeze': lambda ch, F, v: F.squeeze(F.reshape(v, (1, 3, 4))),
        'sum_to': lambda ch, F, v: F.sum_to(v, (1, 4)),
        'swapaxes': lambda ch, F, v: F.swapaxes(v, 0, 1),
        'tile': lambda ch, F, v: F.tile(v, (1, 2)),
        'transpose': lambda ch, F, v: F.transpose(v),
        'select_item': lambda ch, F, v: F.select_item(v, numpy.array([0, 3, 3], i32)),
        'dropout': lambda ch, F, v: evaluating(ch, lambda: F.dropout(v)),
        'depth2space': lambda ch, F, v: F.depth2space(F.reshape(v, (1, 4, 1, 3)), 2),
        'space2depth': lambda ch, F, v: F.space2depth(F.reshape(v, (1, 3, 2, 2)), 2),
        'resize_images': lambda ch, F, v: F.resize_images(
            F.reshape(v, (1, 1, 3, 4)), (4, 3)
        ),
    }
    for name, call in calls.items():
        add(name, 'special', [x], call)
    # F.forget refuses double backprop, as Chainer's does (RuntimeError)
    add('forget', 'special', [x], _forget, double=False)
    y = x[::-1].copy()
    lists = {
        'broadcast': lambda ch, F, p, q: F.broadcast(p, q[:1]),
        'concat': lambda ch, F, p, q: F.concat([p, q]),
        'stack': lambda ch, F, p, q: F.stack([p, q], 1),
        'dstack': lambda ch, F, p, q: F.dstack([p, q]),
        'hstack': lambda ch, F, p, q: F.hstack([p, q]),
        'vstack': lambda ch, F, p, q: F.vstack([p, q]),
        'pad_sequence': lambda ch, F, p, q: F.pad_sequence([p, q[:2]], padding=nan),
        'transpose_sequence': lambda ch, F, p, q: F.transpose_sequence([p, q[:2]]),
        'zoneout': lambda ch, F, p, q: evaluating(ch, lambda: F.zoneout(p, q)),
    }
    for name, call in lists.items():
        add(name, 'special', [x, y], call)
    add(
        'scatter_add',
        'special',
        [x, a([inf, -inf, nan])],
        lambda ch, F, p, q: F.scatter_add(p, (slice(None), 0), q),
    )
    add(
        'scatter_add',
        'repeated',
        [x, a([inf, -inf, 1.0])],
        lambda ch, F, p, q: F.scatter_add(p, ([0, 0, 1], 1), q),
    )
    add(
        'resize_images',
        'nearest',
        [x3],
        lambda ch, F, v: F.resize_images(
            v, (3, 3), mode='nearest', align_corners=False
        ),
    )
    add(
        'depth2space',
        'ties',
        [x3.reshape(1, 4, 3, 1)],
        lambda ch, F, v: F.depth2space(v, 2),
    )
    theta = a(
        [[1.0, 0.0, 0.0, 0.0, 1.0, 0.0], [inf, 0.0, 0.0, 0.0, nan, 0.0]], f32, (2, 2, 3)
    )
    add(
        'spatial_transformer_grid',
        'special',
        [theta],
        lambda ch, F, t: F.spatial_transformer_grid(t, (2, 3)),
    )
    img = ramp((1, 2, 3, 3))
    grid = a(
        [
            nan,
            0.0,
            -1.0,
            1.0,
            inf,
            -inf,
            1.5,
            0.5,
            0.0,
            nan,
            -1.0,
            1.0,
            0.0,
            0.0,
            -2.0,
            -0.0,
        ],
        f32,
        (1, 2, 2, 4),
    )
    add('spatial_transformer_sampler', 'special', [img, grid])
    add(
        'spatial_transformer_sampler',
        'boundary',
        [img, a([-1.0, 1.0, 1.0, -1.0] * 2, f32, (1, 2, 2, 2))],
    )
    add(
        'spatial_transformer_sampler',
        'nan_image',
        [
            a([nan] + [1.0] * 8, f32, (1, 1, 3, 3)),
            a([0.0, -1.0, 0.3, 1.0] * 2, f32, (1, 2, 2, 2)),
        ],
    )


def _forget(ch, F, v):
    return F.forget(lambda u: F.leaky_relu(u) * u, v)


def _linalg():
    sing = a([[1.0, 2.0], [2.0, 4.0]])
    m = a([[2.0, 1.0], [1.0, 3.0]])
    mi = a([[inf, 1.0], [1.0, nan]])
    for name, batched in (('det', 'batch_det'), ('inv', 'batch_inv')):
        add(name, 'singular', [sing])
        add(name, 'special', [mi])
        add(batched, 'singular', [numpy.stack([m, sing])])
        add(batched, 'special', [numpy.stack([m, mi])])
    add('cholesky', 'special', [numpy.stack([m, mi])[1]])
    add('cholesky', 'not_pd', [sing * -1])
    xs = special(shape=(3, 4))
    add('matmul', 'special', [xs, xs.T.copy()])
    add('batch_matmul', 'special', [xs.reshape(1, 3, 4), xs.reshape(1, 4, 3)])
    add(
        'tensordot',
        'special',
        [xs, xs],
        lambda ch, F, p, q: F.tensordot(p, q, axes=([1], [1])),
    )
    add('einsum', 'special', [xs, xs], lambda ch, F, p, q: F.einsum('ij,kj->ik', p, q))
    dense = a([[0.0, 1.0, 0.0], [nan, 0.0, inf]])
    add(
        'sparse_matmul',
        'special',
        [dense, xs[:3, :2].copy()],
        lambda ch, F, p, q: F.sparse_matmul(ch.utils.to_coo(p.array), q),
    )
    re, im = special(shape=(2, 6)), special(shape=(2, 6))[::-1].copy()
    for name in ('fft', 'ifft'):
        add(
            name,
            'special',
            [re, im],
            lambda ch, F, p, q, nm=name: getattr(F, nm)((p, q)),
        )


def _losses():
    x, t = special(), special()[::-1].copy()
    c = a([1, 0, 1, 1, 0, 0, 1, 0, 1, -1, 1, 0], i32)
    add('bernoulli_nll', 'special', [x, special()])
    add('gaussian_kl_divergence', 'special', [x, t])
    add('gaussian_nll', 'special', [x, t, special()])
    add(
        'huber_loss',
        'delta',
        [a([[0.0, 1.0, -1.0, 2.0, inf, nan]]), a([[0.0, 0.0, 0.0, 1.0, 0.0, 0.0]])],
        lambda ch, F, p, q: F.huber_loss(p, q, 1.0),
    )
    add(
        'hinge',
        'margin',
        [a([[1.0, -1.0, 0.0], [-1.0, 1.0, inf], [nan, 0.5, -0.5]]), a([0, 1, 2], i32)],
    )
    add(
        'hinge',
        'l2',
        [a([[1.0, -1.0, 0.0], [-1.0, 1.0, 2.0]]), a([0, 1], i32)],
        lambda ch, F, p, q: F.hinge(p, q, 'L2'),
    )
    add('sigmoid_cross_entropy', 'special', [x.reshape(3, 4), c.reshape(3, 4)])
    add(
        'sigmoid_cross_entropy',
        'no_normalize',
        [x.reshape(3, 4), c.reshape(3, 4)],
        lambda ch, F, p, q: F.sigmoid_cross_entropy(p, q, normalize=False, reduce='no'),
    )
    r = rows()
    tr = a([0, 1, 2, 3, -1, 1, 0, 0], i32)
    add('softmax_cross_entropy', 'rows', [r, tr])
    add(
        'softmax_cross_entropy',
        'rows_no_reduce',
        [r, tr],
        lambda ch, F, p, q: F.softmax_cross_entropy(p, q, reduce='no'),
    )
    add(
        'softmax_cross_entropy',
        'double_bp',
        [r, tr],
        lambda ch, F, p, q: F.softmax_cross_entropy(p, q, enable_double_backprop=True),
    )
    p0 = a([[0.0, 0.0], [1.0, 1.0], [0.0, 0.0], [inf, 0.0], [nan, 0.0]])
    p1 = a([[0.0, 0.0], [1.0, 1.0], [1.0, 0.0], [0.0, 0.0], [0.0, 0.0]])
    yy = a([1, 0, 0, 1, 0], i32)
    add('contrastive', 'zero_distance', [p0, p1, yy])
    add(
        'contrastive',
        'margin',
        [p0, p1, yy],
        lambda ch, F, p, q, s: F.contrastive(p, q, s, margin=1.0, reduce='no'),
    )
    add(
        'triplet',
        'margin',
        [p0, p1, a([[0.2, 0.0], [1.0, 1.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]])],
        lambda ch, F, p, q, s: F.triplet(p, q, s, margin=0.04, reduce='no'),
    )
    add('cross_covariance', 'special', [r, r[:, ::-1].copy()])
    add('decov', 'special', [r])
    add('decov', 'ties', [numpy.ones((3, 4), f32)])
    emb = a([[0.0, 0.0], [1.0, 0.0], [0.0, 0.0], [0.0, 1.0]] * 2, f32, (2, 2, 2, 2))
    lab = numpy.array([[[0, 1], [0, 1]], [[0, 0], [1, 1]]], i32)
    add(
        'discriminative_margin_based_clustering_loss',
        'ties',
        [emb, lab],
        lambda ch, F, e, l: F.discriminative_margin_based_clustering_loss(
            e, l, 0.5, 1.0, 2
        ),
    )
    cost = a([[0.0, inf], [-inf, 0.0]])
    seq = [a([[0.0, 1.0], [1.0, 1.0]]), a([[nan, 0.0], [1.0, 1.0]])]
    ys = [numpy.array([0, 1], i32), numpy.array([1, 1], i32)]
    add(
        'crf1d',
        'special',
        [cost, *seq, *ys],
        lambda ch, F, c, s0, s1, y0, y1: F.crf1d(c, [s0, s1], [y0, y1]),
    )
    add(
        'argmax_crf1d',
        'ties',
        [numpy.zeros((2, 2), f32), numpy.zeros((2, 2), f32), numpy.ones((2, 2), f32)],
        lambda ch, F, c, s0, s1: F.argmax_crf1d(c, [s0, s1]),
        grad=False,
    )
    ctc = [
        a([[0.0, -inf, 1.0], [inf, 0.0, 0.0]]),
        a([[0.0, 0.0, 0.0], [nan, 0.0, 0.0]]),
    ]
    add(
        'connectionist_temporal_classification',
        'special',
        [*ctc, numpy.array([[1], [2]], i32)],
        lambda ch, F, s0, s1, t: F.connectionist_temporal_classification(
            [s0, s1], t, 0
        ),
    )
    xb, wb = special(shape=(3, 4)), ramp((5, 4))
    tb = a([0, 1, 2], i32)
    samples = numpy.array([[1, 1], [3, 0], [4, 4]], i32)
    add('black_out', 'special', [xb, tb, wb, samples])
    add(
        'negative_sampling',
        'special',
        [xb, tb, wb],
        lambda ch, F, p, q, w: F.negative_sampling(
            p, q, w, lambda shape: numpy.full(shape, 1, i32), 2
        ),
    )


def _evaluation():
    r = rows()
    t = a([0, 1, 2, 3, 0, 1, 2, -1], i32)
    for name in (
        'accuracy',
        'precision',
        'recall',
        'f1_score',
        'classification_summary',
    ):
        add(name, 'ties', [r, t], grad=False)
    add(
        'accuracy',
        'ignore',
        [r, t],
        lambda ch, F, p, q: F.accuracy(p, q, ignore_label=-1),
        grad=False,
    )
    add(
        'binary_accuracy',
        'special',
        [special(), a([1, 0, 1, 1, 0, -1, 1, 0, 1, 0, 1, 0], i32)],
        grad=False,
    )
    add(
        'r2_score',
        'constant',
        [a([[1.0, 2.0], [1.0, nan]]), a([[1.0, 1.0], [1.0, 2.0]])],
        grad=False,
    )


def _normalization():
    x = a([[1.0, 2.0, 0.0], [1.0, 0.0, 0.0], [1.0, inf, 0.0], [1.0, nan, 0.0]])
    g, b = numpy.ones(3, f32), numpy.zeros(3, f32)
    add('batch_normalization', 'constant', [x[:2], g, b])
    add('batch_normalization', 'special', [x, g, b])
    add(
        'batch_renormalization',
        'constant',
        [x[:2], g, b],
        lambda ch, F, p, q, r: F.batch_renormalization(
            p,
            q,
            r,
            1.0,
            0.0,
            running_mean=numpy.zeros(3, f32),
            running_var=numpy.ones(3, f32),
        ),
    )
    mean, var = a([1.0, 0.0, 0.0]), a([0.0, 0.0, inf])
    add('fixed_batch_normalization', 'zero_var', [x, g, b, mean, var])
    add('fixed_batch_renormalization', 'zero_var', [x, g, b, mean, var])
    xg = numpy.ones((2, 4, 2), f32)
    xg[1, 2:] = [[inf, 0.0], [0.0, 0.0]]
    add(
        'group_normalization',
        'constant',
        [xg, numpy.ones(4, f32), numpy.zeros(4, f32)],
        lambda ch, F, p, q, r: F.group_normalization(p, 2, q, r),
    )
    xd = numpy.ones((4, 4), f32)
    xd[:, 0] = [1.0, 2.0, 3.0, 4.0]
    add(
        'decorrelated_batch_normalization',
        'constant',
        [xd],
        lambda ch, F, p: F.decorrelated_batch_normalization(p, groups=2),
    )
    proj = numpy.stack([numpy.eye(2, dtype=f32), a([[0.0, inf], [0.0, 0.0]])])
    add(
        'fixed_decorrelated_batch_normalization',
        'special',
        [special(shape=(3, 4)), a([[0.0, 1.0], [nan, 0.0]]), proj],
        lambda ch, F, p, m, w: F.fixed_decorrelated_batch_normalization(
            p, m, w, groups=2
        ),
    )


def _rnn():
    c, x = (
        special(shape=(3, 4))[:, :2].copy(),
        special(shape=(3, 4))[::-1].copy().reshape(3, 4),
    )
    x = numpy.concatenate([x, x], 1)
    add('lstm', 'special', [c, x])
    add('slstm', 'special', [c, c[::-1].copy(), x, x[::-1].copy()])
    add(
        'tree_lstm', 'special', [c, c[::-1].copy(), numpy.concatenate([x, x[:, :2]], 1)]
    )
    for name, nw, nh in (
        ('n_step_rnn', 2, 1),
        ('n_step_gru', 6, 1),
        ('n_step_lstm', 8, 2),
    ):
        for bi in ('', 'bi'):
            fn = name.replace('n_step_', f'n_step_{bi}')
            d = 2 if bi else 1
            hs = [numpy.zeros((d, 2, 2), f32)] * nh
            ws = [ramp((2, 2), scale=0.3) for _ in range(nw * d)]
            bs = [numpy.zeros(2, f32) for _ in range(nw * d)]
            seq = [a([[inf, 0.0], [nan, -0.0]]), a([[0.0, -inf], [1.0, 1.0]])]
            add(fn, 'special', [*hs, *ws, *bs, *seq], _n_step_call(fn, nh, nw, d))


def _n_step_call(fn, nh, nw, d):
    """A call of ``fn`` on flat inputs: hidden states, weights, biases, xs."""
    total = nw * d

    def call(ch, F, *v):
        ws = [list(v[nh + i * nw : nh + (i + 1) * nw]) for i in range(d)]
        bs = [
            list(v[nh + total + i * nw : nh + total + (i + 1) * nw]) for i in range(d)
        ]
        return getattr(F, fn)(1, 0.0, *v[:nh], ws, bs, list(v[nh + 2 * total :]))

    return call


def _noise():
    x = special(shape=(3, 4))
    add(
        'simplified_dropconnect',
        'eval',
        [x, ramp((2, 4)), a([0.0, nan])],
        lambda ch, F, p, w, b: F.simplified_dropconnect(p, w, b, train=False),
    )


for _section in (
    _unary,
    _binary,
    _reductions,
    _pooling,
    _connection,
    _array,
    _linalg,
    _losses,
    _evaluation,
    _normalization,
    _rnn,
    _noise,
):
    _section()
