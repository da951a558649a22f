"""Link's object model: registration by init_scope and add_param, the
persistent values, the walks over a hierarchy and what each method does to
the parameters it reaches."""

import copy
import pickle
import warnings

import numpy

from tools.surface_probes import _values

_try = _values.attempt


def _registry(link):
    """What a link holds, as its public methods answer it."""
    s = {}
    link.serialize(_KeySerializer(s))
    return [
        [n for n, _ in link.namedparams()],
        [n for n, _ in link.namedlinks()],
        sorted(s),
    ]


class _KeySerializer:
    """A serializer that only records the keys it is asked for."""

    def __init__(self, keys, prefix='/'):
        self.keys, self.prefix = keys, prefix

    def __getitem__(self, name):
        return _KeySerializer(self.keys, self.prefix + name + '/')

    def __call__(self, name, value):
        self.keys[self.prefix + name] = type(value).__name__
        return value


def init_scope_registration(c):
    ch = c.chainer
    m = ch.Chain()
    with m.init_scope():
        m.p = ch.Parameter(numpy.zeros(2, numpy.float32))
        m.v = ch.Variable(numpy.zeros(2, numpy.float32))
        m.child = c.L.Linear(2, 2)
        m.number = 3
        m.arr = numpy.ones(2)
    m.outside_p = ch.Parameter(numpy.zeros(3, numpy.float32))
    m.outside_l = c.L.Linear(3, 3)
    return (
        _registry(m),
        m.p.name,
        m.child.name,
        m.outside_p.name,
        m.outside_l.name,
        m.within_init_scope,
    )


def init_scope_nesting(c):
    m = c.chainer.Link()
    seen = [m.within_init_scope]
    with m.init_scope():
        seen.append(m.within_init_scope)
        with m.init_scope():
            seen.append(m.within_init_scope)
        seen.append(m.within_init_scope)
    seen.append(m.within_init_scope)
    try:
        with m.init_scope():
            raise KeyError('x')
    except KeyError:
        pass
    seen.append(m.within_init_scope)
    return seen


def init_without_super(c):
    class Bad(c.chainer.Link):
        def __init__(self):
            pass

        def forward(self, x):
            return x

    def scope():
        with Bad().init_scope():
            pass

    return [_try(scope), _try(lambda: Bad()(1))]


def delete_attributes(c):
    ch = c.chainer
    m = ch.Chain()
    with m.init_scope():
        m.p = ch.Parameter(numpy.zeros(2, numpy.float32))
        m.q = ch.Parameter(numpy.zeros(2, numpy.float32))
        m.l1 = c.L.Linear(2, 2)
        m.l2 = c.L.Linear(2, 2)
    m.add_persistent('s', 1)
    m.add_persistent('t', 2)
    del m.p, m.l1, m.s
    out = [_registry(m), hasattr(m, 'p'), hasattr(m, 'l1')]
    out.append(_try(lambda: delattr(m, 'nothing')))
    return out


def reassign_names(c):
    ch = c.chainer
    m = ch.Chain()
    with m.init_scope():
        m.p = ch.Parameter(numpy.zeros(2, numpy.float32))
        m.l = c.L.Linear(2, 2)
    out = []
    with m.init_scope():
        # another Parameter under the same name replaces the first
        m.p = ch.Parameter(numpy.ones(3, numpy.float32))
        out.append(_try(lambda: setattr(m, 'l', c.L.Linear(3, 3))))
        out.append(_try(lambda: setattr(m, 'p2', c.L.Linear(3, 3))))
        # a plain value over a parameter's name
        m.q = ch.Parameter(numpy.ones(1, numpy.float32))
        m.q = 5
    out.append(m.p.array)
    out.append(_try(lambda: _registry(m)))
    out.append([n for n, _ in m.namedparams()])
    m.p = 7  # outside the scope: only the attribute
    out.append(_try(lambda: list(m.namedparams())))
    return out


def add_param_forms(c):
    ch, I = c.chainer, c.I
    m = ch.Link()
    m.add_param('a', (2, 3))
    m.add_param('b', 4, dtype=numpy.float64)
    m.add_param('c', (2,), initializer=I.Constant(3))
    m.add_param('d', (2,), initializer=numpy.arange(2, dtype=numpy.float16))
    m.add_param('e')
    m.add_param('f', (3,), initializer=2.5)
    m.add_param('g', (2,), dtype=numpy.float16, initializer=I.One())
    out = [
        [
            (n, p.shape if p.array is not None else None, str(p.dtype), p.array)
            for n, p in m.namedparams()
        ],
        m.e.initializer is None,
        type(m.e.initializer).__name__,
    ]
    out.append(_try(lambda: m.add_param('a', (2,))))
    m.plain = 1
    out.append(_try(lambda: m.add_param('plain', (2,))))
    return out


def link_kwargs_params(c):
    m = c.chainer.Link(x=(2, 3), y=(4, numpy.float64), z=3, w=((2,), numpy.float16))
    out = [
        [
            (n, p.shape, str(p.dtype), int(numpy.isnan(p.array).sum()))
            for n, p in m.namedparams()
        ]
    ]
    out.append(_try(lambda: c.chainer.Link(bad='nope')))
    return out


def persistent_values(c):
    ch = c.chainer
    m = ch.Link()
    with m.init_scope():
        m.w = ch.Parameter(numpy.zeros(2, numpy.float32))
    m.add_persistent('count', 0)
    m.add_persistent('arr', numpy.arange(3.0))
    m.add_persistent('none', None)
    out = [_registry(m)]
    out.append(_try(lambda: m.add_persistent('count', 1)))
    out.append(_try(lambda: m.add_persistent('w', 1)))
    m.other = numpy.ones(2)
    m.register_persistent('other')
    out.append(_try(lambda: m.register_persistent('missing')))
    m.register_persistent('w')  # a parameter becomes a persistent
    out.append(_registry(m))
    with m.init_scope():
        m.count = ch.Parameter(numpy.zeros(1, numpy.float32))
    out.append(_registry(m))
    return out


def params_uninit(c):
    ch = c.chainer
    m = ch.Chain(a=c.L.Linear(None, 2), b=c.L.Linear(2, 3))
    with m.init_scope():
        m.u = ch.Parameter()
    return [
        [n for n, _ in m.namedparams()],
        [n for n, _ in m.namedparams(include_uninit=False)],
        len(list(m.params())),
        len(list(m.params(include_uninit=False))),
        [p.shape for p in m.params(include_uninit=False)],
    ]


def walk_order(c):
    ch, L = c.chainer, c.L
    m = ch.Chain()
    with m.init_scope():
        m.zeta = L.Linear(1, 1)
        m.alpha = ch.Chain()
        with m.alpha.init_scope():
            m.alpha.y = L.Linear(1, 1)
            m.alpha.x = ch.ChainList(L.Linear(1, 1), L.Linear(1, 1))
        m.mid = ch.Parameter(numpy.zeros(1, numpy.float32))
    return [
        [n for n, _ in m.namedlinks()],
        [n for n, _ in m.namedlinks(skipself=True)],
        [type(x).__name__ for x in m.links()],
        [type(x).__name__ for x in m.links(skipself=True)],
        [x.name for x in m.children()],
        [n for n, _ in m.namedparams()],
        [p.name for p in m.params()],
        [x.name for x in m.alpha.x.children()],
        [n for n, _ in m.alpha.x.namedlinks()],
    ]


def _pair(c):
    ch = c.chainer

    class Net(ch.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.l = c.L.Linear(2, 2)
                self.bn = c.L.BatchNormalization(2)
                self.w = ch.Parameter(numpy.zeros(2, numpy.float32))
            self.add_persistent('step', 0)
            self.add_persistent('buf', numpy.zeros(2, numpy.float32))

    numpy.random.seed(3)
    a = Net()
    b = Net()
    b.l.W.array[...] = 5
    b.w.array[...] = 6
    b.bn.avg_mean[...] = 7
    b.step = 9
    b.buf[...] = 8
    b.l.W.grad = numpy.ones((2, 2), numpy.float32)
    return a, b


def copyparams_modes(c):
    out = []
    for persist in (True, False):
        a, b = _pair(c)
        buf, mean = a.buf, a.bn.avg_mean
        a.copyparams(b, copy_persistent=persist)
        out.append(
            [
                a.l.W.array,
                a.w.array,
                a.bn.avg_mean,
                a.step,
                a.buf,
                a.buf is buf,
                a.bn.avg_mean is mean,
                a.l.W.grad,
                a.l.W.array is b.l.W.array,
            ]
        )
    return out


def copyparams_mismatch(c):
    a, _ = _pair(c)
    other = c.L.Linear(3, 3)
    return [
        _try(lambda: a.copyparams(other)),
        _try(lambda: c.L.Linear(2, 2).copyparams(c.L.Linear(3, 3))),
    ]


def addgrads_cases(c):
    a, b = _pair(c)
    out = []
    a.cleargrads()
    b.cleargrads()
    b.l.W.grad = numpy.full((2, 2), 2, numpy.float32)
    a.addgrads(b)
    out.append([p.grad for p in a.params()])
    a.addgrads(b)
    out.append([p.grad for p in a.params()])
    u, v = c.L.Linear(None, 2), c.L.Linear(None, 2)
    out.append(_try(lambda: u.addgrads(v)))
    return out


def clear_and_zero(c):
    a, _ = _pair(c)
    out = [[p.grad for p in a.params()]]
    a.zerograds()
    out.append([p.grad for p in a.params()])
    a.cleargrads()
    out.append([p.grad for p in a.params()])
    lazy = c.L.Linear(None, 2)
    lazy.zerograds()
    out.append([_try(lambda p=p: p.grad) for p in lazy.params()])
    lazy.cleargrads()
    out.append([_try(lambda p=p: p.grad) for p in lazy.params()])
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        a.zerograds()
    out.append(sorted({x.category.__name__ for x in w}))
    return out


def update_switches(c):
    a, _ = _pair(c)
    out = [a.update_enabled]
    opt = c.O.SGD(lr=1)
    opt.setup(a)
    out.append(a.update_enabled)
    a.l.disable_update()
    out.append([p.update_rule.enabled for p in a.params()])
    out.append(a.update_enabled)
    a.disable_update()
    out.append(a.update_enabled)
    a.bn.enable_update()
    out.append([p.update_rule.enabled for p in a.params()])
    out.append(a.update_enabled)
    a.cleargrads()
    for p in a.params():
        p.grad = numpy.ones_like(p.array)
    opt.update()
    out.append([p.array for p in a.params()])
    out.append([p.update_rule.t for p in a.params()])
    return out


def update_switch_without_rules(c):
    link = c.L.Linear(2, 2)
    link.disable_update()
    out = [link.update_enabled, [p.update_rule for p in link.params()]]
    opt = c.O.SGD()
    opt.setup(link)
    out.append([p.update_rule.enabled for p in link.params()])
    return out


def count_params_cases(c):
    ch = c.chainer
    m = ch.Chain(a=c.L.Linear(None, 2), b=c.L.Linear(3, 4))
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        n = m.count_params()
    out = [n, [(x.category.__name__, str(x.message)) for x in w]]
    m.a(numpy.ones((1, 5), numpy.float32))
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        out.append(m.count_params())
    out.append(len(w))
    out.append(ch.Link().count_params())
    return out


def repeat_modes(c):
    numpy.random.seed(4)
    base = c.L.Linear(2, 2)
    out = []
    for mode in ('init', 'copy', 'share'):
        numpy.random.seed(5)
        seq = base.repeat(3, mode=mode)
        out.append(
            [
                type(seq).__name__,
                len(seq),
                [x.name for x in seq],
                [x is base for x in seq],
                [x.W.array is base.W.array for x in seq],
                [x.W.array for x in seq],
            ]
        )
    out.append(len(base.repeat(0)))
    out.append(len(base.repeat(-2, mode='bad')))
    out.append(_try(lambda: base.repeat(2, mode='bad')))
    return out


def copy_init_draws(c):
    numpy.random.seed(6)
    ch = c.chainer
    m = ch.Chain()
    with m.init_scope():
        # one child on each level: Chainer's order is then its own
        m.a = ch.ChainList(c.L.Linear(2, 2))
        m.p = ch.Parameter(c.I.Normal(), (2,))
    numpy.random.seed(7)
    d = m.copy(mode='init')
    return [p.array for p in d.params()], [n for n, _ in d.namedlinks()]


def copy_modes_chain_list(c):
    ch = c.chainer
    cl = ch.ChainList(c.L.Linear(2, 2))
    with cl.init_scope():
        cl.own = ch.Parameter(numpy.zeros(2, numpy.float32))
    out = []
    for mode in ('share', 'copy', 'init'):
        d = cl.copy(mode=mode)
        out.append(
            [
                d.own is cl.own,
                d.own.array is cl.own.array,
                d[0].W.array is cl[0].W.array,
                d[0].name,
                d.name,
            ]
        )
    out.append(_try(lambda: cl.copy(mode='deep')))
    out.append(_try(lambda: c.L.Linear(2, 2).copy(mode='deep')))
    return out


def copy_share_grads(c):
    a, _ = _pair(c)
    a.l.W.grad = numpy.ones((2, 2), numpy.float32)
    d = a.copy()
    return [
        d.l.W.grad,
        a.l.W.grad,
        d.name,
        d.l.name,
        d.l.W.name,
        d.step,
        d.buf is a.buf,
    ]


def deepcopy_and_pickle_uninit(c):
    m = c.L.Linear(None, 3)
    d = copy.deepcopy(m)
    p = pickle.loads(pickle.dumps(m))
    out = []
    for x in (d, p):
        out.append(
            [
                x.W.array is None,
                _try(lambda x=x: x.W.grad),
                x.W.shape if x.W.array is not None else None,
                type(x.W.initializer).__name__,
            ]
        )
        numpy.random.seed(8)
        out.append(x(numpy.ones((2, 4), numpy.float32)))
    return out


def call_and_forward(c):
    ch = c.chainer

    class Twice(ch.Link):
        def forward(self, x, k=1):
            return x * 2 * k

    class NoForward(ch.Link):
        pass

    t = Twice()
    return [t(3), t(3, k=2), t.forward(4), _try(lambda: NoForward()(1))]


def local_link_hooks(c):
    ch = c.chainer
    calls = []

    class Hook(ch.LinkHook):
        name = 'rec'

        def added(self, link):
            calls.append(('added', type(link).__name__ if link else None))

        def deleted(self, link):
            calls.append(('deleted', type(link).__name__ if link else None))

        def forward_preprocess(self, args):
            calls.append(('pre', args.forward_name, len(args.args)))

        def forward_postprocess(self, args):
            calls.append(('post', args.forward_name, args.out.shape))

    numpy.random.seed(9)
    link = c.L.Linear(2, 2)
    out = [link.add_hook(Hook()) is link]
    out.append(list(link.local_link_hooks))
    out.append(_try(lambda: link.add_hook(Hook())))
    link.add_hook(Hook(), name='second')
    out.append(list(link.local_link_hooks))
    link(numpy.ones((1, 2), numpy.float32))
    link.delete_hook('rec')
    out.append(_try(lambda: link.delete_hook('rec')))
    out.append(_try(lambda: link.add_hook(object())))
    link(numpy.ones((1, 2), numpy.float32))
    out.append(calls)
    return out


def global_link_hook(c):
    ch = c.chainer
    calls = []

    class Hook(ch.LinkHook):
        def forward_preprocess(self, args):
            calls.append(('pre', type(args.link).__name__))

        def forward_postprocess(self, args):
            calls.append(('post', type(args.link).__name__))

    m = ch.Sequential(c.L.Linear(2, 2), c.F.relu)
    with Hook() as h:
        m(numpy.ones((1, 2), numpy.float32))
        name = h.name
    m(numpy.ones((1, 2), numpy.float32))
    return calls, name


def device_and_xp(c):
    m = c.L.Linear(2, 2)
    m.add_persistent('buf', numpy.zeros(2))
    out = [str(m.device), m.xp.__name__]
    out.append(m.to_cpu() is m)
    out.append(m.to_device('@numpy') is m)
    out.append(str(m.device))
    out.append(type(m.buf).__name__)
    out.append(_try(lambda: m.to_device('@nothing')))
    return out


def str_forms(c):
    ch = c.chainer
    m = ch.Chain()
    with m.init_scope():
        m.b = c.L.Linear(2, 3)
        m.a = ch.ChainList(c.L.Linear(3, 4, nobias=True))
    return [str(m), str(ch.Link()), str(ch.Chain()), str(ch.ChainList())]


def serialize_nested(c):
    ch = c.chainer
    m = ch.Chain()
    with m.init_scope():
        m.l = ch.ChainList(c.L.Linear(2, 2), c.L.BatchNormalization(2))
        m.u = c.L.Linear(None, 2)
    m.add_persistent('epoch', 3)
    s = ch.serializers.DictionarySerializer()
    m.serialize(s)
    return {k: v for k, v in s.target.items()}


def mixin_call(c):
    # a __call__ further along the method order is called in forward's place
    ch = c.chainer

    class CallMixin:
        def __call__(self, x):
            return ('mixin', x)

    class Mixed(ch.Link, CallMixin):
        def forward(self, x):
            return ('forward', x)

    class Plain(ch.Link):
        def forward(self, x):
            return ('forward', x)

    class OwnCall(ch.Chain):
        def __call__(self, x):
            return ('own', x)

    return [Mixed()(1), Plain()(2), OwnCall()(3)]


def device_methods(c):
    m = c.L.Linear(2, 2)
    out = [_try(lambda: m.to_gpu()), _try(lambda: m.to_chx())]
    out.append(_try(lambda: m.from_chx() is m))
    out.append(_try(lambda: m.to_intel64() is m))
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        out.append(_try(lambda: m._device_id))
    out.append(sorted({x.category.__name__ for x in w}))
    out.append(type(m.device).__name__)
    return out


def chain_list_bad_children(c):
    ch = c.chainer
    cl = ch.ChainList(c.L.Linear(1, 1), c.L.Linear(1, 2))
    out = [_try(lambda: ch.ChainList(3))]
    # (Chainer's list keeps the int it refused: a list of its own)
    out.append(_try(lambda: ch.ChainList().append(3)))
    cl.insert(-1, c.L.Linear(1, 3))
    cl.insert(100, c.L.Linear(1, 4))
    out.append([(x.name, x.out_size) for x in cl])
    out.append([x.out_size for x in cl[1:]])
    out.append(type(cl[1:]).__name__)
    return out


def overridden_to_cpu(c):
    # old code moves its own arrays in an overridden to_cpu/to_gpu: Chainer
    # calls it when a parent is moved, also by to_device
    ch = c.chainer
    log = []

    class Custom(ch.Link):
        def __init__(self):
            super().__init__()
            self.extra = numpy.zeros(2)

        def to_cpu(self):
            log.append('to_cpu')
            return super().to_cpu()

    m = ch.Chain()
    with m.init_scope():
        m.c = Custom()
        m.l = c.L.Linear(2, 2)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        out = [m.to_cpu() is m]
        out.append(list(log))
        m.to_device('@numpy')
        out.append(list(log))
        m.c.to_cpu()
        out.append(list(log))
    out.append(sorted({x.category.__name__ for x in w}))
    return out


def serialize_into_placeholder(c):
    ch = c.chainer
    m = ch.Link()
    m.add_param('y')
    m.add_param('z', initializer=c.I.Constant(1, dtype=numpy.float64))
    data = {'y': numpy.arange(6.0).reshape(2, 3), 'z': numpy.ones(2, numpy.float32)}
    m.serialize(ch.serializers.NpzDeserializer(data))
    return [m.y.array, m.z.array, m.y.grad is None, _try(lambda: m.z.grad)]


def copies_keep_local_hooks(c):
    ch = c.chainer

    class Hook(ch.LinkHook):
        def __init__(self, name):
            self.name = name

    link = c.L.Linear(2, 2)
    link.add_hook(Hook('a'))
    out = []
    for mode in ('share', 'copy', 'init'):
        d = link.copy(mode)
        out.append(list(d.local_link_hooks))
        d.add_hook(Hook(mode))
        out.append(list(link.local_link_hooks))
    return out


class _Answering:
    """A serializer (as tests mock one) that records its calls and answers
    every one with ``answer``."""

    def __init__(self, answer, log=None, path=''):
        self.answer, self.log, self.path = answer, [] if log is None else log, path

    def __getitem__(self, name):
        return _Answering(self.answer, self.log, self.path + name + '/')

    def __call__(self, name, value):
        self.log.append((self.path + name, type(value).__name__))
        return self.answer


def serialize_with_answering_serializer(c):
    ch = c.chainer
    m = ch.Chain()
    with m.init_scope():
        m.x = ch.Parameter(numpy.zeros((2, 3), numpy.float32))
        m.child = c.L.Linear(2, 2)
    m.add_persistent('z', 1)
    s = _Answering(3)
    out = [_try(lambda: m.serialize(s))]
    out.append(sorted(s.log))
    out.append([m.x.array, m.z, m.child.W.array])
    with m.init_scope():
        m.u = ch.Parameter()
    # an answer that is no array for an uninitialised parameter
    out.append(_try(lambda: m.serialize(_Answering(3))))
    arr = _Answering(numpy.full((2, 2), 5, numpy.float64))
    lazy = ch.Link()
    with lazy.init_scope():
        lazy.u = ch.Parameter()
    lazy.serialize(arr)
    out.append([lazy.u.array, _try(lambda: lazy.u.grad)])
    return out


PROBES = _values.probes(globals(), __name__)
