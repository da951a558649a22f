"""BatchNormalization, Linear and the Parameter link as their constructors
set them up: arguments and defaults, dtypes, lazy shapes, the statistics
after training and test calls, serialized keys, text forms and the errors
of bad arguments."""

import numpy

from tools.surface_probes import _values

_try = _values.attempt


def _x(*shape, seed=0, dtype=numpy.float32):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(dtype)


def _keys(c, link):
    s = c.chainer.serializers.DictionarySerializer()
    link.serialize(s)
    return {k: getattr(v, 'shape', v) for k, v in s.target.items()}


def _bn_state(bn):
    return [
        None if bn.gamma is None else bn.gamma.array,
        None if bn.beta is None else bn.beta.array,
        bn.avg_mean,
        bn.avg_var,
        bn.N,
    ]


def batch_norm_constructor(c):
    L = c.L
    bn = L.BatchNormalization(3)
    out = [
        _bn_state(bn),
        [bn.decay, bn.eps, bn.axis, str(bn.gamma.dtype), str(bn.avg_mean.dtype)],
        sorted(n for n, _ in bn.namedparams()),
        _try(lambda: L.BatchNormalization()),
        _try(lambda: L.BatchNormalization(None, axis=None)),
    ]
    bn = L.BatchNormalization((2, 3), decay=0.5, eps=1e-3)
    out.append([_bn_state(bn), bn.decay, bn.eps])
    bn = L.BatchNormalization(3, axis=1)
    out.append([bn.axis, _bn_state(bn)])
    bn = L.BatchNormalization(3, axis=(0, 2))
    out.append(bn.axis)
    return out


def batch_norm_initial_values(c):
    L, I = c.L, c.I
    out = []
    for kw in (
        {'initial_gamma': 2.0, 'initial_beta': -1},
        {'initial_gamma': I.Constant(0.5), 'initial_beta': I.One()},
        {
            'initial_gamma': numpy.arange(3, dtype=numpy.float32),
            'initial_beta': numpy.ones(3, numpy.float64),
        },
        {'initial_avg_mean': 1.5, 'initial_avg_var': I.Constant(4.0)},
        {'initial_avg_mean': numpy.arange(3.0), 'initial_avg_var': 2},
        {'use_gamma': False, 'use_beta': False},
        {'use_gamma': False, 'initial_beta': 3},
    ):
        bn = _try(lambda kw=kw: _bn_state(L.BatchNormalization(3, **kw)))
        out.append(bn)
    return out


def batch_norm_dtypes(c):
    ch, L = c.chainer, c.L
    out = []
    for dtype in (numpy.float16, numpy.float64, None):
        bn = L.BatchNormalization(3, dtype=dtype)
        out.append([str(bn.gamma.dtype), str(bn.beta.dtype), str(bn.avg_mean.dtype)])
    for config in (numpy.float16, numpy.float64, ch.mixed16):
        with ch.using_config('dtype', config):
            bn = L.BatchNormalization(3)
            out.append([str(bn.gamma.dtype), str(bn.avg_var.dtype), str(bn.beta.dtype)])
    bn = L.BatchNormalization(3, dtype=numpy.float16)
    y = bn(_x(4, 3, dtype=numpy.float16))
    out.append([y.dtype.name, bn.avg_mean])
    with ch.using_config('dtype', ch.mixed16):
        bn = L.BatchNormalization(3)
        y = _try(lambda: bn(_x(4, 3, dtype=numpy.float16)))
    out.append([y, bn.avg_mean])
    bn = L.BatchNormalization(3)
    out.append(_try(lambda: bn(_x(4, 3, dtype=numpy.float64))))
    return out


def batch_norm_lazy(c):
    L = c.L
    out = []
    for axis, shape in ((0, (4, 3, 2)), ((0, 2), (4, 3, 2)), (1, (2, 3))):
        bn = L.BatchNormalization(axis=axis)
        before = [bn.avg_mean, bn.gamma.array, bn.beta.array, _keys(c, bn)]
        y = bn(_x(*shape))
        out.append([before, y.array, _bn_state(bn), _keys(c, bn)])
    bn = L.BatchNormalization(axis=0, initial_avg_mean=2.0, initial_gamma=3.0)
    bn(_x(5, 2))
    out.append(_bn_state(bn))
    return out


def batch_norm_statistics(c):
    ch, L = c.chainer, c.L
    bn = L.BatchNormalization(3, decay=0.7)
    xs = [_x(5, 3, seed=s) * (s + 1) for s in range(3)]
    for x in xs:
        bn(x)
    out = [_bn_state(bn)]
    with ch.using_config('train', False):
        out.append(bn(xs[0]).array)
    out.append(_bn_state(bn))
    bn2 = L.BatchNormalization(3)
    for x in xs:
        bn2(x, finetune=True)
    out.append(_bn_state(bn2))
    bn2.start_finetuning()
    out.append(bn2.N)
    bn2(xs[0], finetune=True)
    out.append(_bn_state(bn2))
    bn3 = L.BatchNormalization(3, decay=0.0)
    bn3(xs[1])
    out.append(_bn_state(bn3))
    with ch.using_config('train', False):
        bn4 = L.BatchNormalization(3)
        out.append([bn4(xs[2]).array, _bn_state(bn4)])
    return out


def batch_norm_images(c):
    L = c.L
    bn = L.BatchNormalization(2)
    x = _x(3, 2, 4, 4)
    y = bn(x)
    bn5 = L.BatchNormalization((2, 4))
    y5 = bn5(_x(3, 2, 4))
    return [y.array, _bn_state(bn), y5.array, _bn_state(bn5)]


def batch_norm_call_arguments(c):
    L = c.L
    bn = L.BatchNormalization(3)
    x = _x(4, 3)
    return [
        _try(lambda: bn(x, test=True)),
        _try(lambda: bn(x, finetune=False, other=1)),
        _try(lambda: bn(x, True)),
        _try(lambda: bn(_x(4, 5))),
        _try(lambda: bn(_x(1, 3)).array),
        _try(lambda: bn(_x(0, 3)).array),
        _bn_state(bn),
    ]


def batch_norm_text_and_keys(c):
    L = c.L
    out = []
    for bn in (
        L.BatchNormalization(3),
        L.BatchNormalization((3, 2), dtype=numpy.float64, eps=1e-3, decay=0.5),
        L.BatchRenormalization(3),
    ):
        out.append([str(bn), _keys(c, bn), list(bn.printable_specs)])
    bn = L.BatchNormalization(3, use_gamma=False, use_beta=False)
    out.append([_keys(c, bn), str(bn.avg_mean.dtype)])
    bn = L.BatchNormalization(axis=0)
    out.append(_keys(c, bn))
    return out


def batch_norm_text_without_scale_or_size(c):
    L = c.L
    bn = L.BatchNormalization(3, use_gamma=False, use_beta=False)
    lazy = L.BatchNormalization(axis=0)
    return [str(bn), _try(lambda: str(lazy))]


def batch_norm_copy_and_serialize(c):
    ch, L = c.chainer, c.L
    bn = L.BatchNormalization(3)
    bn(_x(4, 3))
    d = bn.copy('copy')
    s = bn.copy('share')
    i = bn.copy('init')
    out = [
        d.avg_mean is bn.avg_mean,
        s.avg_mean is bn.avg_mean,
        _bn_state(i),
        _bn_state(d),
    ]
    target = {}
    bn.serialize(ch.serializers.DictionarySerializer(target))
    fresh = L.BatchNormalization(3)
    fresh.serialize(ch.serializers.NpzDeserializer(target))
    out.append(_bn_state(fresh))
    lazy = L.BatchNormalization(axis=0)
    out.append(_try(lambda: lazy.serialize(ch.serializers.NpzDeserializer(target))))
    out.append(_bn_state(lazy))
    return out


def linear_constructor(c):
    L = c.L
    numpy.random.seed(30)
    a = L.Linear(3, 2)
    b = L.Linear(4)
    n = L.Linear(3, 2, nobias=True)
    return [
        [a.in_size, a.out_size, a.W.array, a.b.array],
        [b.in_size, b.out_size, b.W.array, b.b.array],
        [n.b, sorted(p for p, _ in n.namedparams())],
        [str(a), str(b), str(n), list(a.printable_specs)],
        _keys(c, a),
        _keys(c, b),
    ]


def linear_initializers(c):
    L, I = c.L, c.I
    out = []
    for kw in (
        {'initialW': 0.5, 'initial_bias': 2},
        {'initialW': I.Constant(-1), 'initial_bias': I.One()},
        {'initialW': numpy.arange(6.0).reshape(2, 3), 'initial_bias': numpy.ones(2)},
        {
            'initialW': numpy.ones((2, 3), numpy.float16),
            'initial_bias': numpy.zeros(2, numpy.float16),
        },
        {'initialW': numpy.ones((3, 2), numpy.float32)},
        {'initialW': numpy.ones((2, 3), numpy.int32)},
        {'initial_bias': numpy.ones(5, numpy.float32)},
        {'initialW': I.Normal(dtype=numpy.float64)},
        {'initialW': lambda a: a.fill(3)},
    ):
        numpy.random.seed(31)

        def make(kw=kw):
            link = L.Linear(3, 2, **kw)
            return [link.W.array, link.b.array]

        out.append(_try(make))
    return out


def linear_lazy_and_batch_axes(c):
    L = c.L
    numpy.random.seed(32)
    out = []
    link = L.Linear(None, 2)
    y = link(_x(3, 2, 4), n_batch_axes=2)
    out.append([y.array, link.W.shape, link.in_size])
    link = L.Linear(2)
    y = link(_x(3, 2, 4))
    out.append([y.array, link.W.shape])
    out.append(_try(lambda: link(_x(3, 5))))
    out.append(_try(lambda: link(_x(3, 2, 4), n_batch_axes=0)))
    out.append(_try(lambda: link(_x(3, 2, 4), n_batch_axes=3)))
    link = L.Linear(4, 2)
    out.append(_try(lambda: link(_x(3, 2, 2))))
    out.append(_try(lambda: link(_x(3, 2, 4), n_batch_axes=2).array))
    out.append(_try(lambda: link(_x(0, 4)).array))
    out.append(_try(lambda: link(_x(3, 4, dtype=numpy.float64))))
    out.append(_try(lambda: link(numpy.ones((3, 4), numpy.int32))))
    return out


def linear_dtypes(c):
    ch, L = c.chainer, c.L
    out = []
    for config in (numpy.float16, numpy.float64, ch.mixed16):
        numpy.random.seed(33)
        with ch.using_config('dtype', config):
            link = L.Linear(3, 2)
            lazy = L.Linear(2)
            called = _try(lambda lazy=lazy: lazy(_x(1, 3, dtype=numpy.float64)))
            out.append([link.W.array, link.b.array, called, lazy.W.array, lazy.b.array])
    return out


def linear_from_params(c):
    ch, L = c.chainer, c.L
    W = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    b = numpy.ones(2, numpy.float32)
    out = []
    link = L.Linear.from_params(W, b)
    out.append([link.in_size, link.out_size, link.W.array, link.b.array])
    out.append(link.W.array is W)
    link = L.Linear.from_params(ch.Variable(W), nobias=True)
    out.append([link.W.array, link.b])
    link = L.Linear.from_params(W)
    out.append(link.b.array)
    out.append(_try(lambda: L.Linear.from_params(W, numpy.ones(3, numpy.float32))))
    out.append(_try(lambda: L.Linear.from_params(W.ravel())))
    return out


def linear_bad_sizes(c):
    L = c.L
    return [
        _try(lambda: L.Linear(3, 0).W.array),
        _try(lambda: L.Linear(0, 2).W.array),
        _try(lambda: L.Linear(-1, 2)),
        _try(lambda: L.Linear(3, -2)),
        _try(lambda: L.Linear(2.5, 2)),
        _try(lambda: L.Linear(None)),
        _try(lambda: L.Linear(None, None)),
    ]


def parameter_link(c):
    L = c.L
    a = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    link = L.Parameter(a)
    y = link()
    out = [
        link.W.array is a,
        link.W.shape,
        str(link.W.dtype),
        [n for n, _ in link.namedparams()],
        y.array,
        y.creator is not None,
        y.requires_grad,
        _keys(c, link),
    ]
    y.grad = numpy.ones_like(a)
    y.backward()
    out.append(link.W.grad)
    out.append(_try(lambda: link(volatile='on').array))
    out.append(_try(lambda: L.Parameter(numpy.arange(3)).W.dtype.name))
    out.append(_try(lambda: L.Parameter(numpy.ones(2, numpy.float16))().array))
    out.append(_try(lambda: L.Parameter([1.0, 2.0])))
    return out


def batch_norm_odd_arguments(c):
    ch, L = c.chainer, c.L
    x = _x(4, 3)
    out = [
        _try(lambda: _bn_state(L.BatchNormalization(0))),
        _try(lambda: L.BatchNormalization(3, decay=1.5)(x).array),
        _try(lambda: L.BatchNormalization(3, eps=0)(x).array),
        _try(lambda: L.BatchNormalization(3, eps=-1.0)(x).array),
        _try(lambda: L.BatchNormalization(3, axis=(0, 0))(x).array),
        _try(lambda: L.BatchNormalization(3, axis=2)(x).array),
        _try(lambda: L.BatchNormalization(4, axis=0)(x).array),
        _try(lambda: L.BatchNormalization(3, dtype=numpy.int32)),
        _try(lambda: L.BatchNormalization(3.0)),
        _try(lambda: L.BatchNormalization([3])(x).array),
    ]
    bn = L.BatchNormalization(3)
    with ch.using_config('train', False):
        out.append(_try(lambda: bn(_x(4, 3, dtype=numpy.float16)).array))
    out.append(_try(lambda: bn(_x(4, 3, 2)).array))
    return out


def convolution_text(c):
    L = c.L
    out = []
    for make in (
        lambda: L.Convolution2D(3, 4, 3),
        lambda: L.Convolution2D(None, 4, 3, stride=2, pad=1, nobias=True),
        lambda: L.Convolution2D(4, 2, ksize=(2, 3), dilate=2, groups=2),
        lambda: L.Convolution2D(4, 3),
    ):
        link = make()
        out.append([str(link), _try(lambda link=link: list(link.printable_specs))])
    m = c.chainer.Sequential(L.Convolution2D(3, 4, 3), L.BatchNormalization(4))
    out.append(str(m))
    ch = c.chainer.Chain()
    with ch.init_scope():
        ch.conv = L.Convolution2D(1, 1, 1)
        ch.fc = L.Linear(2, 3)
    out.append(str(ch))
    return out


def linear_copies_and_sizes(c):
    import copy
    import pickle

    L = c.L
    numpy.random.seed(34)
    lazy = L.Linear(3)
    out = [
        _try(lambda: pickle.loads(pickle.dumps(lazy)).W.array),
        _try(lambda: copy.deepcopy(lazy).W.array),
    ]
    lazy(numpy.zeros((0, 2), numpy.float32))
    out.append([lazy.W.shape, lazy.in_size])
    again = pickle.loads(pickle.dumps(lazy))
    out.append([again.W.array, again.b.array, again.in_size, again.out_size])
    link = L.Linear(numpy.int64(2), numpy.int32(3))
    out.append([link.W.shape, type(link.in_size).__name__, str(link)])
    out.append(_try(lambda: L.Linear(2, 3)(numpy.ones(2, numpy.float32)).array))
    out.append(_try(lambda: L.Linear(2, 3)(numpy.ones((), numpy.float32))))
    return out


def lazy_links_loaded_from_npz(c):
    import os
    import tempfile

    ch, L = c.chainer, c.L
    numpy.random.seed(36)
    out = []
    path = os.path.join(tempfile.mkdtemp(), 'm.npz')
    for make, lazy, x in (
        (lambda: L.Linear(3, 2), lambda: L.Linear(2), _x(1, 3)),
        (
            lambda: L.BatchNormalization(3),
            lambda: L.BatchNormalization(axis=0),
            _x(4, 3),
        ),
        (lambda: L.LSTM(3, 2), lambda: L.LSTM(2), _x(1, 3)),
        (
            lambda: L.Convolution2D(2, 3, 1),
            lambda: L.Convolution2D(3, 1),
            _x(1, 2, 2, 2),
        ),
    ):
        src = make()
        src(x)
        ch.serializers.save_npz(path, src)
        dst = lazy()
        loaded = _try(lambda dst=dst: ch.serializers.load_npz(path, dst))
        out.append(
            [
                loaded,
                {n: p.array for n, p in dst.namedparams()},
                [
                    getattr(dst, k, None)
                    for k in ('avg_mean', 'avg_var', 'N', 'in_size')
                ],
                _try(lambda dst=dst, x=x: dst(x)),
            ]
        )
    return out


def batch_norm_keeps_the_given_initializer(c):
    I = c.I
    gamma = I.Constant(2.0, dtype=numpy.float64)
    bn = c.L.BatchNormalization(3, initial_gamma=gamma)
    return [str(bn.gamma.dtype), bn.gamma.array, numpy.dtype(gamma.dtype).name]


def batch_norm_initializer_dtypes(c):
    L, I = c.L, c.I
    out = []
    for kw in (
        {'initial_avg_mean': I.Constant(1.0, dtype=numpy.float64)},
        {'initial_avg_var': I.One(dtype=numpy.float16)},
        {'initial_beta': I.Zero(dtype=numpy.float16), 'dtype': numpy.float64},
    ):
        out.append(_try(lambda kw=kw: _bn_state(L.BatchNormalization(3, **kw))))
        lazy = L.BatchNormalization(axis=0, **kw)
        out.append(_try(lambda lazy=lazy: [lazy(_x(2, 3)).dtype.name, _bn_state(lazy)]))
    return out


def batch_norm_finetune_modes(c):
    ch, L, F = c.chainer, c.L, c.F
    bn = L.BatchNormalization(3)
    with ch.using_config('train', False):
        bn(_x(4, 3), finetune=True)
    out = [_bn_state(bn)]
    x = ch.Variable(_x(4, 3, seed=1))
    y = F.forget(lambda v: bn(v, finetune=True), x)
    F.sum(y * y).backward()
    out.append([_bn_state(bn), x.grad, bn.gamma.grad])
    bn.N = 5
    bn(_x(4, 3, seed=2), finetune=True)
    out.append(_bn_state(bn))
    return out


PROBES = _values.probes(globals(), __name__)
