"""Links as programs hold them: names, copies, grads, serialization."""

import copy
import pickle

import numpy

from tools.surface_probes import _values


def _model_class(c):
    # one class per library, reachable as this module's attribute so that
    # pickle finds it
    name = 'Model_' + c.chainer.__name__
    if name not in globals():

        class M(c.chainer.Chain):
            def __init__(self):
                super().__init__()
                with self.init_scope():
                    self.l1 = c.L.Linear(3, 2)
                    self.l2 = c.L.Linear(None, 2)
                self.add_persistent('count', 0)

            def forward(self, x):
                return self.l2(self.l1(x))

        M.__name__ = M.__qualname__ = name
        globals()[name] = M
    return globals()[name]


def _model(c, call=True):
    numpy.random.seed(0)
    m = _model_class(c)()
    if call:
        m(numpy.ones((1, 3), numpy.float32))
    return m


def names(c):
    m = _model(c)
    return (
        sorted(n for n, _ in m.namedparams()),
        [n for n, _ in m.namedlinks()],
        [n for n, _ in m.namedlinks(skipself=True)],
        sorted(ch.name for ch in m.children()),
        m.count_params(),
        len(list(_model(c, call=False).params(include_uninit=False))),
    )


def copies(c):
    m = _model(c)
    out = []
    for mode in ('share', 'copy', 'init'):
        d = m.copy(mode=mode)
        out.append(
            [
                d.l1.W is m.l1.W,
                d.l1.W.array is m.l1.W.array,
                bool((d.l1.W.array == m.l1.W.array).all()),
                d.count,
            ]
        )
    m.count = 5
    d = copy.deepcopy(m)
    out.append([d.count, d.l1.W.array is m.l1.W.array, d.l1.name])
    p = pickle.loads(pickle.dumps(m))
    out.append(float(abs(p.l1.W.array - m.l1.W.array).max()))
    return out


def shared_writes(c):
    m = _model(c)
    d = m.copy(mode='share')
    d.l1.W.array[...] = 2
    d.count = 7
    return m.l1.W.array, m.count


def grads(c):
    m, n = _model(c), _model(c)
    for p in n.params():
        p.grad = numpy.ones_like(p.array)
    m.cleargrads()
    cleared = [p.grad for p in m.params()]
    m.addgrads(n)
    added = [p.grad for p in m.params()]
    m.zerograds()
    return cleared, added, [p.grad for p in m.params()]


def serialize_keys(c):
    m = _model(c)
    s = c.chainer.serializers.DictionarySerializer()
    m.serialize(s)
    return sorted(s.target)


def chain_list_and_sequential(c):
    numpy.random.seed(1)
    cl = c.chainer.ChainList(c.L.Linear(2, 2), c.L.Linear(2, 2))
    cl.append(c.L.Linear(2, 3))
    s = c.chainer.Sequential(c.L.Linear(3, 2), c.F.relu, c.L.Linear(2, 1))
    return (
        len(cl),
        [n for n, _ in cl.namedparams()],
        len(s),
        s(numpy.ones((1, 3), numpy.float32)),
    )


def update_switches(c):
    m = _model(c)
    m.disable_update()
    off = [p.update_rule is None or p.update_rule.enabled for p in m.params()]
    return off, m.update_enabled, m.within_init_scope, m.xp.__name__


PROBES = _values.probes(globals(), __name__)
