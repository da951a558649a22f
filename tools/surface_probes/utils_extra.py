"""chainer.utils beyond utils_api.py: type_check's expressions (their text
and values), InvalidType, light mode, argument names and broadcasting
checks; meta's final methods, nondeterministic and experimental warnings,
the deprecated array helpers, cached_property, im2col/col2im in 2 and N
dimensions, the float16 helper, sparse COO matrices, WalkerAlias draws,
oversample, tempdir and print_runtime_info's lines."""

import contextlib
import importlib
import io
import os
import pickle
import warnings

import numpy

from tools.surface_probes import _values

attempt = _values.attempt


def _module(c, name):
    return importlib.import_module(c.chainer.__name__ + '.' + name)


def _types(c, *arrays, name='in_types'):
    tc = c.chainer.utils.type_check
    return tc.get_types(tuple(arrays), name, False)


def _caught(fn):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter('always')
        result = attempt(fn)
    return [result, [(w.category.__name__, str(w.message)) for w in seen]]


def type_check_expression_text(c):
    tc = c.chainer.utils.type_check
    t = _types(c, numpy.ones((2, 3), numpy.float32), numpy.ones(4, numpy.int32))
    x, y = t
    a = tc.Variable(3, 'a')
    b = tc.Variable(4, 'b')
    exprs = [
        x.shape[0] + 1,
        -x.ndim,
        (a + b) * 2,
        a + b * 2,
        a - (b - 1),
        (a - b) - 1,
        a / b // 2,
        a**b**2,
        (a**b) ** 2,
        a % b,
        a << 1 | b >> 1,
        a & b ^ a,
        ~a,
        +a,
        -(a + b),
        x.shape[1:],
        x.shape[::2],
        x.shape[...],
        x.dtype.kind,
        x.shape[0] == y.shape[0],
        x.ndim != 2,
        x.dtype <= y.dtype,
        t.size(),
        tc.prod(x.shape),
        tc.Constant((1,)),
        tc.Constant(()),
        tc.Constant([1, 'a']),
        tc.Constant(3)(a, b),
        getattr(a, 'real'),
        1 + a,
        2 - a,
        3 * a,
        10 / a,
        10 // a,
        10 % a,
    ]
    return [str(e) for e in exprs]


def type_check_expression_values(c):
    tc = c.chainer.utils.type_check
    t = _types(c, numpy.ones((2, 3), numpy.float32), numpy.ones(4, numpy.int32))
    x, y = t
    a = tc.Variable(7, 'a')
    b = tc.Variable(3, 'b')
    exprs = [
        x.shape[0] + 1,
        x.shape[1:],
        x.size,
        x.ndim * 2,
        (a + b) * 2,
        a / b,
        a // b,
        a % b,
        a << 1,
        a >> 1,
        a & b,
        a ^ b,
        a | b,
        -a,
        ~a,
        t.size(),
        tc.prod(x.shape),
        2 - a,
        x.dtype.kind,
        x.dtype == numpy.float32,
    ]
    out = [str(tc.eval(e)) for e in exprs]
    out.append(attempt(lambda: bool(a == b)))
    out.append(attempt(lambda: tc.Expr(0).eval()))
    return out


def type_check_power(c):
    tc = c.chainer.utils.type_check
    a = tc.Variable(7, 'a')
    return [str(a**3), attempt(lambda: tc.eval(a**3)), attempt(lambda: tc.eval(2**a))]


def type_check_expect_messages(c):
    tc = c.chainer.utils.type_check
    x, y = _types(c, numpy.ones((2, 3), numpy.float32), numpy.ones(4, numpy.int32))
    out = []
    for check in (
        x.shape[0] == y.shape[0],
        x.ndim > 2,
        x.dtype == numpy.int32,
        x.dtype.kind == 'i',
        x.shape[1:] == (4,),
        y.shape != (4,),
        x.ndim >= 3,
        x.ndim < 1,
        x.ndim <= 1,
    ):
        try:
            tc.expect(check)
            out.append('ok')
        except tc.InvalidType as e:
            out.append([e.expect, e.actual, str(e)])
    out.append(attempt(lambda: tc.expect(x.ndim == 2, x.ndim == 3, x.ndim == 4)))
    out.append(attempt(lambda: tc.expect()))
    return out


def type_check_expect_of_a_bool(c):
    tc = c.chainer.utils.type_check
    return [attempt(lambda: tc.expect(True)), attempt(lambda: tc.expect(1 == 1))]


def invalid_type_object(c):
    tc = c.chainer.utils.type_check
    e = tc.InvalidType('x == 1', 'x != 1')
    f = tc.InvalidType('a', 'b', msg='custom')
    back = pickle.loads(pickle.dumps(e))
    back_f = pickle.loads(pickle.dumps(f))
    return [
        str(e),
        e.args,
        [e.expect, e.actual],
        str(f),
        [f.expect, f.actual],
        [type(back).__name__, str(back), back.expect, back.actual],
        [str(back_f), back_f.expect],
        issubclass(tc.InvalidType, Exception),
        issubclass(tc.InvalidType, TypeError),
    ]


def invalid_type_in_a_function(c):
    ch = c.chainer
    tc = ch.utils.type_check

    class Needs2D(ch.FunctionNode):
        def check_type_forward(self, in_types):
            tc._argname(in_types, ('x',))
            tc.expect(in_types[0].ndim == 2, in_types[0].dtype.kind == 'f')

        def forward(self, inputs):
            return inputs

    out = []
    for x in (numpy.ones(3, numpy.float32), numpy.ones((2, 2), numpy.int32)):
        try:
            Needs2D().apply((x,))
            out.append('ok')
        except tc.InvalidType as e:
            out.append([e.expect, e.actual, str(e).strip().splitlines()])
    try:
        Needs2D().apply((numpy.ones(3, 'f'), numpy.ones(3, 'f')))
    except tc.InvalidType as e:
        out.append([e.expect, e.actual, str(e).strip().splitlines()])
    return out


def light_mode(c):
    tc = c.chainer.utils.type_check
    out = [tc.in_light_mode()]
    with tc.light_mode:
        out.append(tc.in_light_mode())
        out.append(attempt(lambda: tc.expect(True, 1 == 1)))
        try:
            tc.expect(True, False)
        except tc.InvalidType as e:
            out.append(['InvalidType', e.expect, e.actual, str(e)])
        out.append(tc.eval(5))
        out.append(tc.make_variable(3, 'n'))
        out.append(tc.prod((2, 3, 4)))
        types = tc.get_light_types((numpy.ones((2, 3)),))
        out.append([type(types).__name__, types.size(), types[0].shape])
        shaped = tc.get_light_types((numpy.ones((2, 3)),), shapes=((6,),))
        out.append(
            [shaped[0].shape, shaped[0].ndim, shaped[0].size, str(shaped[0].dtype)]
        )
    out.append(tc.in_light_mode())
    v = tc.make_variable(3, 'n')
    out.append([type(v).__name__, str(v), tc.eval(v)])
    out.append(str(tc.prod((2, 3))))
    return out


def get_types_forms(c):
    tc = c.chainer.utils.type_check
    t = tc.get_types((numpy.ones((2, 3), 'f'), None), 'args', True, shapes=((2, 3), ()))
    u = tc.get_types((numpy.ones((2, 3), 'f'),), 'xs', False, shapes=((3, 2),))
    info = tc.TypeInfo((2, 5), numpy.float16)
    return [
        t.name,
        [str(v) for v in t],
        [tc.eval(v.shape) for v in t],
        str(tc.eval(t[1].dtype)),
        tc.eval(t[1].ndim),
        [str(u[0]), tc.eval(u[0].shape), tc.eval(u[0].size)],
        [info.shape, info.ndim, info.size, str(info.dtype)],
    ]


def get_types_refusals(c):
    tc = c.chainer.utils.type_check
    return [
        attempt(lambda: tc.get_types([numpy.ones(2)], 'x', False)),
        attempt(lambda: tc.get_types((None,), 'x', False)),
        attempt(lambda: tc.get_types((None,), 'x', True)),
    ]


def argument_names(c):
    tc = c.chainer.utils.type_check
    t = _types(c, numpy.ones(2, 'f'), numpy.ones(3, 'f'))
    out = []
    try:
        tc._argname(t, ('x',))
    except tc.InvalidType as e:
        out.append([e.expect, e.actual, str(e)])
    tc._argname(t, ('x', 'w'))
    out.append([str(v) for v in t])
    try:
        tc.expect(t[0].shape == t[1].shape)
    except tc.InvalidType as e:
        out.append([e.expect, e.actual])
    return out


def broadcast_shapes(c):
    tc = c.chainer.utils.type_check
    x, y, z = _types(
        c, numpy.ones((2, 1, 3)), numpy.ones((4, 1)), numpy.ones((5, 3)), name='in'
    )
    out = [attempt(lambda: tc.expect_broadcast_shapes(x.shape, y.shape))]
    try:
        tc.expect_broadcast_shapes(x.shape, z.shape, y.shape)
    except tc.InvalidType as e:
        out.append([e.expect, e.actual, str(e)])
    with tc.light_mode:
        out.append(attempt(lambda: tc.expect_broadcast_shapes((2, 3), (3,))))
        out.append(attempt(lambda: tc.expect_broadcast_shapes((2, 3), (2,))))
    return out


def same_types_and_check_context(c):
    tc = c.chainer.utils.type_check
    a = numpy.ones(2)
    out = [
        tc.same_types(a, a),
        tc.same_types(a, [1.0]),
        tc.same_types(),
        tc.same_types(numpy.float32(1)),
    ]

    class Fake(object):
        label = 'FakeFunc'

    with tc.get_function_check_context(Fake()):
        out.append(str(tc.InvalidType('e', 'a')).strip().splitlines())
    out.append(str(tc.InvalidType('e', 'a')))
    return out


def meta_final(c):
    u = c.chainer.utils
    meta = _module(c, 'utils.meta')

    class Base(u.enable_final()):
        @u.final
        def fixed(self):
            return 1

        @u.final(action=UserWarning)
        def warned(self):
            return 2

        def free(self):
            return 3

    def override_fixed():
        class Sub(Base):
            def fixed(self):
                return 0

    def override_warned():
        class Sub(Base):
            def warned(self):
                return 0

        return Sub().warned()

    class Free(Base):
        def free(self):
            return 30

    class Other(object):
        pass

    class WithBase(u.enable_final(base=Other)):
        pass

    return [
        attempt(override_fixed),
        _caught(override_warned),
        Free().free(),
        Base().fixed(),
        issubclass(WithBase, Other),
        meta.final is u.final,
    ]


def nondeterministic_warning(c):
    ch = c.chainer
    u = ch.utils
    out = [_caught(lambda: u.nondeterministic('F.something'))]
    with ch.using_config('warn_nondeterministic', True):
        out.append(_caught(lambda: u.nondeterministic('F.something')))
    return out


def experimental_warning_text(c):
    ch = c.chainer
    out = [_caught(lambda: ch.utils.experimental('chainer.foo.Bar'))]
    old = ch.disable_experimental_feature_warning
    ch.disable_experimental_feature_warning = True
    try:
        out.append(_caught(lambda: ch.utils.experimental('chainer.foo.Bar')))
    finally:
        ch.disable_experimental_feature_warning = old
    return out


def deprecated_array_helpers(c):
    arr = _module(c, 'utils.array')
    x = numpy.arange(6.0).reshape(2, 3)
    v = numpy.arange(3.0)
    return [
        _caught(lambda: arr.as_vec(x)),
        _caught(lambda: arr.as_vec(v) is v),
        _caught(lambda: arr.as_mat(numpy.ones((2, 3, 4)))),
        _caught(lambda: arr.as_mat(x) is x),
        _caught(lambda: str(arr.empty_like(x).dtype)),
    ]


def sum_to_and_sizes(c):
    u = c.chainer.utils
    x = numpy.arange(24.0).reshape(2, 3, 4)
    return [
        u.sum_to(x, (3, 4)),
        u.sum_to(x, (1, 4)),
        u.sum_to(x, (2, 1, 1)),
        u.sum_to(x, (4,)),
        u.sum_to(x, ()),
        u.sum_to(x, (2, 3, 4)) is x,
        attempt(lambda: u.sum_to(c.chainer.Variable(x), (4,))),
        u.size_of_shape((numpy.int64(2), 3)),
        type(u.size_of_shape((numpy.int64(2), 3))).__name__,
        u.size_of_shape((0, 5)),
        attempt(lambda: u.size_of_shape(None)),
    ]


def force_helpers(c):
    u = c.chainer.utils
    x = numpy.arange(3, dtype=numpy.float64)
    return [
        u.force_array(3),
        str(u.force_array(3).dtype),
        str(u.force_array(2.5, numpy.float16).dtype),
        u.force_array(x) is x,
        u.force_array(x, numpy.float64) is x,
        str(u.force_array(x, numpy.float32).dtype),
        attempt(lambda: u.force_array([1, 2])),
        attempt(lambda: u.force_array([1, 2], numpy.float32)),
        attempt(lambda: u.force_array(True)),
        attempt(lambda: str(u.force_array(True).dtype)),
        attempt(lambda: type(u.force_type(numpy.dtype('f'), 3)).__name__),
        attempt(lambda: u.force_type(numpy.dtype('f'), x) is x),
        attempt(lambda: u.force_type(numpy.dtype('d'), x) is x),
        attempt(lambda: u.force_type(numpy.dtype('f'), [1.0])),
    ]


def array_module(c):
    ch = c.chainer
    x = numpy.ones(2)
    return [
        ch.backend.get_array_module(x).__name__,
        ch.backend.get_array_module(ch.Variable(x)).__name__,
        ch.backend.get_array_module([1, 2]).__name__,
        ch.backend.get_array_module().__name__,
        ch.backend.get_array_module(x, None, 3).__name__,
        ch.backends.cuda.get_array_module(x).__name__,
        ch.backends.cuda.get_array_module(ch.Variable(x)).__name__,
    ]


def cached_property(c):
    ch = c.chainer
    cache = _module(c, 'utils.cache')
    calls = []

    class Thing(object):
        @cache.cached_property
        def value(self):
            calls.append(ch.config.enable_backprop)
            return len(calls)

    t = Thing()
    out = [t.value, t.value]
    with ch.no_backprop_mode():
        out += [t.value, t.value]
    out += [t.value, calls]
    out.append(attempt(lambda: setattr(t, 'value', 5)))
    out.append(type(Thing.value).__name__)
    out.append(Thing.value.__name__)
    return out


def im2col_and_back(c):
    conv = _module(c, 'utils.conv')
    img = numpy.arange(2 * 2 * 5 * 4, dtype=numpy.float32).reshape(2, 2, 5, 4)
    out = []
    for args in (
        dict(kh=3, kw=2, sy=1, sx=1, ph=0, pw=0),
        dict(kh=3, kw=3, sy=2, sx=1, ph=1, pw=1),
        dict(kh=2, kw=2, sy=2, sx=3, ph=0, pw=1, cover_all=True),
        dict(kh=2, kw=2, sy=1, sx=1, ph=1, pw=0, dy=2, dx=2),
        dict(kh=2, kw=2, sy=1, sx=1, ph=1, pw=1, pval=-1),
    ):
        col = conv.im2col_cpu(img, **args)
        back = conv.col2im_cpu(
            col,
            args['sy'],
            args['sx'],
            args['ph'],
            args['pw'],
            5,
            4,
            dy=args.get('dy', 1),
            dx=args.get('dx', 1),
        )
        out.append([col, back])
    out.append(conv.im2col_cpu(img, 2, 2, 1, 1, 0, 0, out_h=2, out_w=2))
    out.append(attempt(lambda: conv.im2col_cpu(img, 7, 2, 1, 1, 0, 0)))
    out.append(conv.im2col(img, 2, 2, 1, 1, 0, 0))
    out.append(conv.col2im(conv.im2col(img, 2, 2, 1, 1, 0, 0), 1, 1, 0, 0, 5, 4))
    out.append(conv.im2col_cpu(img.astype(numpy.float16), 2, 2, 1, 1, 0, 0))
    return out


def outsizes_with_dilation(c):
    conv = _module(c, 'utils.conv')
    out = []
    for size, k, s, p, d in ((9, 3, 1, 0, 2), (9, 3, 2, 1, 3), (4, 2, 3, 1, 2)):
        for cover_all in (False, True):
            out.append(conv.get_conv_outsize(size, k, s, p, cover_all, d))
            out.append(conv.get_deconv_outsize(size, k, s, p, cover_all, d))
    out.append(conv.get_conv_outsize(numpy.int64(8), 3, 1, 0))
    out.append(type(conv.get_conv_outsize(numpy.int64(8), 3, 1, 0)).__name__)
    out.append(conv.get_conv_outsize(2, 5, 1, 0))
    out.append(conv.get_deconv_outsize(1, 1, 1, 3))
    return out


def im2col_nd(c):
    cnd = _module(c, 'utils.conv_nd')
    img = numpy.arange(1 * 2 * 4 * 3 * 5, dtype=numpy.float32).reshape(1, 2, 4, 3, 5)
    out = []
    for ksize, stride, pad, kwargs in (
        ((2, 2, 2), (1, 1, 1), (0, 0, 0), {}),
        ((3, 1, 2), (2, 1, 3), (1, 0, 1), {'cover_all': True}),
        ((2, 2, 2), (1, 1, 1), (1, 1, 1), {'pval': 5, 'dilate': 2}),
        ((2, 2, 2), (1, 1, 1), (0, 0, 0), {'dilate': (1, 2, 1)}),
    ):
        col = cnd.im2col_nd_cpu(img, ksize, stride, pad, **kwargs)
        back = cnd.col2im_nd_cpu(
            col, stride, pad, img.shape[2:], dilate=kwargs.get('dilate', 1)
        )
        out.append([col, back])
    out.append(cnd.as_tuple(3, 2))
    out.append(cnd.as_tuple([1, 2], 2))
    out.append(attempt(lambda: cnd.as_tuple([1, 2], 3)))
    out.append(attempt(lambda: cnd.im2col_nd_cpu(img, (5, 2, 2), (1, 1, 1), (0, 0, 0))))
    out.append(attempt(lambda: cnd.im2col_nd_cpu(img, (2, 2), (1, 1), (0, 0))))
    out.append(cnd.im2col_nd(img, (2, 2, 2), (1, 1, 1), (0, 0, 0)))
    return out


def fp16_helper(c):
    prec = _module(c, 'utils.precision')
    seen = []

    class Op(object):
        @prec._fp16_mixed_precision_helper
        def forward(self, inputs):
            seen.append([str(x.dtype) for x in inputs])
            return tuple(x * 2 for x in inputs) + (None,)

    op = Op()
    half = numpy.ones(2, numpy.float16)
    out = []
    for inputs in (
        (half, half),
        (half, numpy.ones(2, numpy.float32)),
        (half, numpy.ones(2, numpy.int32)),
        (numpy.ones(2, numpy.float64),),
    ):
        result = op.forward(inputs)
        out.append([None if y is None else str(y.dtype) for y in result])
    out.append(seen)
    out.append(Op.forward.__name__)
    return out


def coo_matrix(c):
    u = c.chainer.utils
    dense = numpy.array([[0, 2, 0], [1, 0, 3]], numpy.float32)
    coo = u.to_coo(dense)
    wide = u.to_coo(dense, ldnz=5)
    narrow = u.to_coo(dense, ldnz=1)
    batch = u.to_coo(numpy.stack([dense, dense * 0, dense.T.reshape(2, 3)]))
    return [
        [coo.data, coo.row, coo.col, coo.shape, coo.order],
        type(coo.data).__name__,
        coo.data.requires_grad,
        u.to_coo(dense, requires_grad=True).data.requires_grad,
        [wide.data, wide.row, wide.col, wide.order],
        [narrow.data, narrow.row],
        [batch.data, batch.row, batch.col, batch.shape, batch.order],
        coo.to_dense(),
        wide.to_dense(),
        batch.to_dense(),
        u.to_coo(numpy.zeros((2, 2), 'f')).to_dense(),
        attempt(lambda: u.to_coo(numpy.ones(3))),
        attempt(lambda: u.to_coo(numpy.ones((1, 1, 1, 1)))),
    ]


def coo_matrix_refusals(c):
    u = c.chainer.utils
    d = numpy.ones(2, 'f')
    r = numpy.array([0, 1], numpy.int32)
    return [
        attempt(lambda: u.CooMatrix(numpy.ones((1, 1, 2)), r, r, (2, 2))),
        attempt(lambda: u.CooMatrix(d, r[None], r, (2, 2))),
        attempt(lambda: u.CooMatrix(d, r, r, (2, 2, 2))),
        attempt(lambda: u.CooMatrix(d, r, r, (0, 2))),
        attempt(lambda: u.CooMatrix(d, r, r, (2, 2), order='X')),
        attempt(lambda: u.CooMatrix(d, r, r, (2, 2), order='F').order),
        attempt(lambda: u.CooMatrix(d, r, r[::-1], (2, 2)).order),
        attempt(lambda: u.CooMatrix(d, r, r, (2, 2)).to_dense()),
        attempt(lambda: u.CooMatrix(d * 0, r, r, (2, 2)).to_dense()),
        attempt(
            lambda: u.CooMatrix(numpy.ones(0, 'f'), r[:0], r[:0], (2, 2)).to_dense()
        ),
    ]


def sparse_orders(c):
    u = c.chainer.utils
    a = numpy.array
    out = []
    for row, col in (
        (a([0, 0, 1, 1]), a([0, 2, 0, 1])),
        (a([0, 1, 0, 1]), a([0, 0, 1, 1])),
        (a([1, 0]), a([1, 1])),
        (a([1, 0]), a([0, 1])),
        (a([0, -1]), a([0, -1])),
        (a([0]), a([3])),
        (a([[0, 1], [1, 0]]), a([[0, 0], [0, 0]])),
        (a([[0, 1], [0, 1]]), a([[0, 0], [1, 1]])),
    ):
        out.append(attempt(lambda: u.get_order(row, col)))
    out.append(attempt(lambda: u.get_order(a([0, -1]), a([0, 1]))))
    out.append(attempt(lambda: u.get_order(a([0, 1]), a([0]))))
    return out


def walker_alias_forms(c):
    u = c.chainer.utils
    out = []
    for probs in (
        [1.0],
        [3, 1],
        [0.25] * 4,
        numpy.array([0.1, 0.0, 0.9]),
        [5, 1, 1, 1, 2],
    ):
        w = u.WalkerAlias(probs)
        numpy.random.seed(21)
        drawn = w.sample(200)
        out.append(
            [w.threshold, w.values, drawn, numpy.bincount(drawn, minlength=len(probs))]
        )
    w = u.WalkerAlias([1, 2])
    numpy.random.seed(1)
    out.append(w.sample(()))
    out.append(w.sample((2, 0)))
    out.append(str(w.device))
    w.to_cpu()
    out.append(w.use_gpu)
    return out


def walker_alias_of_nothing(c):
    return attempt(lambda: c.chainer.utils.WalkerAlias([]).threshold)


def oversample(c):
    imgproc = _module(c, 'utils.imgproc')
    images = [
        numpy.arange(2 * 5 * 6, dtype=numpy.float32).reshape(2, 5, 6),
        -numpy.arange(2 * 5 * 6, dtype=numpy.float32).reshape(2, 5, 6),
    ]
    crops = imgproc.oversample(images, (3, 4))
    return [
        crops,
        [float(crop.sum()) for crop in crops],
        imgproc.oversample([numpy.ones((1, 4, 4), numpy.uint8)], (4, 4)),
        attempt(lambda: imgproc.oversample(images, (6, 4))),
    ]


def small_helpers(c):
    ch = c.chainer
    u = ch.utils
    err = _module(c, 'utils.error')
    cols = _module(c, 'utils._collections')

    class Thing(object):
        pass

    out = [
        err._format_array_props([numpy.ones((2, 3), 'f'), numpy.ones((), 'i')]),
        attempt(lambda: err._format_array_props(numpy.ones(2))),
        u._repr_with_named_data(Thing(), a=1, b='x').split(' ', 1)[1],
        cols.OrderedDict is __import__('collections').OrderedDict,
        u.collections_abc.Mapping is __import__('collections').abc.Mapping,
    ]
    try:
        try:
            raise KeyError('inner')
        except KeyError as e:
            u._raise_from(ValueError, 'outer', e)
    except ValueError as e:
        out.append(str(e))
    out.append(attempt(lambda: u._check_arrays_forward_compatible([numpy.ones(1)] * 2)))
    return out


def tempdir(c):
    u = c.chainer.utils
    with u.tempdir(prefix='cl-probe-') as d:
        kept = [os.path.isdir(d), os.path.basename(d).startswith('cl-probe-')]
        with open(os.path.join(d, 'f'), 'w') as f:
            f.write('x')
    kept.append(os.path.exists(d))
    with u.tempdir(ignore_errors=True) as d:
        os.rmdir(d)
    kept.append(os.path.exists(d))

    def removed_first():
        with u.tempdir() as d:
            os.rmdir(d)

    kept.append(attempt(removed_first))
    return kept


def runtime_info_lines(c):
    ch = c.chainer
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        ch.print_runtime_info()
    lines = buf.getvalue().splitlines()
    # Chainer's lines, in its order (chainerlite adds its own among them)
    labels = [line.split(':', 1)[0] for line in lines]
    chainers = ('Platform', 'Chainer', 'ChainerX', 'NumPy', 'CuPy', 'iDeep')
    out = io.StringIO()
    ch.print_runtime_info(out)
    return [
        [label for label in labels if label in chainers],
        all(': ' in line for line in lines),
        out.getvalue() == buf.getvalue(),
    ]


def argument_messages(c):
    arg = _module(c, 'utils.argument')

    def first_line(fn):
        try:
            fn()
        except Exception as e:  # noqa: BLE001 - the message is the result
            return [type(e).__name__, str(e)]
        return None

    def my_function(**kwargs):
        return arg.parse_kwargs(kwargs, ('a', 1), old='old is gone')

    return [
        first_line(lambda: my_function(zzz=1, yy=2)),
        first_line(lambda: my_function(old=1)),
        first_line(lambda: my_function(old=1, zzz=2)),
        first_line(lambda: arg.check_unexpected_kwargs({'x': 1}, x='no x', y='no y')),
        arg.check_unexpected_kwargs({'z': 1}, x='no x'),
        arg.parse_kwargs({'a': 5}, ('a', 1), ('b', 2)),
        arg.parse_kwargs({}),
        arg.assert_kwargs_empty({}),
    ]


def assert_kwargs_empty_message(c):
    arg = _module(c, 'utils.argument')

    def my_function(**kwargs):
        arg.assert_kwargs_empty(kwargs)

    try:
        my_function(x=1)
    except TypeError as e:
        return str(e)


PROBES = _values.probes(globals(), __name__)
