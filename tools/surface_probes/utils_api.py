"""chainer.utils as other code uses it: array helpers, the size formulas of
convolutions, WalkerAlias draws under a seed, keyword parsing, the
experimental warning and type_check's expressions."""

import importlib
import warnings

import numpy

from tools.surface_probes import _values

attempt = _values.attempt


def _module(c, name):
    return importlib.import_module(c.chainer.__name__ + '.' + name)


def array_helpers(c):
    u = c.chainer.utils
    return [
        u.force_array(numpy.float32(2)),
        type(u.force_array(numpy.float32(2))).__name__,
        str(u.force_array(numpy.float64(2), numpy.float32).dtype),
        u.force_array(numpy.ones(2)).shape,
        attempt(lambda: u.force_type(numpy.dtype(numpy.float32), 1.5)),
        attempt(
            lambda: (
                type(
                    u.force_type(numpy.dtype(numpy.float32), numpy.float64(1.5))
                ).__name__
            )
        ),
        attempt(
            lambda: str(u.force_type(numpy.dtype(numpy.float32), numpy.ones(2)).dtype)
        ),
        u.size_of_shape((2, 3, 4)),
        u.size_of_shape(()),
        attempt(lambda: u.sum_to(numpy.ones((2, 3)), (1, 3))),
        attempt(lambda: u.sum_to(numpy.ones((2, 3)), (3,))),
    ]


def convolution_sizes(c):
    conv = _module(c, 'utils.conv')
    out = []
    for size, k, s, p in ((7, 3, 2, 1), (8, 3, 3, 0), (5, 5, 1, 2), (4, 3, 2, 0)):
        for cover_all in (False, True):
            out.append(conv.get_conv_outsize(size, k, s, p, cover_all=cover_all))
            out.append(conv.get_deconv_outsize(size, k, s, p, cover_all=cover_all))
        out.append(conv.get_conv_outsize(size, k, s, p, d=2))
    out.append(attempt(lambda: conv.get_conv_outsize(2, 5, 1, 0)))
    return out


def walker_alias(c):
    u = c.chainer.utils
    sampler = u.WalkerAlias([0.1, 0.5, 0.2, 0.2])
    numpy.random.seed(3)
    drawn = sampler.sample((3, 4))
    return [
        drawn,
        str(drawn.dtype),
        sampler.threshold,
        sampler.values,
        sampler.use_gpu,
        attempt(lambda: u.WalkerAlias([0.0, 0.0]).sample(2)),
    ]


def keyword_parsing(c):
    arg = _module(c, 'utils.argument')

    def f(**kwargs):
        return arg.parse_kwargs(kwargs, ('a', 1), ('b', 2), old='old is gone')

    return [
        f(),
        f(b=3),
        attempt(lambda: f(old=1)),
        attempt(lambda: f(zzz=1)),
        attempt(lambda: arg.assert_kwargs_empty({'x': 1})),
        attempt(lambda: arg.check_unexpected_kwargs({'x': 1}, x='no x')),
    ]


def experimental_warning(c):
    u = c.chainer.utils
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter('always')
        u.experimental('my_api')
    return [(w.category.__name__, 'my_api' in str(w.message)) for w in seen]


def type_check_expressions(c):
    tc = c.chainer.utils.type_check
    V = c.chainer.Variable
    x = V(numpy.ones((2, 3), numpy.float32))
    out = []

    class Check(c.chainer.FunctionNode):
        def check_type_forward(self, in_types):
            tc.expect(in_types.size() == 1, in_types[0].dtype == numpy.float64)

        def forward(self, inputs):
            return inputs

    try:
        Check().apply((x,))
        out.append('ok')
    except tc.InvalidType as e:
        out.append(['InvalidType', e.expect, e.actual])
    t = tc.get_types((numpy.ones((2, 3), numpy.float32),), 'in_types', False)
    out.append(str(t[0].shape))
    out.append(str(t[0].ndim == 2))
    out.append(attempt(lambda: tc.expect(t[0].ndim == 3)))
    out.append(attempt(lambda: tc.expect(t[0].shape[1] == 3)))
    out.append(str(tc.eval(t[0].shape[0] * 2)))
    return out


PROBES = _values.probes(globals(), __name__)
