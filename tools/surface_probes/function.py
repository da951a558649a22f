"""Old-style ``Function`` subclasses: calls, the adapter node, retained
arrays, hooks, gradients given back and a function called twice."""

import gc

import numpy

from tools.surface_probes import _values
from tools.surface_probes._calls import counting as _a, first_line, subclass

attempt = _values.attempt


def _function(c, forward, backward=None, **attrs):
    return subclass(c.chainer.Function, 'OldProbe', forward, backward, **attrs)


def _mul(c, seen=None):
    """x0 * x1 and x0 + x1, its backward recording what it is given."""

    def forward(self, xs):
        return xs[0] * xs[1], xs[0] + xs[1]

    def backward(self, xs, gys):
        if seen is not None:
            seen.append([list(xs), list(gys), attempt(lambda: list(self.output_data))])
        g0 = 0 if gys[0] is None else gys[0]
        g1 = 0 if gys[1] is None else gys[1]
        return (g0 * xs[1] + g1).astype(numpy.float32), (g0 * xs[0] + g1).astype(
            numpy.float32
        )

    return _function(c, forward, backward)


def call_results(c):
    """One output comes back bare, several as a tuple; arrays are taken."""
    one = _function(c, lambda self, xs: (xs[0] * 2,))
    x = c.chainer.Variable(_a(2))
    y = one()(x)
    ys = _mul(c)()(x, _a(2))
    return [
        type(y).__name__,
        y,
        type(ys).__name__,
        ys,
        attempt(lambda: one()(_a(2))),
        attempt(lambda: one()(x, x)),
        attempt(lambda: one()()),
        attempt(lambda: one()((x,))),
        attempt(lambda: _function(c, lambda self, xs: xs[0] * 2)()(x)),
        first_line(lambda: _function(c, lambda self, xs: xs[0] * 2)()(x)),
        attempt(lambda: _function(c, lambda self, xs: [xs[0]])()(x)),
        attempt(lambda: _function(c, lambda self, xs: (1.0,))()(x)),
    ]


def adapter_node(c):
    """The Function and its FunctionAdapter node: creator, inputs, outputs,
    rank, label."""
    f = _mul(c)()
    before = f.node
    x = c.chainer.Variable(_a(2))
    h = x * 2
    y, z = f(h, x)
    node = f.node
    return [
        type(node).__name__,
        node is before,
        node.function is f,
        node.label,
        f.label,
        f.rank,
        node.rank,
        y.rank,
        y.creator is f,
        y.creator_node is node,
        y.node.creator is f,
        y.node.creator_node is node,
        f.inputs is node.inputs,
        [n is v.node for n, v in zip(f.inputs, (h, x))],
        [r() is v.node for r, v in zip(f.outputs, (y, z))],
        isinstance(node, c.chainer.FunctionNode),
        isinstance(f, c.chainer.FunctionNode),
        f.stack,
        list(f.local_function_hooks),
    ]


def adapter_before_call(c):
    """A Function never called: its node exists, empty."""
    f = _mul(c)()
    return [
        type(f.node).__name__,
        f.node is f.node,
        f.inputs,
        f.outputs,
        f.rank,
        attempt(lambda: f.output_data),
        f.node.function is f,
    ]


def retained_by_default(c):
    """An old-style Function keeps every input; retain_inputs(()) keeps
    none; retain_outputs fills output_data."""
    out = []
    for keep_in, keep_out in ((None, None), ((), None), ((1,), (0,)), (None, (1, 0))):

        def forward(self, xs, keep_in=keep_in, keep_out=keep_out):
            if keep_in is not None:
                self.retain_inputs(keep_in)
            if keep_out is not None:
                self.retain_outputs(keep_out)
            return xs[0] * xs[1], xs[0] + xs[1]

        seen = []
        cls = _function(
            c,
            forward,
            lambda self, xs, gys, seen=seen: (
                seen.append([list(xs), list(self.output_data)]) or (gys[0], gys[0])
            ),
        )
        x0, x1 = c.chainer.Variable(_a(2)), c.chainer.Variable(_a(2) + 2)
        f = cls()
        y, z = f(x0, x1)
        out.append([n.data is not None for n in f.inputs])
        out.append(attempt(lambda f=f: f.output_data))
        out.append(attempt(lambda y=y, x0=x0: (c.F.sum(y).backward(), x0.grad)[1]))
        out.append(seen)
    return out


def gradients(c):
    """What backward receives (arrays, None for an output with no
    gradient) and what the inputs get."""
    seen = []
    x0, x1 = c.chainer.Variable(_a(2)), c.chainer.Variable(_a(2) + 2)
    y, z = _mul(c, seen)()(x0, x1)
    c.F.sum(y).backward()
    out = [x0.grad, x1.grad, seen]
    x2 = c.chainer.Variable(_a(2))
    y2, z2 = _mul(c)()(x2, _a(2))
    c.F.sum(y2 * z2).backward()
    out.append(x2.grad)
    return out


_RETURNS = (
    ('one', lambda c, xs, gys: (gys[0] * 2,), 1),
    ('default', None, 1),
    ('none', lambda c, xs, gys: (None,), 1),
    ('fewer', lambda c, xs, gys: (gys[0],), 2),
    ('more', lambda c, xs, gys: (gys[0], gys[0]), 1),
    ('bare_array', lambda c, xs, gys: gys[0], 1),
    ('list', lambda c, xs, gys: [gys[0]], 1),
    ('variable', lambda c, xs, gys: (c.chainer.Variable(gys[0]),), 1),
    ('wrong_shape', lambda c, xs, gys: (_a(3),), 1),
    ('wrong_dtype', lambda c, xs, gys: (gys[0].astype(numpy.float64),), 1),
    ('scalar', lambda c, xs, gys: (1.0,), 1),
)


def backward_returns(c):
    """What an old-style backward may give back, with and without debug."""
    out = {}
    for name, value, n in _RETURNS:

        def run(debug, value=value, n=n):
            cls = _function(
                c,
                lambda self, xs: (sum(xs[1:], xs[0]),),
                None if value is None else (lambda self, xs, gys: value(c, xs, gys)),
            )
            xs = [c.chainer.Variable(_a(2)) for _ in range(n)]
            y = cls()(*xs)
            y.grad = numpy.ones(2, numpy.float32)
            with c.chainer.using_config('debug', debug):
                y.backward()
            return [x.grad for x in xs]

        out[name] = [
            attempt(lambda run=run: run(False)),
            attempt(lambda run=run: run(True)),
        ]
    return out


def no_double_backprop(c):
    """Gradients of an old-style Function cannot be differentiated again."""
    cls = _function(
        c,
        lambda self, xs: (xs[0] * xs[0],),
        lambda self, xs, gys: (2 * xs[0] * gys[0],),
    )
    x = c.chainer.Variable(_a(2))
    y = cls()(x)
    out = []
    (gx,) = c.chainer.grad([y], [x], enable_double_backprop=True)
    out += [gx, gx.requires_grad]
    out.append(attempt(lambda: c.chainer.grad([gx], [x])))
    out.append(first_line(lambda: c.chainer.grad([gx], [x])))
    out.append(attempt(lambda: c.F.sum(gx).backward()))
    return out


def old_style_gradient_is_a_leaf(c):
    """The gradient an old-style backward gives has no creator."""
    cls = _function(
        c, lambda self, xs: (xs[0] * 3,), lambda self, xs, gys: (gys[0] * 3,)
    )
    x = c.chainer.Variable(_a(2))
    (gx,) = c.chainer.grad([cls()(x)], [x], enable_double_backprop=True)
    return [gx.creator is None, gx.rank]


def called_twice(c):
    """One Function object called twice: while the first output lives the
    node is reused, afterwards a new one is made."""
    f = _function(
        c, lambda self, xs: (xs[0] * 3,), lambda self, xs, gys: (gys[0] * 3,)
    )()
    x1, x2 = c.chainer.Variable(_a(2)), c.chainer.Variable(_a(3))
    y1 = f(x1)
    n1 = f.node
    y2 = f(x2)
    out = [f.node is n1, y1.creator is f, y2.creator is f, f.inputs[0] is x2.node]
    out.append(attempt(lambda y2=y2: (c.F.sum(y2).backward(), x2.grad)[1]))
    del y1, y2
    gc.collect()
    x3 = c.chainer.Variable(_a(2))
    y3 = f(x3)
    out.append(y3.creator_node is n1)
    out.append(attempt(lambda: (c.F.sum(y3).backward(), x3.grad)[1]))
    return out


def unchain_function(c):
    """Function.unchain goes to its node."""
    f = _mul(c)()
    x = c.chainer.Variable(_a(2))
    y, z = f(x, x)
    f.unchain()
    return [f.inputs, f.outputs, y.creator is None, attempt(f.unchain)]


def forward_dispatch(c):
    """forward_cpu / backward_cpu are used when forward / backward are
    not overridden; the defaults give no gradients."""
    cls = type(
        'CPUProbe',
        (c.chainer.Function,),
        {
            'forward_cpu': lambda self, xs: (xs[0] * 5,),
            'backward_cpu': lambda self, xs, gys: (gys[0] * 5,),
        },
    )
    plain = type(
        'Plain', (c.chainer.Function,), {'forward_cpu': lambda self, xs: (xs[0],)}
    )
    x = c.chainer.Variable(_a(2))
    c.F.sum(cls()(x)).backward()
    x2 = c.chainer.Variable(_a(2))
    c.F.sum(plain()(x2)).backward()
    bare = type('Bare', (c.chainer.Function,), {})
    return [
        x.grad,
        x2.grad,
        attempt(lambda: bare()(x)),
        attempt(lambda: bare().backward((_a(2),), (_a(2),))),
        attempt(lambda: bare().backward_cpu((_a(2),), (_a(2),))),
    ]


def type_check(c):
    """check_type_forward of an old-style Function."""
    tc = c.chainer.utils.type_check

    def check(self, in_types):
        tc.expect(in_types.size() == 1, in_types[0].ndim == 1)

    cls = _function(c, lambda self, xs: (xs[0],), check_type_forward=check)
    out = []
    for args in ((_a(2),), (_a(2, 2),), (_a(2), _a(2))):
        out.append(attempt(lambda args=args: cls()(*args)))
        out.append(first_line(lambda args=args: cls()(*args)))
    with c.chainer.using_config('type_check', False):
        out.append(attempt(lambda: cls()(_a(2, 2))))
    return out


def hooks_on_function(c):
    """Local hooks of an old-style Function: registered on its node, called
    with the node."""
    log = []

    class Hook(c.chainer.FunctionHook):
        name = 'probe'

        def added(self, function):
            log.append(['added', type(function).__name__])

        def deleted(self, function):
            log.append(['deleted', type(function).__name__])

        def forward_preprocess(self, function, in_data):
            log.append(['fpre', type(function).__name__, function.label, len(in_data)])

        def backward_postprocess(self, function, in_data, out_grad):
            log.append(['bpost', type(function).__name__, list(out_grad)])

    f = _mul(c)()
    f.add_hook(Hook())
    out = [list(f.local_function_hooks), list(f.node.local_function_hooks)]
    x = c.chainer.Variable(_a(2))
    y, z = f(x, x)
    c.F.sum(y).backward()
    out.append(attempt(lambda: f.add_hook(Hook())))
    f.delete_hook('probe')
    out.append(attempt(lambda: f.delete_hook('probe')))
    out.append(log)
    return out


PROBES = _values.probes(globals(), __name__)
