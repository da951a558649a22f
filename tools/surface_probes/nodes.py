"""User-defined FunctionNode subclasses: forward's outputs, what the node
keeps, retained arrays, and what backward may return."""

import gc

import numpy

from tools.surface_probes import _values
from tools.surface_probes._calls import counting as _a, first_line, subclass

attempt = _values.attempt


def _node_class(c, forward, backward=None, **attrs):
    """A FunctionNode subclass with the given forward (and backward)."""
    return subclass(c.chainer.FunctionNode, 'Probe', forward, backward, **attrs)


def _twice_forward(self, inputs):
    return (inputs[0] * 2,)


def _twice_backward(self, indexes, grad_outputs):
    return (grad_outputs[0] * 2,)


def _twice(c):
    return _node_class(c, _twice_forward, _twice_backward)


def forward_outputs(c):
    """forward's return value: a tuple is taken, anything else refused."""
    x = c.chainer.Variable(_a(3))
    out = []
    for ret in (
        lambda xs: (xs[0] * 2,),
        lambda xs: (xs[0], xs[0] + 1),
        lambda xs: xs[0] * 2,
        lambda xs: [xs[0] * 2],
        lambda xs: (1.0,),
        lambda xs: (numpy.float32(1),),
        lambda xs: (),
        lambda xs: None,
        lambda xs: (xs[0].astype(numpy.float64),),
    ):
        node = _node_class(c, lambda self, xs, ret=ret: ret(xs))()
        out.append(attempt(lambda node=node: node.apply((x,))))
        out.append(first_line(lambda node=node: node.apply((x,))))
    return out


def node_after_forward(c):
    """What the node keeps after apply: rank, label, inputs, outputs."""
    x = c.chainer.Variable(_a(2, 3))
    h = x * 2
    node = _node_class(c, lambda self, xs: (xs[0] + xs[1], xs[0].sum(axis=1)))()
    y, s = node.apply((h, _a(2, 3, dtype=numpy.float32)))
    return [
        node.rank,
        h.rank,
        y.rank,
        node.label,
        type(node.inputs).__name__,
        len(node.inputs),
        [type(n).__name__ for n in node.inputs],
        node.inputs[0] is h.node,
        node.inputs[1].requires_grad,
        type(node.outputs).__name__,
        [o() is v.node for o, v in zip(node.outputs, (y, s))],
        [(n.shape, str(n.dtype)) for n in node.inputs],
        [(o().shape, str(o().dtype)) for o in node.outputs],
        y.creator is node,
        y.creator_node is node,
        y.node.creator is node,
        y.node.creator_node is node,
        y.requires_grad,
        s.requires_grad,
        node.inputs[1].data is None,
        node.inputs[0].data is None,
    ]


def node_without_grad(c):
    """Inputs that do not require gradients, and no_backprop_mode."""
    node = _twice(c)()
    (y,) = node.apply((_a(2),))
    out = [y.requires_grad, node.rank, node.inputs is not None, y.creator is node]
    node2 = _twice(c)()
    with c.chainer.no_backprop_mode():
        (y2,) = node2.apply((c.chainer.Variable(_a(2)),))
    out += [y2.requires_grad, y2.creator is None, node2.inputs, node2.outputs]
    out.append(node2.rank)
    return out


def output_weakrefs(c):
    """node.outputs are weak references: dead once the outputs are gone."""
    x = c.chainer.Variable(_a(2))
    node = _twice(c)()
    (y,) = node.apply((x,))
    ref = node.outputs[0]
    out = [ref() is y.node]
    del y
    gc.collect()
    out.append(ref() is None)
    return out


def _retaining(c, keep_in, keep_out, seen):
    def forward(self, xs):
        if keep_in is not None:
            self.retain_inputs(keep_in)
        if keep_out is not None:
            self.retain_outputs(keep_out)
        return xs[0] * xs[1], xs[0] + xs[1]

    def backward(self, indexes, gys):
        seen.append(
            [
                indexes,
                [None if v is None else v.array for v in self.get_retained_inputs()],
                [None if v is None else v.array for v in self.get_retained_outputs()],
                [None if g is None else g.array for g in gys],
            ]
        )
        return tuple(c.chainer.Variable(numpy.ones_like(_a(2))) for _ in indexes)

    return _node_class(c, forward, backward)()


def retained_arrays(c):
    """retain_inputs / retain_outputs and what backward reads back."""
    out = []
    for keep_in, keep_out in (
        ((0, 1), (0,)),
        ((1,), None),
        (None, (1, 0)),
        ((), ()),
        (None, None),
    ):
        seen = []
        x0, x1 = c.chainer.Variable(_a(2)), c.chainer.Variable(_a(2) + 3)
        node = _retaining(c, keep_in, keep_out, seen)
        y, z = node.apply((x0, x1))
        out.append([n.data is not None for n in node.inputs])
        c.F.sum(y).backward()
        out.append(seen)
    return out


def retained_output_collected(c):
    """A retained output whose variable is gone comes back as a new one."""
    seen = []
    x0, x1 = c.chainer.Variable(_a(2)), c.chainer.Variable(_a(2))
    node = _retaining(c, (0,), (0, 1), seen)
    y, z = node.apply((x0, x1))
    old = node.outputs[0]
    loss = c.F.sum(z)
    del y
    gc.collect()
    loss.backward()
    return [seen, old() is None, node.outputs[0]() is not None, x0.grad, x1.grad]


def retained_outside_backward(c):
    """get_retained_* and output_data called from outside backward."""
    seen = []
    node = _retaining(c, (1,), (0,), seen)
    y, z = node.apply((c.chainer.Variable(_a(2)), c.chainer.Variable(_a(2))))
    fresh = _twice(c)()
    return [
        attempt(lambda: [v.array for v in node.get_retained_inputs()]),
        attempt(lambda: [v.array for v in node.get_retained_outputs()]),
        attempt(lambda: node.output_data),
        attempt(fresh.get_retained_inputs),
        attempt(fresh.get_retained_outputs),
        attempt(lambda: fresh.output_data),
    ]


def _backward_returning(c, value, n_inputs=1):
    def forward(self, xs):
        return (sum(xs[1:], xs[0]),)

    def backward(self, indexes, gys):
        return value(c, gys[0])

    return _node_class(c, forward, backward), n_inputs


def _grads_of(c, node_class, n_inputs, debug=False, need=None):
    need = need or (True,) * n_inputs
    xs = [c.chainer.Variable(_a(2), requires_grad=r) for r in need]
    (y,) = node_class().apply(xs)
    y.grad = numpy.ones(2, numpy.float32)
    with c.chainer.using_config('debug', debug):
        y.backward()
    return [x.grad for x in xs]


# name, what backward returns, the number of inputs (debug mode's message
# is compared except where Chainer's text shows its internals)
_RETURNS = (
    ('one', lambda c, g: (g,), 1),
    ('none', lambda c, g: None, 1),
    ('bare_variable', lambda c, g: g, 1),
    ('list', lambda c, g: [g], 1),
    ('none_in_tuple', lambda c, g: (None,), 1),
    ('array', lambda c, g: (g.array,), 1),
    ('too_many', lambda c, g: (g, g), 1),
    ('too_few', lambda c, g: (g,), 2),
    ('wrong_shape', lambda c, g: (c.chainer.Variable(_a(3)),), 1),
    ('wrong_dtype', lambda c, g: (c.chainer.Variable(_a(2, dtype=numpy.float64)),), 1),
    ('scalar_shape', lambda c, g: (c.chainer.Variable(numpy.float32(1.0)),), 1),
)


def backward_returns(c):
    """What backward may return, with and without debug mode."""
    out = {}
    for name, value, n in _RETURNS:
        node_class, n = _backward_returning(c, value, n)
        out[name] = [
            attempt(lambda: _grads_of(c, node_class, n)),
            attempt(lambda: _grads_of(c, node_class, n, debug=True)),
        ]
        if name not in ('none', 'wrong_dtype', 'scalar_shape'):
            out[name].append(first_line(lambda: _grads_of(c, node_class, n, True)))
    return out


def backward_targets(c):
    """target_input_indexes: only the inputs that require grad; backward may
    answer for all inputs or for the targets only."""
    seen = []

    def forward(self, xs):
        return (xs[0] + xs[1] + xs[2],)

    def all_inputs(self, indexes, gys):
        seen.append(indexes)
        return (gys[0], gys[0] * 2, gys[0] * 3)

    def targets_only(self, indexes, gys):
        seen.append(indexes)
        return tuple(gys[0] * (i + 1) for i in indexes)

    out = []
    for backward in (all_inputs, targets_only):
        cls = _node_class(c, forward, backward)
        out.append(_grads_of(c, cls, 3, need=(True, False, True)))
        out.append(_grads_of(c, cls, 3, need=(False, True, False)))
    out.append(seen)
    return out


def backward_accumulate(c):
    """A node overriding backward_accumulate gets the other paths' sums."""
    seen = []

    def forward(self, xs):
        return (xs[0] * 3,)

    def accumulate(self, indexes, gys, gxs):
        seen.append([indexes, [None if g is None else g.array for g in gxs]])
        g = gys[0] * 3
        return tuple(g if gx is None else g + gx for gx in gxs)

    cls = _node_class(c, forward, backward_accumulate=accumulate)
    x = c.chainer.Variable(_a(2))
    y = c.F.sum(cls().apply((x,))[0]) + c.F.sum(x * x)
    y.backward()
    x2 = c.chainer.Variable(_a(2))
    x2.grad = numpy.full(2, 10, numpy.float32)
    c.F.sum(cls().apply((x2,))[0]).backward()
    return [x.grad, x2.grad, seen]


def default_backward_accumulate(c):
    """FunctionNode.backward_accumulate called directly adds grad_inputs."""
    node = _twice(c)()
    x = c.chainer.Variable(_a(2))
    node.apply((x,))
    g = c.chainer.Variable(numpy.ones(2, numpy.float32))
    return [
        attempt(lambda: node.backward_accumulate((0,), (g,), (None,))),
        attempt(lambda: node.backward_accumulate((0,), (g,), (g,))),
    ]


def forward_dispatch(c):
    """forward_cpu is called when forward is not overridden; neither one
    defined raises."""
    cpu = type(
        'CPUOnly',
        (c.chainer.FunctionNode,),
        {'forward_cpu': lambda self, xs: (xs[0] + 1,)},
    )
    gpu = type(
        'GPUOnly',
        (c.chainer.FunctionNode,),
        {'forward_gpu': lambda self, xs: (xs[0] + 1,)},
    )
    bare = type('Bare', (c.chainer.FunctionNode,), {})
    x = c.chainer.Variable(_a(2))
    return [
        attempt(lambda: cpu().apply((x,))),
        attempt(lambda: gpu().apply((x,))),
        attempt(lambda: bare().apply((x,))),
        attempt(lambda: bare().backward((0,), (None,))),
    ]


def apply_inputs(c):
    """What apply takes: arrays, Variables, a list, none, scalars."""
    node_class = _node_class(c, lambda self, xs: (sum(xs[1:], xs[0]) if xs else _a(1),))
    x = c.chainer.Variable(_a(2))
    return [
        attempt(lambda: node_class().apply((x, _a(2)))),
        attempt(lambda: node_class().apply([x])),
        attempt(lambda: node_class().apply(())),
        attempt(lambda: node_class().apply((1.0,))),
        attempt(lambda: node_class().apply((x, _a(2, dtype=numpy.float64)))),
        attempt(lambda: node_class().apply(x)),
        attempt(lambda: node_class()(x)),
        first_line(lambda: node_class()(x)),
    ]


def apply_twice(c):
    """One node applied twice: the second call rewires it."""
    node = _twice(c)()
    x1 = c.chainer.Variable(_a(2))
    x2 = c.chainer.Variable(_a(3))
    (y1,) = node.apply((x1,))
    (y2,) = node.apply((x2,))
    out = [
        node.inputs[0] is x2.node,
        node.outputs[0]() is y2.node,
        y1.creator is node,
        y2.creator is node,
    ]
    out.append(attempt(lambda: (c.F.sum(y2).backward(), x2.grad)[1]))
    return out


def unchain_node(c):
    """FunctionNode.unchain drops its edges and its outputs' creators."""
    x = c.chainer.Variable(_a(2))
    node = _twice(c)()
    (y,) = node.apply((x,))
    z = y * 3
    node.unchain()
    out = [node.inputs, node.outputs, y.creator is None, y.rank, z.creator is not None]
    out.append(attempt(lambda: (c.F.sum(z).backward(), x.grad, y.grad)[1:]))
    out.append(attempt(node.unchain))
    return out


def check_type_forward(c):
    """check_type_forward with type_check: InvalidType and its text."""
    tc = c.chainer.utils.type_check

    def check(self, in_types):
        tc.expect(in_types.size() == 1)
        x_type = in_types[0]
        tc.expect(x_type.dtype == numpy.float32, x_type.ndim == 2, x_type.shape[1] == 3)

    cls = _node_class(c, _twice_forward, check_type_forward=check)
    out = []
    for a in (_a(2, 3), _a(2, 4), _a(2, 3, dtype=numpy.float64), _a(6)):
        out.append(attempt(lambda a=a: cls().apply((a,))))
        out.append(first_line(lambda a=a: cls().apply((a,))))
        with c.chainer.using_config('type_check', False):
            out.append(attempt(lambda a=a: cls().apply((a,))))
    out.append(attempt(lambda: cls().apply((_a(2, 3), _a(2, 3)))))
    try:
        cls().apply((_a(2, 4),))
    except tc.InvalidType as e:
        out += [str(e), e.expect, e.actual, isinstance(e, ValueError)]
    return out


def debug_nan(c):
    """Debug mode: NaN in forward or backward raises RuntimeError."""
    cls = _node_class(
        c,
        lambda self, xs: (xs[0] * numpy.float32('nan'),),
        lambda self, i, gys: (gys[0] * numpy.float32('nan'),),
    )
    x = c.chainer.Variable(_a(2))
    out = []
    with c.chainer.using_config('debug', True):
        out.append(attempt(lambda: cls().apply((x,))))
        out.append(first_line(lambda: cls().apply((x,))))
    (y,) = cls().apply((x,))
    with c.chainer.using_config('debug', True):
        out.append(attempt(lambda: c.F.sum(y).backward()))
    return out


def local_hooks_on_node(c):
    """add_hook / delete_hook / local_function_hooks of a FunctionNode."""
    node = _twice(c)()
    hook = c.chainer.FunctionHook()
    out = [list(node.local_function_hooks)]
    node.add_hook(hook)
    out.append(list(node.local_function_hooks))
    out.append(attempt(lambda: node.add_hook(hook)))
    node.add_hook(hook, name='other')
    out.append(list(node.local_function_hooks))
    out.append(attempt(lambda: node.add_hook(object())))
    node.delete_hook('other')
    out.append(list(node.local_function_hooks))
    out.append(attempt(lambda: node.delete_hook('other')))
    return out


def node_attributes(c):
    """The other attributes a node has before and after apply."""
    node = _twice(c)()
    before = [
        node.stack,
        node.lazy_grad_sum,
        node.is_elementwise,
        node.chainerx_device,
        node._impl_name,
        node.inputs,
        node.outputs,
        node.rank,
        attempt(lambda: node.input_layouts),
        attempt(lambda: node.output_layouts),
    ]
    node.apply((c.chainer.Variable(_a(2)),))
    after = [
        node.stack,
        node.lazy_grad_sum,
        attempt(lambda: node.input_layouts),
        attempt(lambda: node.output_layouts),
    ]
    debug_node = _twice(c)()
    with c.chainer.using_config('debug', True):
        debug_node.apply((c.chainer.Variable(_a(2)),))
    stack = debug_node.stack
    return [before, after, stack is not None and len(stack) > 0]


def retain_bad_indexes(c):
    """retain_inputs / retain_outputs given indexes out of range."""
    out = []
    for keep_in, keep_out in (((2,), None), (None, (3,)), ((-1,), None), (None, (-1,))):

        def forward(self, xs, keep_in=keep_in, keep_out=keep_out):
            if keep_in is not None:
                self.retain_inputs(keep_in)
            if keep_out is not None:
                self.retain_outputs(keep_out)
            return (xs[0] * 2,)

        node = _node_class(c, forward, _twice_backward)()
        x = c.chainer.Variable(_a(2))
        out.append(attempt(lambda node=node, x=x: node.apply((x,))))
    return out


def errors_in_debug_mode(c):
    """An exception raised in backward: in debug mode its message tells
    where the node was applied."""

    def backward(self, indexes, gys):
        raise ValueError('boom')

    cls = _node_class(c, _twice_forward, backward)
    out = []
    for debug in (False, True):
        with c.chainer.using_config('debug', debug):
            (y,) = cls().apply((c.chainer.Variable(_a(2)),))
            try:
                c.F.sum(y).backward()
            except ValueError as e:
                text = str(e)
                out.append([text.split('\n', 1)[0], 'Stacktrace' in text, len(e.args)])
    return out


def requires_grad_mix(c):
    """Outputs require grad when any input does; target indexes follow."""
    seen = []

    def backward(self, indexes, gys):
        seen.append(indexes)
        return tuple(gys[0] for _ in indexes)

    cls = _node_class(c, lambda self, xs: (xs[0] + xs[1],), backward)
    out = []
    for r0, r1 in ((True, False), (False, True), (False, False), (True, True)):
        x0 = c.chainer.Variable(_a(2), requires_grad=r0)
        x1 = c.chainer.Variable(_a(2), requires_grad=r1)
        (y,) = cls().apply((x0, x1))
        out.append([y.requires_grad, y.creator is not None])
        y.grad = numpy.ones(2, numpy.float32)
        y.backward()
        out.append([x0.grad, x1.grad])
    out.append(seen)
    return out


def double_backprop_through_node(c):
    """A backward built from differentiable operations differentiates
    again; its gradients have no creator without double backprop."""

    def cube_forward(self, xs):
        self.retain_inputs((0,))
        return (xs[0] ** 3,)

    def cube_backward(self, indexes, gys):
        (x,) = self.get_retained_inputs()
        return (3 * x * x * gys[0],)

    cls = _node_class(c, cube_forward, cube_backward)
    x = c.chainer.Variable(_a(3))
    (y,) = cls().apply((x,))
    (gx,) = c.chainer.grad([y], [x], enable_double_backprop=True)
    (ggx,) = c.chainer.grad([gx], [x])
    (y2,) = cls().apply((x,))
    (gx2,) = c.chainer.grad([y2], [x])
    return [gx, ggx, gx.creator is not None, gx2.creator is None]


PROBES = _values.probes(globals(), __name__)
