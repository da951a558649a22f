import os
import re
import shutil
import stat
import sys
import time

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import computational_graph as c
from chainerlite import function_node
from chainerlite.function_hooks import timer


# -- a tiny DOT reader for the subset dump() writes -------------------------
_QUOTED = r'"(?:[^"\\]|\\.)*"'
_STATEMENT_RE = re.compile(r'(\d+) \[((?:[^\]"]|%s)*)\];|(\d+) -> (\d+);' % _QUOTED)
_ATTR_RE = re.compile(r'(\w+)=(%s)' % _QUOTED)


def _unquote(text):
    return re.sub(
        r'\\(.)', lambda m: '\n' if m.group(1) == 'n' else m.group(1), text[1:-1]
    )


def parse_dot(text):
    """Returns (rankdir, {id: {attr: value}}, [(head_id, tail_id)])."""
    head = re.match(r'digraph graphname\{rankdir=(\w+);', text)
    assert head and text.endswith('}') and '\n' not in text.replace('\\n', '')
    rankdir = head.group(1)
    nodes, edges = {}, []
    body, at = text[head.end() : -1], 0
    while at < len(body):
        statement = _STATEMENT_RE.match(body, at)
        assert statement, body[at:]
        at = statement.end()
        if statement.group(1):
            attrs = statement.group(2)
            pairs = _ATTR_RE.findall(attrs)
            assert ','.join('%s=%s' % p for p in pairs) == attrs, attrs
            assert int(statement.group(1)) not in nodes
            nodes[int(statement.group(1))] = {k: _unquote(v) for k, v in pairs}
        else:
            edges.append((int(statement.group(3)), int(statement.group(4))))
    return rankdir, nodes, edges


# -- graphs -----------------------------------------------------------------
class Sleep(function_node.FunctionNode):
    def __init__(self, seconds):
        self.seconds = seconds

    def forward(self, inputs):
        time.sleep(self.seconds)
        return inputs

    def backward(self, indexes, grad_outputs):
        return grad_outputs


class Odd(function_node.FunctionNode):
    @property
    def label(self):
        return 'say "hi" {a|b} <c> \\d'

    def forward(self, inputs):
        return inputs

    def backward(self, indexes, grad_outputs):
        return grad_outputs


def _var(name=None, shape=(2, 3)):
    return chainerlite.Variable(numpy.ones(shape, numpy.float32), name=name)


@pytest.fixture
def small():
    """loss = sum(exp(x * W + b)), with every intermediate kept."""
    x, w, b = _var('x'), _var('W'), _var('b')
    h1 = x * w
    h2 = h1 + b
    h3 = F.exp(h2)
    loss = F.sum(h3)
    loss.name = 'loss'
    mul, add, exp, sum_ = (v.creator_node for v in (h1, h2, h3, loss))
    return dict(
        x=x,
        W=w,
        b=b,
        h1=h1,
        h2=h2,
        h3=h3,
        loss=loss,
        mul=mul,
        add=add,
        exp=exp,
        sum=sum_,
    )


def _ids(nodes):
    return {id(n) for n in nodes}


def _edge_ids(edges):
    return {(id(h), id(t)) for h, t in edges}


def _small_edges(g):
    v = {k: g[k].node for k in ('x', 'W', 'b', 'h1', 'h2', 'h3', 'loss')}
    return {
        (v['x'], g['mul']),
        (v['W'], g['mul']),
        (g['mul'], v['h1']),
        (v['h1'], g['add']),
        (v['b'], g['add']),
        (g['add'], v['h2']),
        (v['h2'], g['exp']),
        (g['exp'], v['h3']),
        (v['h3'], g['sum']),
        (g['sum'], v['loss']),
    }


# -- build_computational_graph ----------------------------------------------
def test_small_graph_nodes_and_edges(small):
    g = c.build_computational_graph([small['loss']])
    expected_nodes = [small[k].node for k in ('x', 'W', 'b', 'h1', 'h2', 'h3', 'loss')]
    expected_nodes += [small[k] for k in ('mul', 'add', 'exp', 'sum')]
    assert len(g.nodes) == 11
    assert _ids(g.nodes) == _ids(expected_nodes)
    assert len(g.edges) == 10
    assert _edge_ids(g.edges) == _edge_ids(_small_edges(small))


@pytest.mark.parametrize('kind', ['variable', 'node', 'tuple', 'function'])
def test_outputs_forms(small, kind):
    loss = small['loss']
    outputs = {
        'variable': loss,
        'node': loss.node,
        'tuple': (loss,),
        'function': small['sum'],
    }[kind]
    g = c.build_computational_graph(outputs)
    expected = _small_edges(small)
    if kind == 'function':
        expected.discard((small['sum'], loss.node))
    assert _edge_ids(g.edges) == _edge_ids(expected)


def test_outputs_of_wrong_type():
    with pytest.raises(TypeError, match='outputs must be'):
        c.build_computational_graph([numpy.ones(3)])


def test_only_backward_reachable_nodes():
    x = _var('x')
    y, z = F.exp(x), F.log(x)
    assert _ids(c.build_computational_graph([y]).nodes) == _ids(
        [x.node, y.node, y.creator_node]
    )
    assert _ids(c.build_computational_graph([y, z]).nodes) == _ids(
        [x.node, y.node, y.creator_node, z.node, z.creator_node]
    )


def test_repeated_input_gives_one_edge():
    x = _var('x')
    y = x * x
    g = c.build_computational_graph(y)
    assert _edge_ids(g.edges) == _edge_ids(
        [(x.node, y.creator_node), (y.creator_node, y.node)]
    )
    assert len(g.edges) == 2


def test_walk_stops_at_unchained_variable(small):
    small['h2'].unchain_backward()
    g = c.build_computational_graph(small['loss'])
    assert _ids(g.nodes) == _ids(
        [
            small['h2'].node,
            small['exp'],
            small['h3'].node,
            small['sum'],
            small['loss'].node,
        ]
    )


def test_leaf_output_alone():
    x = _var('x')
    g = c.build_computational_graph(x)
    assert _ids(g.nodes) == {id(x.node)} and g.edges == []


def test_remove_split_false_is_rejected(small):
    with pytest.raises(ValueError, match='remove_split'):
        c.build_computational_graph(small['loss'], remove_split=False)


def test_deep_chain_builds_without_recursion():
    h = x = _var('x', shape=(1,))
    for _ in range(100000):
        h = h + 1
    g = c.build_computational_graph(h)
    assert len(g.nodes) == 200001 and len(g.edges) == 200000
    text = g.dump()
    assert text.count(' [label=') == 200001 and text.count(' -> ') == 200000
    assert ';%d [label="x: (1), float32",' % id(x.node) in text
    g.remove_variable = True
    text = g.dump()
    assert text.count(' [label=') == 100000 and text.count(' -> ') == 99999


# -- dump -------------------------------------------------------------------
def test_dump_structure_and_labels(small):
    g = c.build_computational_graph(small['loss'])
    rankdir, nodes, edges = parse_dot(g.dump())
    assert rankdir == 'TB'
    assert set(nodes) == _ids(g.nodes)
    assert sorted(edges) == sorted(_edge_ids(_small_edges(small)))
    assert nodes[id(small['x'].node)] == {
        'label': 'x: (2, 3), float32',
        'shape': 'octagon',
        'fillcolor': '#E0E0E0',
        'style': 'filled',
    }
    assert nodes[id(small['h1'].node)]['label'] == '(2, 3), float32'
    assert nodes[id(small['loss'].node)]['label'] == 'loss: float32'
    assert nodes[id(small['exp'])] == {
        'label': small['exp'].label,
        'shape': 'record',
        'fillcolor': '#6495ED',
        'style': 'filled',
    }
    assert nodes[id(small['sum'])]['label'] == 'Sum'


def test_dump_without_names(small):
    g = c.build_computational_graph(small['loss'], show_name=False)
    _, nodes, _ = parse_dot(g.dump())
    assert nodes[id(small['x'].node)]['label'] == '(2, 3), float32'
    assert nodes[id(small['loss'].node)]['label'] == 'float32'
    assert not any(':' in attrs['label'] for attrs in nodes.values())


def test_dump_remove_variable(small):
    g = c.build_computational_graph(small['loss'], remove_variable=True)
    _, nodes, edges = parse_dot(g.dump())
    functions = [small[k] for k in ('mul', 'add', 'exp', 'sum')]
    assert set(nodes) == _ids(functions)
    assert sorted(edges) == sorted(
        (id(a), id(b)) for a, b in zip(functions, functions[1:])
    )
    assert len(g.nodes) == 11  # the graph itself keeps its variables


def test_dump_remove_variable_joins_branches():
    x = _var('x')
    y = F.exp(x)
    z = y * F.log(y)
    g = c.build_computational_graph(z, remove_variable=True)
    _, nodes, edges = parse_dot(g.dump())
    exp, mul = y.creator_node, z.creator_node
    log = mul.inputs[1].creator_node
    assert set(nodes) == _ids([exp, log, mul])
    assert sorted(edges) == sorted(_edge_ids([(exp, mul), (exp, log), (log, mul)]))


def test_plain_styles(small):
    g = c.build_computational_graph(
        small['loss'], variable_style=None, function_style=None, rankdir='LR'
    )
    rankdir, nodes, _ = parse_dot(g.dump())
    assert rankdir == 'LR'
    assert nodes[id(small['x'].node)] == {
        'label': 'x: (2, 3), float32',
        'shape': 'oval',
    }
    assert nodes[id(small['sum'])] == {'label': 'Sum', 'shape': 'box'}


def test_custom_styles(small):
    g = c.build_computational_graph(
        small['loss'],
        variable_style={'color': 'red', 'shape': 'box3d'},
        function_style={'fontname': 'Courier'},
    )
    _, nodes, _ = parse_dot(g.dump())
    assert nodes[id(small['x'].node)] == {
        'label': 'x: (2, 3), float32',
        'shape': 'box3d',
        'color': 'red',
    }
    assert nodes[id(small['sum'])] == {
        'label': 'Sum',
        'shape': 'box',
        'fontname': 'Courier',
    }


def test_bad_options(small):
    loss = small['loss']
    with pytest.raises(ValueError, match='rankdir'):
        c.build_computational_graph(loss, rankdir='XY')
    with pytest.raises(ValueError, match='variable_style'):
        c.build_computational_graph(loss, variable_style='fancy')
    with pytest.raises(TypeError, match='function_style'):
        c.build_computational_graph(loss, function_style=['shape'])
    with pytest.raises(NotImplementedError, match='dot'):
        c.build_computational_graph(loss).dump('png')


@pytest.mark.parametrize('style', [None, 'default'])
def test_labels_are_escaped(style):
    x = _var('x "1"')
    (y,) = Odd().apply((x,))
    g = c.build_computational_graph(y, function_style=style)
    text = g.dump()
    _, nodes, _ = parse_dot(text)
    assert nodes[id(x.node)]['label'] == 'x "1": (2, 3), float32'
    assert nodes[id(y.creator_node)]['label'] == 'say "hi" {a|b} <c> \\d'
    # a record label must escape the characters that split records
    assert ('\\{a\\|b\\} \\<c\\>' in text) == (style == 'default')


# -- render -----------------------------------------------------------------
def _fake_dot(directory, body):
    path = os.path.join(directory, 'dot')
    with open(path, 'w') as f:
        f.write('#!%s\n%s' % (sys.executable, body))
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
    return path


def test_render_without_dot(small, tmp_path, monkeypatch):
    monkeypatch.setenv('PATH', str(tmp_path))
    g = c.build_computational_graph(small['loss'])
    with pytest.raises(RuntimeError, match="Graphviz's 'dot' command"):
        g.render(str(tmp_path / 'graph.svg'))
    assert not (tmp_path / 'graph.svg').exists()


def test_render_calls_dot(small, tmp_path, monkeypatch):
    bindir = tmp_path / 'bin'
    bindir.mkdir()
    _fake_dot(
        str(bindir),
        (
            'import sys\n'
            'args = sys.argv[1:]\n'
            'out = args[args.index("-o") + 1]\n'
            'open(out, "w").write(" ".join(args) + "\\n" + sys.stdin.read())\n'
        ),
    )
    monkeypatch.setenv('PATH', str(bindir))
    g = c.build_computational_graph(small['loss'])
    out = tmp_path / 'graph.PNG'
    assert g.render(out) == str(out)
    args, dot_text = out.read_text().split('\n', 1)
    assert args == '-Tpng -o %s' % out
    assert dot_text == g.dump()
    g.render(tmp_path / 'graph.out', format='svg')
    assert (tmp_path / 'graph.out').read_text().startswith('-Tsvg ')


def test_render_reports_dot_failure(small, tmp_path, monkeypatch):
    _fake_dot(
        str(tmp_path),
        ('import sys\nsys.stderr.write("Format: bogus not recognized")\nsys.exit(1)\n'),
    )
    monkeypatch.setenv('PATH', str(tmp_path))
    g = c.build_computational_graph(small['loss'])
    with pytest.raises(RuntimeError, match='bogus not recognized'):
        g.render(str(tmp_path / 'graph.bogus'))


def test_render_needs_a_format(small, tmp_path):
    g = c.build_computational_graph(small['loss'])
    with pytest.raises(ValueError, match='format'):
        g.render(str(tmp_path / 'graph'))


@pytest.mark.skipif(shutil.which('dot') is None, reason='Graphviz dot is not installed')
@pytest.mark.parametrize('ext, magic', [('svg', b'<svg'), ('png', b'PNG')])
def test_render_with_graphviz(small, tmp_path, ext, magic):
    g = c.build_computational_graph(small['loss'])
    out = tmp_path / ('graph.' + ext)
    g.render(str(out))
    assert magic in out.read_bytes()[:1000]


# -- colouring by time ------------------------------------------------------
def _summary(**times):
    return {
        name: {'elapsed_time': t, 'occurrence': 2, 'self_time': t}
        for name, t in times.items()
    }


def _fill(nodes, fnode):
    return nodes[id(fnode)]['fillcolor']


def test_colorize_by_summary(small):
    g = c.build_computational_graph(small['loss'])
    assert g.colorize_by_time(_summary(Sum=0.004, Add=0.002)) is g
    _, nodes, _ = parse_dot(g.dump())
    assert _fill(nodes, small['sum']) == '#FF0000'
    assert _fill(nodes, small['add']) == '#FF8080'
    # the time per call is in the label
    assert nodes[id(small['sum'])]['label'] == 'Sum\n2ms'
    assert nodes[id(small['add'])]['label'] == small['add'].label + '\n1ms'
    assert nodes[id(small['add'])]['style'] == 'filled'
    # functions that were not measured keep the function style
    assert _fill(nodes, small['exp']) == '#6495ED'
    assert nodes[id(small['exp'])]['label'] == small['exp'].label
    g.colorize_by_time(None)
    _, nodes, _ = parse_dot(g.dump())
    assert _fill(nodes, small['sum']) == '#6495ED'


def test_colorize_scale_is_relative_to_graph(small):
    g = c.build_computational_graph(
        small['loss'],
        function_style=None,
        remove_variable=True,
        time_summary=_summary(Sum=0.0, Add=3e-6, Elsewhere=10.0),
    )
    _, nodes, _ = parse_dot(g.dump())
    assert _fill(nodes, small['add']) == '#FF0000'
    assert _fill(nodes, small['sum']) == '#FFFFFF'
    assert nodes[id(small['add'])]['label'] == small['add'].label + '\n1.5us'
    assert nodes[id(small['add'])]['style'] == 'filled'


def test_colorize_rejects_other_objects(small):
    g = c.build_computational_graph(small['loss'])
    with pytest.raises(TypeError, match='TimerHook'):
        g.colorize_by_time([('Sum', 1.0)])


def _red_fraction(fill):
    return 1 - int(fill[3:5], 16) / 255


def test_colorize_by_timer_hook():
    x = _var('x')
    with timer.TimerHook() as hook:
        y = F.exp(x)
        (z,) = Sleep(0.05).apply((y,))
        loss = F.sum(z)
    g = c.build_computational_graph(loss, time_summary=hook)
    _, nodes, _ = parse_dot(g.dump())
    fills = {
        fnode.label: _fill(nodes, fnode)
        for fnode in (y.creator_node, z.creator_node, loss.creator_node)
    }
    assert fills['Sleep'] == '#FF0000'
    assert _red_fraction(fills['Sum']) < 0.5
    assert _red_fraction(fills[y.creator_node.label]) < 0.5
    assert nodes[id(z.creator_node)]['label'].startswith('Sleep\n')
    assert nodes[id(z.creator_node)]['label'].endswith('ms')


def test_dot_node_of_a_variable_and_a_function():
    x = chainerlite.Variable(numpy.ones((2, 3), numpy.float32), name='x')
    y = chainerlite.functions.relu(x)
    node = c.DotNode(x.node)
    assert node.id_ == id(x.node)
    assert node.label == '%d [label="x: (2, 3), float32",shape="oval"];' % id(x.node)
    unnamed = c.DotNode(x.node, show_name=False)
    assert unnamed.label == '%d [label="(2, 3), float32",shape="oval"];' % id(x.node)
    styled = c.DotNode(y.creator_node, {'shape': 'record', 'color': 'red'})
    assert styled.label == '%d [label="ReLU",shape="record",color="red"];' % id(
        y.creator_node
    )
    with pytest.raises(TypeError, match='DotNode'):
        c.DotNode(x)


def test_dump_is_one_line_as_chainer_writes_it():
    x = chainerlite.Variable(numpy.ones(2, numpy.float32))
    y = F.exp(x)
    text = c.build_computational_graph([y], rankdir='LR').dump()
    assert text.startswith('digraph graphname{rankdir=LR;')
    assert '\n' not in text and text.endswith(';}')
    assert '%d -> %d;' % (id(x.node), id(y.creator)) in text
