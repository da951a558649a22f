"""Initializers beyond their default draws (``initial.py``): constructor
arguments and attributes, ``rng=``, ``dtype=`` and its check, shapes they
refuse (fans of a vector, Identity of a non-square matrix, Orthogonal's
modes), float16 and 0-size arrays, and the module's helpers
``generate_array``, ``_get_initializer`` and ``get_fans``."""

import numpy

from tools.surface_probes import _values

_try = _values.attempt

_RANDOM = (
    'Normal',
    'LeCunNormal',
    'GlorotNormal',
    'HeNormal',
    'Uniform',
    'LeCunUniform',
    'GlorotUniform',
    'HeUniform',
    'Orthogonal',
)


def _fill(init, shape, dtype=numpy.float32):
    a = numpy.full(shape, 7, dtype)
    init(a)
    return a


def attributes(c):
    I = c.I
    out = {}
    for name in _RANDOM:
        init = getattr(I, name)()
        out[name] = [
            init.scale,
            init.dtype,
            init.rng,
            getattr(init, 'fan_option', None),
        ]
        given = getattr(I, name)(scale=0.5, dtype=numpy.float64)
        out[name].append([given.scale, numpy.dtype(given.dtype).name])
    out['Orthogonal'].append(I.Orthogonal().mode)
    for name in ('Zero', 'One', 'NaN'):
        init = getattr(I, name)()
        out[name] = [repr(init.fill_value), init.dtype]
    k = I.Constant(2.5, dtype=numpy.float16)
    out['Constant'] = [k.fill_value, numpy.dtype(k.dtype).name]
    ident = I.Identity()
    out['Identity'] = [ident.scale, ident.dtype, I.Identity(scale=3).scale]
    out['classes'] = [
        isinstance(I.Normal(), c.chainer.Initializer),
        isinstance(I.Orthogonal(), c.chainer.Initializer),
    ]
    return out


def rng_argument(c):
    I = c.I
    out = {}
    for name in _RANDOM:
        for dtype in (numpy.float32, numpy.float64, numpy.float16):
            init = getattr(I, name)(rng=numpy.random.RandomState(5))
            out['%s %s' % (name, dtype.__name__)] = _fill(init, (3, 4), dtype)
        out[name + ' bad keyword'] = _try(lambda name=name: getattr(I, name)(seed=1))
    return out


def scales_and_fans(c):
    I = c.I
    out = {}
    for name in _RANDOM:
        for shape in ((5, 3), (2, 3, 2, 2), (4, 4, 3)):
            numpy.random.seed(6)
            a = _fill(getattr(I, name)(scale=2.0), shape, numpy.float64)
            out['%s %s' % (name, shape)] = [float(a.std()), float(abs(a).max())]
    for option in ('fan_in', 'fan_out'):
        numpy.random.seed(7)
        out['HeNormal ' + option] = _fill(I.HeNormal(fan_option=option), (2, 8))
    out['HeNormal bad fan'] = _try(lambda: _fill(I.HeNormal(fan_option='avg'), (2, 2)))
    return out


def vectors_and_scalars(c):
    I = c.I
    out = {}
    for name in _RANDOM:
        for shape in ((), (4,), (0, 3), (3, 0)):
            numpy.random.seed(8)
            out['%s %s' % (name, shape)] = _try(
                lambda name=name, shape=shape: _fill(getattr(I, name)(), shape)
            )
    return out


def dtype_checks(c):
    I = c.I
    out = {}
    for name in _RANDOM + ('Zero', 'One', 'NaN', 'Identity'):
        init = getattr(I, name)(dtype=numpy.float64)
        numpy.random.seed(9)
        out[name + ' agrees'] = _try(
            lambda init=init: _fill(init, (3, 3), numpy.float64)
        )
        out[name + ' differs'] = _try(
            lambda init=init: _fill(init, (3, 3), numpy.float32)
        )
    out['Constant differs'] = _try(
        lambda: _fill(I.Constant(1, dtype=numpy.float16), (2, 2), numpy.float32)
    )
    return out


def float16_and_integers(c):
    I = c.I
    out = {}
    for name in _RANDOM + ('Zero', 'One', 'NaN'):
        numpy.random.seed(10)
        out[name + ' f16'] = _try(
            lambda name=name: _fill(getattr(I, name)(), (4, 4), numpy.float16)
        )
        numpy.random.seed(10)
        out[name + ' int'] = _try(
            lambda name=name: _fill(getattr(I, name)(), (4, 4), numpy.int32)
        )
    return out


def constants(c):
    I = c.I
    out = []
    for value in (
        3,
        -1.5,
        numpy.float16(2),
        True,
        numpy.arange(3.0),
        numpy.ones((2, 1)),
    ):
        out.append(_try(lambda value=value: _fill(I.Constant(value), (2, 3))))
    out.append(_try(lambda: I.Constant([1, 2, 3])))
    out.append(_try(lambda: I.Constant(None)))
    out.append(_try(lambda: I.Constant('a')))
    out.append(_try(lambda: _fill(I.Constant(numpy.arange(4.0)), (2, 3))))
    out.append(
        _try(lambda: _fill(I.Constant(numpy.arange(3, dtype=numpy.int64)), (2, 3)))
    )
    out.append(_try(lambda: _fill(I.Constant(2.5), (2, 2), numpy.int32)))
    out.append(_try(lambda: _fill(I.Constant(2.5), ())))
    return out


def identity(c):
    I = c.I
    out = []
    for shape in ((3, 3), (2, 3), (3,), (2, 2, 2), (0, 0), ()):
        out.append(_try(lambda shape=shape: _fill(I.Identity(scale=2.0), shape)))
    out.append(_try(lambda: _fill(I.Identity(), (3, 3), numpy.float16)))
    out.append(_try(lambda: _fill(I.Identity(), (2, 2), numpy.int64)))
    return out


def orthogonal(c):
    I = c.I
    out = {}
    for mode in ('auto', 'projection', 'embedding', 'basis'):
        for shape in ((3, 3), (2, 5), (5, 2), (2, 2, 3), ()):
            numpy.random.seed(11)

            def fill(mode=mode, shape=shape):
                a = _fill(I.Orthogonal(scale=1.0, mode=mode), shape, numpy.float64)
                if a.ndim < 2:
                    return a
                m = a.reshape(len(a), -1)
                gram = m @ m.T if m.shape[0] <= m.shape[1] else m.T @ m
                return [a, numpy.round(gram, 6)]

            out['%s %s' % (mode, shape)] = _try(fill)
    out['bad mode'] = _try(lambda: I.Orthogonal(mode='other'))
    out['empty'] = _try(lambda: _fill(I.Orthogonal(), (0, 3)))
    numpy.random.seed(12)
    out['scale'] = _fill(I.Orthogonal(scale=2.0), (4, 4))
    out['rng'] = _fill(I.Orthogonal(rng=numpy.random.RandomState(3)), (3, 2))
    out['rng scalar'] = _fill(I.Orthogonal(rng=numpy.random.RandomState(3)), ())
    return out


def sampling_filters(c):
    I = c.I
    out = []
    for cls in (I.UpsamplingDeconvFilter, I.DownsamplingConvFilter):
        for shape in ((2, 2, 4, 4), (3, 1, 3, 3), (2, 2, 3), (1, 1, 2, 2, 2)):
            out.append(_try(lambda cls=cls, shape=shape: _fill(cls(), shape)))
        out.append(_try(lambda cls=cls: _fill(cls(), (2, 3, 3, 3))))
        out.append(_try(lambda cls=cls: _fill(cls(), (2, 2, 3, 4))))
        out.append(_try(lambda cls=cls: cls(interpolation='nearest')))
        out.append(_try(lambda cls=cls: _fill(cls(dtype=numpy.float64), (1, 1, 2, 2))))
    return out


def generate_array(c):
    ch, I = c.chainer, c.I
    gen = I.generate_array
    out = []
    numpy.random.seed(13)
    out.append(gen(I.Normal(), (2, 3), numpy))
    out.append(gen(I.One(), (2,), numpy, dtype=numpy.float64))
    out.append(gen(I.One(dtype=numpy.float16), (2,), numpy))
    out.append(
        _try(lambda: gen(I.One(dtype=numpy.float16), (2,), numpy, dtype=numpy.float32))
    )
    out.append(gen(I.One(dtype=numpy.float16), (2,), numpy, dtype='float16'))
    out.append(gen(I.Zero(), 3, numpy))
    out.append(gen(I.Zero(), (), numpy))
    out.append(gen(lambda a: a.fill(4), (2, 2), numpy))
    out.append(gen(I.One(), (2,), numpy, device='@numpy'))
    out.append(gen(I.One(), (2,), numpy, device=ch.get_device('@numpy')))
    out.append(_try(lambda: gen(I.One(), (2,), numpy, device='@cupy:0')))
    with ch.using_config('dtype', numpy.float16):
        out.append(gen(I.One(), (2,), numpy))
    with ch.using_config('dtype', ch.mixed16):
        out.append(gen(I.One(), (2,), numpy))
    out.append(_try(lambda: gen(I.One(), (2,), numpy, dtype=numpy.int32)))
    return out


def get_initializer(c):
    ch, I = c.chainer, c.I
    get = I._get_initializer
    out = []
    for value in (
        None,
        2,
        0.5,
        numpy.float32(3),
        numpy.arange(3.0),
        I.HeNormal(scale=2.0),
        lambda a: a.fill(1),
        True,
        'text',
        [1, 2],
        ch.Variable(numpy.ones(2, numpy.float32)),
    ):

        def describe(value=value):
            init = get(value)
            return [type(init).__name__, getattr(init, 'fill_value', None)]

        out.append(_try(describe))
    out.append(get(I.One()) is get(I.One()))
    one = I.One()
    out.append(get(one) is one)
    check = I._check_is_initializer_like
    for value in (None, 1, numpy.ones(2), I.One(), len, 'a', [1]):
        out.append(_try(lambda value=value: check(value)))
    return out


def get_fans(c):
    import importlib

    module = importlib.import_module(c.chainer.__name__ + '.initializer')
    out = []
    for shape in ((3, 4), (3, 4, 5), (2, 3, 2, 2), (4,), (), [3, 4], (0, 3)):
        out.append(_try(lambda shape=shape: module.get_fans(shape)))
    base = c.chainer.Initializer()
    out.append([base.dtype, c.chainer.Initializer(numpy.float16).dtype])
    out.append(_try(lambda: base(numpy.empty(2))))
    return out


def link_initializers_by_dtype(c):
    ch, L, I = c.chainer, c.L, c.I
    out = []
    for dtype in ('float16', 'float64'):
        with ch.using_config('dtype', dtype):
            numpy.random.seed(14)
            out.append(L.Linear(3, 2, initialW=I.GlorotUniform()).W.array)
            out.append(
                _try(
                    lambda: L.Linear(3, 2, initialW=I.One(dtype=numpy.float32)).W.array
                )
            )
    out.append(_try(lambda: ch.Parameter(I.One(dtype=numpy.float64), (2,)).array))
    p = ch.Parameter(I.Constant(numpy.arange(2.0)))
    out.append([p.array, str(p.dtype)])
    p.initialize((2,))
    out.append(p.array)
    return out


class _RecordingRng:
    """A random state that records how an initializer calls it."""

    def __init__(self):
        self.calls = []
        self.rs = numpy.random.RandomState(4)

    def __getattr__(self, name):
        method = getattr(self.rs, name)

        def call(*args, **kwargs):
            self.calls.append(
                [name, [_values.summary(a) for a in args], _values.summary(kwargs)]
            )
            return method(*args, **kwargs)

        return call


def rng_calls(c):
    I = c.I
    out = {}
    for name in _RANDOM:
        for dtype in (numpy.float32, numpy.float16):
            rng = _RecordingRng()
            init = getattr(I, name)(scale=2.0, rng=rng)
            a = _try(lambda init=init, dtype=dtype: _fill(init, (3, 2), dtype))
            out['%s %s' % (name, dtype.__name__)] = [rng.calls, a]
    rng = _RecordingRng()
    out['Orthogonal scalar'] = [_fill(I.Orthogonal(rng=rng), ()), rng.calls]
    rng = _RecordingRng()
    out['HeNormal fan_out'] = [
        _fill(I.HeNormal(fan_option='fan_out', rng=rng), (2, 6)),
        rng.calls,
    ]
    return out


PROBES = _values.probes(globals(), __name__)
