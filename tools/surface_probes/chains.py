"""Chain, ChainList and Sequential as containers: indexing, the list
methods, the names their children get and the keys they serialize."""

import pickle
import re

import numpy

from tools.surface_probes import _values

_try = _values.attempt


def _lin(c, n):
    # a link told apart by its output size
    return c.L.Linear(1, n)


def _layout(seq):
    """Each layer by what tells it apart, the children's names and the
    parameter paths with the output size each leads to."""
    return [
        [getattr(x, 'out_size', getattr(x, '__name__', None)) for x in seq],
        [getattr(x, 'name', None) for x in seq],
        [(n, p.shape[0]) for n, p in seq.namedparams() if n.endswith('W')],
    ]


def chain_getitem(c):
    ch = c.chainer
    m = ch.Chain(a=_lin(c, 2))
    m.plain = 4
    return [
        m['a'].out_size,
        m['plain'],
        _try(lambda: m['missing']),
        _try(lambda: m[0]),
        m.a.name,
        _try(lambda: m.add_link('a', _lin(c, 3))),
        _try(lambda: m.add_link('b', 3)),
        _try(lambda: ch.Chain(x=3)),
    ]


def chain_list_methods(c):
    ch = c.chainer
    cl = ch.ChainList(_lin(c, 1), _lin(c, 2))
    cl.append(_lin(c, 3))
    cl.add_link(_lin(c, 4))
    cl.insert(1, _lin(c, 5))
    cl.insert(0, _lin(c, 6))
    out = [_layout(cl), len(cl), [x.out_size for x in cl[1:3]], cl[-1].out_size]
    cl[2] = _lin(c, 7)
    out.append(_layout(cl))
    del cl[0]
    out.append(_layout(cl))
    cl[0:2] = [_lin(c, 8)]
    out.append(_layout(cl))
    del cl[-2:]
    out.append(_layout(cl))
    out.append(_try(lambda: cl['x']))
    out.append(_try(lambda: cl.__setitem__('x', _lin(c, 1))))
    out.append(_try(lambda: cl[10]))
    return out


def chain_list_sequence_mixins(c):
    ch = c.chainer
    a, b = _lin(c, 1), _lin(c, 2)
    cl = ch.ChainList(a, b)
    cl.extend([_lin(c, 3), _lin(c, 4)])
    cl.reverse()
    out = [_layout(cl), cl.index(a), cl.count(b), a in cl]
    out.append(cl.pop().out_size)
    cl.remove(b)
    out.append(_layout(cl))
    cl += [_lin(c, 9)]
    out.append(_layout(cl))
    out.append(list(reversed([x.out_size for x in cl])))
    return out


def chain_list_scope(c):
    ch = c.chainer
    cl = ch.ChainList()
    out = []

    def assign():
        with cl.init_scope():
            cl.child = _lin(c, 2)

    out.append(_try(assign))
    with cl.init_scope():
        cl.p = ch.Parameter(numpy.zeros(2, numpy.float32))
    cl.outside = _lin(c, 3)
    out.append([n for n, _ in cl.namedparams()])
    out.append(len(cl))
    return out


def chain_list_serialize(c):
    ch = c.chainer
    cl = ch.ChainList(_lin(c, 2), ch.ChainList(_lin(c, 3)))
    s = ch.serializers.DictionarySerializer()
    cl.serialize(s)
    return sorted(s.target), [n for n, _ in cl.namedlinks()]


def sequential_names(c):
    ch, F = c.chainer, c.F
    out = []
    for layers in (
        [_lin(c, 1), _lin(c, 2), _lin(c, 3), _lin(c, 4)],
        [_lin(c, 1), F.relu, _lin(c, 2), F.relu, _lin(c, 3)],
        [F.relu, _lin(c, 1), _lin(c, 2)],
    ):
        out.append(_layout(ch.Sequential(*layers)))
    return out


def sequential_serialize(c):
    numpy.random.seed(0)
    ch = c.chainer
    s = ch.Sequential(_lin(c, 1), c.F.relu, _lin(c, 2), _lin(c, 3))
    d = ch.serializers.DictionarySerializer()
    s.serialize(d)
    return {k: v for k, v in d.target.items()}


def sequential_insert_remove(c):
    ch, F = c.chainer, c.F
    s = ch.Sequential(_lin(c, 1), F.relu, _lin(c, 2))
    out = [_layout(s)]
    s.insert(1, _lin(c, 3))
    out.append(_layout(s))
    s.insert(-1, F.tanh)
    out.append(_layout(s))
    s.insert(len(s), _lin(c, 4))
    out.append(_layout(s))
    out.append(_try(lambda: s.insert(10, F.relu)))
    out.append(_try(lambda: s.insert(0, 3)))
    s.remove(F.relu)
    out.append(_layout(s))
    out.append(_try(lambda: s.remove(F.sigmoid)))
    out.append(s.pop().out_size)
    out.append(s.pop(0).out_size)
    out.append(_layout(s))
    return out


def sequential_setitem_delitem(c):
    ch, F = c.chainer, c.F
    s = ch.Sequential(_lin(c, 1), F.relu, _lin(c, 2), _lin(c, 3))
    s[1] = _lin(c, 4)
    out = [_layout(s)]
    s[0] = F.tanh
    out.append(_layout(s))
    out.append(_try(lambda: s.__setitem__(9, F.relu)))
    out.append(_try(lambda: s.__setitem__(0, 5)))
    del s[-1]
    out.append(_layout(s))
    del s[1]
    out.append(_layout(s))
    return out


def sequential_slicing(c):
    ch, F = c.chainer, c.F
    s = ch.Sequential(_lin(c, 1), F.relu, _lin(c, 2), F.tanh)
    part = s[1:3]
    return [
        type(part).__name__,
        [getattr(x, 'out_size', getattr(x, '__name__', None)) for x in part],
        [getattr(x, 'out_size', None) for x in s[::-1]],
        s[-1] is F.tanh,
    ]


def sequential_add_mul(c):
    ch, F = c.chainer, c.F
    a = ch.Sequential(_lin(c, 1), F.relu)
    b = ch.Sequential(_lin(c, 2))
    out = [_layout(a + b), len(a), len(b)]
    a += b
    out.append(_layout(a))
    out.append(_try(lambda: a + [F.relu]))
    out.append(_try(lambda: a * 2))
    out.append(_try(lambda: a.__iadd__(F.relu)))
    a.extend(ch.Sequential(F.tanh))
    out.append(_layout(a))
    return out


def sequential_count_index(c):
    ch, F = c.chainer, c.F
    x = _lin(c, 1)
    s = ch.Sequential(x, F.relu, _lin(c, 2), F.relu, c.L.BatchNormalization(2))
    return [
        s.count(F.relu),
        s.count(F.tanh),
        s.index(F.relu),
        s.index(x),
        _try(lambda: s.index(F.tanh)),
        s.count_by_layer_type('relu'),
        s.count_by_layer_type('Linear'),
        s.count_by_layer_type('BatchNormalization'),
        F.relu in s,
        F.tanh in s,
    ]


def sequential_remove_by_type(c):
    ch, F = c.chainer, c.F
    s = ch.Sequential(_lin(c, 1), F.relu, _lin(c, 2), F.relu, F.tanh, _lin(c, 3))
    s.remove_by_layer_type('relu')
    out = [_layout(s)]
    s.remove_by_layer_type('Linear')
    out.append(_layout(s))
    s.remove_by_layer_type('nothing')
    out.append(_layout(s))
    return out


def sequential_flatten(c):
    ch, F = c.chainer, c.F
    inner = ch.Sequential(_lin(c, 2), F.relu, ch.Sequential(_lin(c, 3)))
    s = ch.Sequential(_lin(c, 1), inner, F.tanh)
    flat = s.flatten()
    return [len(s), [n for n, _ in s.namedparams()], _layout(flat), flat[0] is s[0]]


def sequential_copy(c):
    ch, F = c.chainer, c.F
    numpy.random.seed(2)
    s = ch.Sequential(_lin(c, 2), F.relu, _lin(c, 3))
    out = []
    for mode in ('share', 'copy', 'init'):
        d = s.copy(mode)
        out.append(
            [
                type(d).__name__,
                _layout(d),
                d[0] is s[0],
                d[1] is s[1],
                d[0].W.array is s[0].W.array,
            ]
        )
    return out


def sequential_copyparams(c):
    ch, F = c.chainer, c.F
    numpy.random.seed(2)
    a = ch.Sequential(_lin(c, 2), F.relu)
    b = ch.Sequential(_lin(c, 2), F.relu)
    b[0].W.array[...] = 3
    a.copyparams(b)
    return [a[0].W.array.copy(), _try(lambda: a.copyparams(ch.ChainList(_lin(c, 2))))]


def sequential_call(c):
    ch, F = c.chainer, c.F
    numpy.random.seed(2)
    s = ch.Sequential(
        c.L.Linear(3, 2), F.relu, lambda h: (h, h * 2), lambda a, b: a + b
    )
    x = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    return [
        s(x),
        _try(lambda: ch.Sequential()(x)),
        _try(lambda: ch.Sequential(F.relu)(x, x)),
    ]


def sequential_str(c):
    ch, F = c.chainer, c.F
    s = ch.Sequential(c.L.Linear(2, 3), F.relu, ch.Sequential(c.L.Linear(3, 1)))
    # (a function shows its address, which differs between processes)
    return [re.sub('0x[0-9a-f]+', '0x', str(s)), str(ch.Sequential())]


def sequential_pickle(c):
    ch, F = c.chainer, c.F
    numpy.random.seed(2)
    s = ch.Sequential(c.L.Linear(2, 3), F.relu)
    t = pickle.loads(pickle.dumps(s))
    out = [_layout(t), t[0].W.array]
    out.append(_try(lambda: pickle.dumps(ch.Sequential(lambda x: x))))
    return out


def sequential_shared_layer(c):
    ch = c.chainer
    x = _lin(c, 2)
    s = ch.Sequential(x, x, _lin(c, 3))
    return [_layout(s), len(list(s.params())), len(list(s.children()))]


def sequential_negative_setitem(c):
    ch, F = c.chainer, c.F
    s = ch.Sequential(_lin(c, 1), F.relu, _lin(c, 2))
    s[-1] = _lin(c, 3)
    return _layout(s)


def sequential_clear_and_slices(c):
    ch, F = c.chainer, c.F
    s = ch.Sequential(_lin(c, 1), F.relu, _lin(c, 2), _lin(c, 3))
    out = [_try(lambda: s.__delitem__(slice(0, 2)))]
    out.append(_try(lambda: s.__setitem__(slice(0, 1), [F.relu])))
    out.append(_layout(s))
    s.clear()
    out.append([len(s), len(list(s.children())), _layout(s)])
    return out


PROBES = _values.probes(globals(), __name__)
