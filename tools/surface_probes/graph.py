"""The graph as code reads it: ``build_computational_graph`` and its dot
text, ``VariableNode``, and ``chainer.grad`` with its options."""

import re

import numpy

from tools.surface_probes import _values
from tools.surface_probes._calls import counting as _a, first_line

attempt = _values.attempt


def _net(c):
    """x -> exp -> * x -> sum, with names on two variables."""
    x = c.chainer.Variable(_a(2, 3), name='x')
    h = c.F.exp(x)
    h.name = 'h'
    y = c.F.sum(h * x)
    return x, h, y


def _dot(text):
    """The dot text's layout and its statements, each object id replaced by
    its node's label, sorted (Chainer's node order is a set's)."""
    labels = dict(re.findall(r'(\d+) \[label="([^"]*)"', text))
    named = re.sub(r'\b\d{6,}\b', lambda m: '<%s>' % labels.get(m.group(0), '?'), text)
    head = named.split(';', 1)[0]
    statements = re.findall(r'<[^>]*> (?:\[[^\]]*\]|-> <[^>]*>);', named)
    return [head, named.endswith('}'), named.count('\n'), sorted(statements)]


def dump_default(c):
    cg = c.chainer.computational_graph
    x, h, y = _net(c)
    g = cg.build_computational_graph([y])
    return [
        _dot(g.dump()),
        type(g).__name__,
        len(g.nodes),
        len(g.edges),
        sorted(type(n).__name__ for n in g.nodes),
    ]


def dump_options(c):
    cg = c.chainer.computational_graph
    x, h, y = _net(c)
    out = []
    for kw in (
        dict(variable_style=None, function_style=None),
        dict(show_name=False),
        dict(rankdir='LR'),
        dict(remove_variable=True),
        dict(variable_style={'color': 'red'}, function_style={'shape': 'box'}),
        dict(rankdir='XY'),
        dict(remove_split=False),
        dict(remove_split=True),
    ):
        out.append(
            attempt(lambda kw=kw: _dot(cg.build_computational_graph([y], **kw).dump()))
        )
    g = cg.build_computational_graph([y])
    out.append(attempt(lambda: g.dump('json')))
    out.append(first_line(lambda: g.dump('json')))
    return out


def graph_outputs(c):
    """What outputs may be: a Variable, its node, a FunctionNode, a tuple."""
    cg = c.chainer.computational_graph
    x, h, y = _net(c)

    def size(outputs):
        g = cg.build_computational_graph(outputs)
        return [len(g.nodes), len(g.edges)]

    return [
        attempt(lambda: size([y])),
        attempt(lambda: size(y)),
        attempt(lambda: size((y, h))),
        attempt(lambda: size([y.node])),
        attempt(lambda: size([y.creator])),
        attempt(lambda: size([x])),
        attempt(lambda: size([])),
        attempt(lambda: size([_a(2)])),
        attempt(lambda: size([1])),
    ]


def graph_of_split(c):
    """A variable used by two functions, and a function with two outputs."""
    cg = c.chainer.computational_graph
    x = c.chainer.Variable(_a(4))
    a, b = c.F.split_axis(x, 2, 0)
    y = c.F.sum(a * b) + c.F.sum(x)
    g = cg.build_computational_graph([y])
    g2 = cg.build_computational_graph([a])
    return [_dot(g.dump()), _dot(g2.dump()), len(g.nodes), len(g.edges)]


def graph_classes(c):
    """ComputationalGraph built by hand; DotNode's label text."""
    cg = c.chainer.computational_graph
    x, h, y = _net(c)
    f = y.creator
    g = cg.ComputationalGraph([x.node, f], [(x.node, f)])
    dn = cg.DotNode(x.node, {'color': 'blue'})
    dn2 = cg.DotNode(f, show_name=False)
    return [
        _dot(g.dump()),
        re.sub(r'^\d+', 'ID', dn.label),
        re.sub(r'^\d+', 'ID', dn2.label),
        dn.id_ == id(x.node),
        attempt(lambda: cg.ComputationalGraph([x.node], [], rankdir='up')),
    ]


def variable_node(c):
    """VariableNode's attributes and methods."""
    x = c.chainer.Variable(_a(2, 3), name='x')
    y = c.F.exp(x)
    n = y.node
    out = [
        type(n).__name__,
        n.name,
        x.node.name,
        n.label,
        c.chainer.Variable(_a(2, dtype=numpy.int32)).node.label,
        c.chainer.Variable(numpy.array(2.0, numpy.float32)).node.label,
        n.shape,
        str(n.dtype),
        n.rank,
        x.node.rank,
        n.requires_grad,
        n.creator is y.creator,
        n.creator_node is y.creator_node,
        n.get_variable() is y,
        n.get_variable_or_none() is y,
        n.data is y.array,
        attempt(lambda: n.grad),
        attempt(lambda: n.grad_var),
        attempt(lambda: n.old_style_grad_generator),
    ]
    y.grad = numpy.ones((2, 3), numpy.float32)
    out.append(attempt(lambda: n.grad))
    out.append(attempt(lambda: n.grad_var is y.grad_var))
    return out


def variable_node_lifetime(c):
    """A node outliving its variable: get_variable makes a new one."""
    x = c.chainer.Variable(_a(2))
    y = c.F.exp(x)
    z = y * 2
    n = y.node
    del y
    out = [
        n.get_variable_or_none() is None,
        attempt(lambda: n.get_variable().array),
        attempt(lambda: n.get_variable().creator is z.creator.inputs[0].creator),
        n.data is not None,
    ]
    n.set_creator(None) if hasattr(n, 'set_creator') else None
    out.append(n.creator is None)
    return out


def variable_node_edit(c):
    """set_creator / unchain / retain_data of a VariableNode."""
    x = c.chainer.Variable(_a(2))
    y = c.F.exp(x)
    w = c.chainer.Variable(_a(2))
    out = [
        attempt(lambda: (w.node.set_creator(y.creator), w.node.rank, w.rank)[1:]),
        attempt(lambda: (w.node.set_creator_node(y.creator_node), w.node.rank)[1]),
        attempt(lambda: w.node.set_creator(object())),
    ]
    y.node.unchain()
    out += [y.creator is None, y.node.creator is None, y.rank]
    v = c.chainer.Variable(_a(2))
    v.node.data = None
    out.append(v.array)
    v2 = c.chainer.Variable(_a(2))
    v2.node.retain_data()
    out.append(v2.node.data is v2.array)
    return out


def grad_options(c):
    """chainer.grad with each of its options."""
    out = []

    def case(**kw):
        x = c.chainer.Variable(_a(3))
        h = x * x
        y = c.F.sum(h * 2)
        gxs = c.chainer.grad([y], [x], **kw)
        return [gxs, x.grad, h.grad, y.grad]

    for kw in (
        {},
        dict(grad_outputs=[c.chainer.Variable(numpy.array(3.0, numpy.float32))]),
        dict(grad_inputs=[c.chainer.Variable(numpy.ones(3, numpy.float32))]),
        dict(set_grad=True),
        dict(retain_grad=True),
        dict(retain_grad=True, set_grad=True),
        dict(enable_double_backprop=True),
        dict(loss_scale=4.0),
        dict(grad_outputs=[None]),
        dict(grad_inputs=[None]),
    ):
        out.append(attempt(lambda kw=kw: case(**kw)))
    return out


def grad_arguments(c):
    """What chainer.grad refuses."""
    x = c.chainer.Variable(_a(3))
    y = c.F.sum(x * x)
    g = c.chainer.Variable(numpy.array(1.0, numpy.float32))
    calls = [
        lambda: c.chainer.grad(y, [x]),
        lambda: c.chainer.grad([y], x),
        lambda: c.chainer.grad([y], [x], grad_outputs=g),
        lambda: c.chainer.grad([y], [x], grad_outputs=[g, g]),
        lambda: c.chainer.grad([y], [x], grad_inputs=g),
        lambda: c.chainer.grad([y], [x], grad_inputs=[g, g]),
        lambda: c.chainer.grad([], [x]),
        lambda: c.chainer.grad((y,), (x,)),
        lambda: c.chainer.backward(y),
        lambda: c.chainer.backward([y], g),
        lambda: c.chainer.backward([y], [g, g]),
        lambda: c.chainer.backward([y, x]),
    ]
    return [[attempt(f), first_line(f)] for f in calls]


def grad_of_no_inputs(c):
    """grad with no inputs: nothing to compute."""
    x = c.chainer.Variable(_a(3))
    y = c.F.sum(x * x)
    return attempt(lambda: c.chainer.grad([y], []))


def gradient_requires_grad(c):
    """Whether the gradients of a pass without double backprop require
    gradients themselves."""
    out = []
    for fn in (lambda x: x * x, lambda x: x * 2):
        x = c.chainer.Variable(_a(3))
        (gx,) = c.chainer.grad([c.F.sum(fn(x))], [x])
        c.F.sum(fn(x)).backward()
        out.append([gx.requires_grad, x.grad_var.requires_grad])
    return out


def grad_paths(c):
    """Only paths from the inputs to the outputs are walked; inputs not on
    one get None; an intermediate variable as the input."""
    x = c.chainer.Variable(_a(3))
    u = c.chainer.Variable(_a(3))
    h = x * 2
    y = c.F.sum(h * h) + c.F.sum(u)
    free = c.chainer.Variable(_a(3))
    return [
        attempt(lambda: c.chainer.grad([y], [x, free])),
        attempt(lambda: c.chainer.grad([y], [h])),
        attempt(lambda: c.chainer.grad([y], [h, x])),
        attempt(lambda: c.chainer.grad([y, h], [x])),
        attempt(lambda: c.chainer.grad([h], [x])),
        [x.grad, u.grad, h.grad],
    ]


def grad_double(c):
    """Second derivatives through grad and backward."""
    x = c.chainer.Variable(_a(3))
    y = c.F.sum(x * x * x)
    (gx,) = c.chainer.grad([y], [x], enable_double_backprop=True)
    (ggx,) = c.chainer.grad([c.F.sum(gx)], [x])
    x.cleargrad()
    y2 = c.F.sum(x * x * x)
    y2.backward(enable_double_backprop=True)
    gv = x.grad_var
    x.cleargrad()
    c.F.sum(gv).backward()
    return [gx, ggx, x.grad, gv.creator is not None]


PROBES = _values.probes(globals(), __name__)
