"""type_check in depth: how expressions print (parentheses, subscripts,
attributes, calls, nested comparisons), what they evaluate to, the
messages of failed checks inside and outside functions, light mode and
the TypeInfo objects."""

import pickle

import numpy

from tools.surface_probes import _values

attempt = _values.attempt


def _abc(c):
    tc = c.chainer.utils.type_check
    return tc.Variable(3, 'a'), tc.Variable(4, 'b'), tc.Variable(5, 'c')


def _failure(c, *exprs):
    tc = c.chainer.utils.type_check
    try:
        tc.expect(*exprs)
    except tc.InvalidType as e:
        return [e.expect, e.actual, str(e)]
    return 'ok'


def parentheses(c):
    a, b, c_ = _abc(c)
    exprs = [
        a**b**c_,
        (a**b) ** c_,
        -(a**2),
        (-a) ** 2,
        ~-a,
        a - -b,
        a - (b + c_),
        (a - b) + c_,
        a * (b * c_),
        a / (b * c_),
        (a + b) / c_,
        a // b * c_,
        a % (b % c_),
        a << b << c_,
        a << (b << c_),
        a & (b | c_),
        (a & b) | c_,
        a ^ b & c_,
        -(a.x),
    ]
    return [str(e) for e in exprs]


def compound_operands(c):
    # an attribute, item or call of a compound expression, and a comparison
    # of a comparison
    a, b, c_ = _abc(c)
    exprs = [(-a).x, (a + b).real, (a + b)[0], (a + b)(1), (a == b) == c_]
    return [str(e) for e in exprs]


def comparisons_as_text(c):
    a, b, c_ = _abc(c)
    exprs = [
        a == b,
        a != b,
        a < b,
        a <= b,
        a > b,
        a >= b,
        a + (b < c_),
        2 == a,
        2 < a,
        a == (b == c_),
    ]
    return [str(e) for e in exprs]


def subscripts_and_attributes(c):
    tc = c.chainer.utils.type_check
    a, b, _ = _abc(c)
    exprs = [
        a[1:2:3],
        a[:2],
        a[1:],
        a[::2],
        a[..., 1],
        a[a],
        a[:,],
        a[(1,)],
        a[1, b:],
        a['k'],
        getattr(a, '1'),
        tc.GetAttr(a, 1),
        tc.GetAttr(a, tc.Constant('n')),
        tc.GetAttr(a, tc.Constant(2)),
        a(1, 'x', [b], (b,)),
        a(),
        tc.Constant([1, (2,), 'z']),
        tc.Constant(None),
        tc.Constant(numpy.float32),
        tc.Constant(numpy.dtype('f')),
    ]
    return [str(e) for e in exprs]


def evaluation(c):
    tc = c.chainer.utils.type_check
    v = tc.Variable(numpy.arange(12).reshape(3, 4), 'v')
    f = tc.Variable(lambda *xs: sum(xs), 'f')
    s = tc.Variable('text', 's')
    exprs = [
        v.shape,
        v.shape[1:],
        v[1, 2:],
        v[..., 0],
        v.sum(),
        f(1, 2, v.ndim),
        s.upper(),
        s[1:3],
        tc.Constant([v.ndim, (v.size,)]),
        v.shape[0] * v.shape[1] == v.size,
        -v.ndim,
    ]
    return [attempt(lambda e=e: tc.eval(e)) for e in exprs]


def failed_checks(c):
    tc = c.chainer.utils.type_check
    x, y = tc.get_types(
        (numpy.ones((2, 3), numpy.float32), numpy.ones((3,), numpy.float64)),
        'in_types',
        False,
    )
    return [
        _failure(c, x.shape[1] == y.shape[0]),
        _failure(c, x.dtype == y.dtype),
        _failure(c, x.dtype == numpy.float64),
        _failure(c, x.dtype == numpy.dtype('int8')),
        _failure(c, x.dtype.kind == y.dtype.kind, x.ndim == 3),
        _failure(c, x.shape == (2, 4)),
        _failure(c, x.shape[0] + 1 == y.shape[0] * 2),
        _failure(c, x.dtype.char == 'd'),
        _failure(c, x.ndim - y.ndim > 1),
        _failure(c, tc.prod(x.shape) == 5),
        _failure(c, tc.Variable('a', 'name') == 'b'),
        _failure(c, tc.Constant((1, 'a')) == (1, 'b')),
        _failure(c, tc.Variable([1, 2], 'l') == [1]),
        _failure(c, tc.Variable(None, 'n') != None),  # noqa: E711
        _failure(c, tc.Variable(1.5, 'f') < 1),
    ]


def messages_in_functions(c):
    ch = c.chainer
    tc = ch.utils.type_check

    class Labeled(ch.FunctionNode):
        @property
        def label(self):
            return 'MyLabel'

        def check_type_forward(self, in_types):
            tc.expect(in_types.size() == 2)
            x, y = in_types
            tc.expect(x.shape == y.shape)

        def forward(self, inputs):
            return (inputs[0],)

    out = []
    for inputs in ((numpy.ones(2, 'f'),), (numpy.ones(2, 'f'), numpy.ones(3, 'f'))):
        try:
            Labeled().apply(inputs)
            out.append('ok')
        except tc.InvalidType as e:
            out.append([e.expect, e.actual, str(e)])
    return out


def messages_in_old_style_functions(c):
    ch = c.chainer
    tc = ch.utils.type_check

    class Old(ch.Function):
        def check_type_forward(self, in_types):
            tc._argname(in_types, ('x',))
            tc.expect(in_types[0].ndim == 2)

        def forward(self, inputs):
            return (inputs[0],)

    out = []
    for inputs in ((numpy.ones(2, 'f'),), (numpy.ones(2, 'f'), numpy.ones(2, 'f'))):
        try:
            Old()(*inputs)
            out.append('ok')
        except tc.InvalidType as e:
            out.append([e.expect, e.actual, str(e)])
    return out


def invalid_type_pickles(c):
    tc = c.chainer.utils.type_check

    class Fake(object):
        label = 'Fake'

    with tc.get_function_check_context(Fake()):
        inside = tc.InvalidType('e', 'a')
    back = pickle.loads(pickle.dumps(inside))
    return [str(inside), str(back), back.expect, back.actual, back.args]


def type_info(c):
    tc = c.chainer.utils.type_check
    t = tc.get_types((numpy.ones((2, 3, 4), numpy.float16),), 'xs', False)
    v = t[0]
    info = tc.eval(v)
    return [
        type(info).__name__,
        info.shape,
        info.ndim,
        info.size,
        str(info.dtype),
        str(v.size),
        tc.eval(v.size),
        str(v.shape[-1]),
        str(t.size()),
        tc.eval(t.size()),
        type(t).__name__,
        isinstance(t, tuple),
        t.name,
        tc.TypeInfo((), numpy.int8).size,
        tc.TypeInfo((0, 3), numpy.int8).size,
    ]


def light_mode_checks(c):
    ch = c.chainer
    tc = ch.utils.type_check

    class Check(ch.FunctionNode):
        def check_type_forward(self, in_types):
            tc._argname(in_types, ('x',))
            x = in_types[0]
            tc.expect(x.ndim == 1, x.shape[0] > 1, x.dtype.kind == 'f')
            tc.expect(tc.prod(x.shape) == tc.eval(x.size))

        def forward(self, inputs):
            return (inputs[0] * 2,)

    out = []
    with tc.light_mode:
        lt = tc.get_light_types((numpy.ones(3, 'f'),))
        out.append([tc.in_light_mode(), lt.size(), type(lt[0]).__name__])
    for x in (numpy.ones(3, 'f'), numpy.ones(1, 'f'), numpy.ones(3, 'i')):
        try:
            out.append(Check().apply((x,))[0].shape)
        except tc.InvalidType as e:
            out.append([e.expect, e.actual, str(e)])
    return out


def operator_nodes(c):
    import operator

    tc = c.chainer.utils.type_check
    x, y, z = (tc.Variable(v, n) for v, n in ((2, 'x'), (3, 'y'), (4, 'z')))
    out = []
    for p_outer, p_inner, right in (
        (5, 4, False),
        (4, 5, False),
        (5, 5, False),
        (5, 5, True),
    ):
        inner = tc.BinaryOperator(p_inner, y, z, '@', operator.__add__, right)
        left = tc.BinaryOperator(p_outer, inner, x, '#', operator.__mul__, right)
        rightward = tc.BinaryOperator(p_outer, x, inner, '#', operator.__mul__, right)
        out.append([str(left), str(rightward), tc.eval(left), tc.eval(rightward)])
    for p_outer, p_inner in ((6, 4), (6, 8), (6, 6)):
        inner = tc.BinaryOperator(p_inner, y, z, '+', operator.__add__)
        u = tc.UnaryOperator(p_outer, inner, '-', operator.__neg__)
        out.append([str(u), tc.eval(u)])
    out.append(str(tc.UnaryOperator(6, 5, '-', operator.__neg__)))
    out.append(str(tc.BinaryOperator(4, 1, 'a', '+', operator.__add__)))
    b = tc.BoolBinaryOperator(x, 3, '==', '!=', operator.__eq__)
    out.append([str(b), attempt(lambda: b.expect())])
    try:
        b.expect()
    except tc.InvalidType as e:
        out.append([e.expect, e.actual])
    ok = tc.BoolBinaryOperator(x, 2, '==', '!=', operator.__eq__)
    out.append(ok.expect())
    out.append([isinstance(b, tc.Testable), isinstance(b, tc.BinaryOperator)])
    out.append(attempt(lambda: tc.Testable().expect()))
    return out


def expression_objects(c):
    tc = c.chainer.utils.type_check
    x = tc.Variable(numpy.ones((2, 3)), 'x')
    exprs = [x.shape, x[0], x(1), x + 1, -x, x == 1]
    return [
        [type(e).__name__ for e in exprs],
        [isinstance(e, tc.Expr) for e in exprs],
        [isinstance(e, tc.Atom) for e in exprs],
        attempt(lambda: bool(x)),
        attempt(lambda: bool(x.ndim == 2)),
        attempt(lambda: len(x.shape)),
        attempt(lambda: x.shape in [1]),
        attempt(lambda: type(hash(x)).__name__),
        str(x.size_of),
    ]


def special_attribute_names(c):
    tc = c.chainer.utils.type_check
    x = tc.Variable(numpy.ones((2, 3)), 'x')
    return [attempt(lambda: str(x.__len__)), attempt(lambda: str(x._private))]


def variables_from_arrays(c):
    tc = c.chainer.utils.type_check
    out = []
    for value in ([1, 2], numpy.float32(1), None):
        try:
            tc._make_variable_from_array(value, 'x')
            out.append('ok')
        except tc.InvalidType as e:
            out.append([e.expect, e.actual])
    v = tc._make_variable_from_array(numpy.ones((2, 3), 'f'), 'x')
    out.append([str(v), tc.eval(v.shape), str(tc.eval(v.dtype))])
    with tc.light_mode:
        a = numpy.ones(2)
        out.append(tc._make_variable_from_array(a, 'x') is a)
    return out


def node_attributes(c):
    tc = c.chainer.utils.type_check
    a = tc.Variable(3, 'a')
    k = tc.Constant(4)
    nodes = {
        'Variable': (a, ('value', 'name', 'priority')),
        'Constant': (k, ('value', 'priority')),
        'GetAttr': (a.real, ('obj', 'name', 'priority')),
        'GetItem': (a[1], ('obj', 'key', 'priority')),
        'Call': (a(1, 2), ('obj', 'args', 'priority')),
        'BinaryOperator': (
            a + 1,
            ('lhs', 'rhs', 'exp', 'priority', 'right_associative'),
        ),
        'UnaryOperator': (-a, ('term', 'exp', 'priority')),
        'BoolBinaryOperator': (a == 1, ('lhs', 'rhs', 'exp', 'inv', 'priority')),
    }
    out = {}
    for kind, (node, names) in nodes.items():
        row = []
        for name in names:
            value = getattr(node, name)
            row.append(
                str(value) if isinstance(value, tc.Expr) else _values.summary(value)
            )
        out[kind] = row
    return out


PROBES = _values.probes(globals(), __name__)
