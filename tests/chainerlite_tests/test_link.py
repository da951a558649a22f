import collections.abc

import numpy
import pytest

import chainerlite
import chainerlite.links as L
from chainerlite import initializers
from chainerlite import link
from chainerlite import variable
from chainerlite.testing import attr


class Affine(link.Link):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.w = variable.Parameter(2.0, (2, 3))
            self.b = variable.Parameter(initializers.Zero())
        self.not_a_param = variable.Parameter(1.0, (1,))

    def forward(self, x, scale=1.0):
        return x * scale


class Model(link.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.second = Affine()
            self.first = L.Linear(3, 2)
            self.stack = link.ChainList(L.Linear(2, 2))


def test_init_scope_registers_parameters():
    a = Affine()
    assert not a.within_init_scope
    assert [name for name, _ in a.namedparams()] == ['/b', '/w']
    assert a.w.name == 'w'
    numpy.testing.assert_array_equal(a.w.array, numpy.full((2, 3), 2.0))


def test_uninitialized_parameters():
    a = Affine()
    assert [p.name for p in a.params(include_uninit=False)] == ['w']
    assert len(list(a.params())) == 2


def test_call_forwards_to_forward():
    assert Affine()(3.0, scale=2.0) == 6.0


def test_a_subclass_that_skips_link_init_is_refused():
    # Chainer 7.8.1 raises RuntimeError from init_scope and from a call
    class Forgetful(link.Link):
        def __init__(self):
            pass

        def forward(self, x):
            return x

    with pytest.raises(RuntimeError, match='__init__'):
        with Forgetful().init_scope():
            pass
    with pytest.raises(RuntimeError, match='__init__'):
        Forgetful()(1)


def test_a_mixin_call_after_link_runs_in_place_of_forward():
    # Chainer 7.8.1 calls the __call__ of a class that follows Link in the
    # method order (and still runs the link hooks around it)
    class Twice:
        def __call__(self, x):
            return 2 * x

    class Mixed(link.Link, Twice):
        def forward(self, x):
            return x

    class MixinFirst(Twice, link.Link):
        def forward(self, x):
            return x

    assert Mixed()(3) == 6
    assert MixinFirst()(3) == 6  # its own __call__, Link's is not reached
    seen = []

    class Hook(chainerlite.LinkHook):
        def forward_postprocess(self, args):
            seen.append(args.out)

    with Hook():
        assert Mixed()(4) == 8
    assert seen == [8]


def test_device_id_is_deprecated():
    with pytest.deprecated_call(match='device'):
        assert L.Linear(2, 2)._device_id is None


def test_delete_parameter_unregisters_it():
    a = Affine()
    del a.w
    assert [name for name, _ in a.namedparams()] == ['/b']


def test_add_param():
    a = Affine()
    a.add_param('v', (2,))
    assert a.v.shape == (2,)
    assert a.v.dtype == numpy.float32
    assert numpy.isnan(a.v.array).all()
    a.add_param('u', 3, initializer=initializers.One())
    numpy.testing.assert_array_equal(a.u.array, numpy.ones(3))
    with pytest.raises(AttributeError):
        a.add_param('w', (1,))


def test_add_persistent():
    a = Affine()
    a.add_persistent('count', 0)
    assert a.count == 0
    assert 'count' in a._persistent
    with pytest.raises(AttributeError):
        a.add_persistent('count', 1)


def test_count_params_warns_about_uninitialized():
    a = Affine()
    with pytest.warns(UserWarning, match="'/b' has not been initialized"):
        assert a.count_params() == 6


def test_cleargrads_and_zerograds():
    a = Affine()
    a.w.grad = numpy.ones((2, 3), numpy.float32)
    a.cleargrads()
    assert a.w.grad is None
    with pytest.warns(DeprecationWarning):
        a.zerograds()
    numpy.testing.assert_array_equal(a.w.grad, numpy.zeros((2, 3)))


def test_xp_and_to_cpu():
    a = Affine()
    a.add_persistent('mean', numpy.zeros(2))
    assert a.xp is numpy
    with pytest.warns(DeprecationWarning, match='to_device'):
        assert a.to_cpu() is a
    assert isinstance(a.w.array, numpy.ndarray)
    assert isinstance(a.mean, numpy.ndarray)


def test_chain_paths():
    m = Model()
    assert [path for path, _ in m.namedparams()] == [
        '/first/W',
        '/first/b',
        '/second/b',
        '/second/w',
        '/stack/0/W',
        '/stack/0/b',
    ]
    assert [path for path, _ in m.namedlinks()] == [
        '/',
        '/first',
        '/second',
        '/stack',
        '/stack/0',
    ]
    assert [path for path, _ in m.namedlinks(skipself=True)] == [
        '/first',
        '/second',
        '/stack',
        '/stack/0',
    ]
    assert list(m.links())[0] is m
    assert list(m.children()) == [m.first, m.second, m.stack]
    assert m['first'] is m.first
    assert m.first.name == 'first'
    assert len(list(m.params())) == 6


def test_chain_add_link():
    m = Model()
    extra = L.Linear(2, 2)
    m.add_link('extra', extra)
    assert m.extra is extra
    assert extra in list(m.children())
    with pytest.raises(AttributeError):
        m.add_link('extra', L.Linear(2, 2))
    with pytest.raises(TypeError):
        m.add_link('other', 'not a link')


def test_chain_reassigning_a_child_in_init_scope():
    m = Model()
    with pytest.raises(AttributeError):
        with m.init_scope():
            m.first = L.Linear(1, 1)


def test_chain_delete_child():
    m = Model()
    del m.stack
    assert [path for path, _ in m.namedlinks(skipself=True)] == ['/first', '/second']


def test_chain_cleargrads_reaches_children():
    m = Model()
    for param in m.params():
        param.grad = numpy.ones_like(param.array)
    m.cleargrads()
    assert all(param.grad is None for param in m.params())


def test_chainlist():
    layers = link.ChainList(L.Linear(3, 2))
    layers.append(L.Linear(2, 1))
    assert len(layers) == 2
    assert [child.name for child in layers] == ['0', '1']
    assert layers[1].W.shape == (1, 2)
    assert list(layers.children()) == [layers[0], layers[1]]
    assert [path for path, _ in layers.namedlinks()] == ['/', '/0', '/1']
    assert layers.count_params() == 3 * 2 + 2 + 2 * 1 + 1


def test_chainlist_rejects_links_in_init_scope():
    layers = link.ChainList()
    with pytest.raises(TypeError):
        with layers.init_scope():
            layers.child = L.Linear(1, 1)


def test_model_trains_end_to_end():
    m = Model()
    m.cleargrads()  # the gradients start as NaN, as in Chainer
    x = chainerlite.Variable(numpy.ones((4, 3), numpy.float32))
    y = m.stack[0](m.first(x))
    y.grad = numpy.ones_like(y.array)
    y.backward()
    assert m.first.W.grad.shape == (2, 3)
    assert m.stack[0].b.grad.shape == (2,)
    assert m.second.w.grad is None


class DictSerializer:
    """Saves values into a dict, keyed by their slash-separated path."""

    def __init__(self, target=None, path=''):
        self.target = {} if target is None else target
        self.path = path

    def __getitem__(self, name):
        return DictSerializer(self.target, self.path + name + '/')

    def __call__(self, key, value):
        self.target[self.path + key] = (
            None if value is None else numpy.array(value, copy=True)
        )
        return value


class DictDeserializer:
    """Loads values from such a dict: arrays in place, others returned."""

    def __init__(self, source, path=''):
        self.source = source
        self.path = path

    def __getitem__(self, name):
        return DictDeserializer(self.source, self.path + name + '/')

    def __call__(self, key, value):
        data = self.source[self.path + key]
        if isinstance(value, numpy.ndarray):
            numpy.copyto(value, data)
            return value
        if value is None:
            return data
        return type(value)(data)


class Stateful(link.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.inner = Affine()
            self.lazy = L.Linear(2)
            self.p = variable.Parameter(initializers.Normal(), (3,))
        self.add_persistent('mean', numpy.zeros(3, numpy.float32))
        self.add_persistent('count', 0)
        self.hidden = numpy.zeros(2)


def _init_b(model):
    model.inner.b.initialize((2,))
    model.inner.b.array[...] = 7


def test_link_keyword_params():
    a = link.Link(x=(2, 3), y=(4, numpy.float64), z=None)
    assert a.x.shape == (2, 3) and a.x.dtype == numpy.float32
    assert a.y.shape == (4,) and a.y.dtype == numpy.float64
    assert a.z.array is None
    assert [name for name, _ in a.namedparams()] == ['/x', '/y', '/z']


def test_chain_keyword_links():
    child = L.Linear(2, 2)
    c = link.Chain(child=child)
    assert c.child is child and child.name == 'child'


def test_register_persistent():
    a = Affine()
    a.total = numpy.ones(2)
    a.register_persistent('total')
    assert 'total' in a._persistent
    a.register_persistent('w')
    assert 'w' in a._persistent
    assert [name for name, _ in a.namedparams()] == ['/b']
    with pytest.raises(AttributeError, match='non-existent'):
        a.register_persistent('missing')


def test_device_and_to_device_round_trip():
    m = Stateful()
    assert m.device == chainerlite.backend.CpuDevice()
    assert m.xp is numpy
    w = m.inner.w.array
    assert m.to_device('@numpy') is m
    assert m.inner.device == chainerlite.backend.CpuDevice()
    numpy.testing.assert_array_equal(m.inner.w.array, w)
    assert isinstance(m.mean, numpy.ndarray)
    assert m.count == 0
    with pytest.warns(DeprecationWarning):
        assert m.to_cpu() is m


@pytest.mark.skipif(
    chainerlite.backends.cuda.available, reason='needs a machine without CUDA'
)
def test_to_gpu_without_cuda_raises():
    with pytest.raises(RuntimeError, match='CUDA'), pytest.warns(DeprecationWarning):
        Affine().to_gpu()
    with pytest.raises(RuntimeError, match='CUDA'):
        Affine().to_device('@cupy:0')


@attr.gpu
def test_to_gpu_and_back():
    import cupy

    m = Stateful()
    with pytest.warns(DeprecationWarning):
        m.to_gpu()
    assert m.xp is cupy and m.inner.xp is cupy
    assert isinstance(m.inner.w.array, cupy.ndarray)
    assert isinstance(m.mean, cupy.ndarray)
    assert m.count == 0
    m.lazy(cupy.ones((1, 5), numpy.float32))
    assert isinstance(m.lazy.W.array, cupy.ndarray)
    m.to_device('@numpy')
    assert isinstance(m.lazy.W.array, numpy.ndarray)
    assert isinstance(m.mean, numpy.ndarray)


def test_copy_share():
    m = Stateful()
    m.inner.w.grad = numpy.ones((2, 3), numpy.float32)
    c = m.copy()
    assert c.name is None
    assert c is not m and c.inner is not m.inner
    assert c.inner.name == 'inner'
    assert c.inner.w is not m.inner.w
    assert c.inner.w.array is m.inner.w.array
    assert c.inner.w.grad is None
    assert m.inner.w.grad is not None
    assert c.mean is m.mean
    assert [p for p, _ in c.namedparams()] == [p for p, _ in m.namedparams()]
    c.inner.w.array[0, 0] = 5
    assert m.inner.w.array[0, 0] == 5
    # registries are not shared
    c.add_persistent('extra', 1)
    assert 'extra' not in m._persistent


def test_copy_copy():
    m = Stateful()
    c = m.copy(mode='copy')
    assert c.inner.w.array is not m.inner.w.array
    numpy.testing.assert_array_equal(c.p.array, m.p.array)
    assert c.mean is not m.mean
    assert c.lazy.W.array is None
    c.p.array[...] = 0
    assert not (m.p.array == 0).all()


def test_copy_init():
    m = Stateful()
    _init_b(m)
    c = m.copy(mode='init')
    assert c.p.array is not m.p.array
    assert not numpy.array_equal(c.p.array, m.p.array)
    # a parameter made from a constant initializer gets the same values
    numpy.testing.assert_array_equal(c.inner.w.array, m.inner.w.array)
    numpy.testing.assert_array_equal(c.inner.b.array, numpy.zeros(2))
    assert c.lazy.W.array is None


def test_copy_chainlist():
    layers = link.ChainList(L.Linear(2, 2), L.Linear(2, 1))
    for mode in ('share', 'copy', 'init'):
        c = layers.copy(mode)
        assert len(c) == 2 and c[0] is not layers[0]
        assert [child.name for child in c] == ['0', '1']
        assert (c[1].W.array is layers[1].W.array) == (mode == 'share')
    assert len(layers) == 2


def test_copy_bad_mode():
    with pytest.raises(ValueError, match="'init', 'copy', or 'share'"):
        Affine().copy('deep')


def test_copyparams():
    src, dst = Stateful(), Stateful()
    _init_b(src)
    src.mean[...] = 3
    src.count = 4
    src.lazy(numpy.ones((1, 5), numpy.float32))
    dst.copyparams(src)
    for (path, p), (_, q) in zip(dst.namedparams(), src.namedparams()):
        assert p.array is not q.array, path
        numpy.testing.assert_array_equal(p.array, q.array)
    numpy.testing.assert_array_equal(dst.mean, numpy.full(3, 3))
    assert dst.count == 4
    other = Stateful()
    other.copyparams(src, copy_persistent=False)
    numpy.testing.assert_array_equal(other.mean, numpy.zeros(3))
    assert other.count == 0
    numpy.testing.assert_array_equal(other.p.array, src.p.array)


def test_addgrads():
    src, dst = Stateful(), Stateful()
    dst.cleargrads()  # the gradients start as NaN, as in Chainer
    src.cleargrads()  # (else the lazy link's uninitialised W refuses its grad)
    src.inner.w.grad = numpy.full((2, 3), 2, numpy.float32)
    src.p.grad = numpy.ones(3, numpy.float32)
    dst.p.grad = numpy.full(3, 5, numpy.float32)
    dst.addgrads(src)
    numpy.testing.assert_array_equal(dst.inner.w.grad, numpy.full((2, 3), 2))
    numpy.testing.assert_array_equal(dst.p.grad, numpy.full(3, 6))
    assert dst.lazy.W.grad is None


def test_addgrads_from_a_link_whose_lazy_parameter_was_never_cleared():
    # the source's uninitialised W has no readable gradient yet: Chainer's
    # addgrads raises RuntimeError rather than skipping it
    dst, src = L.Linear(None, 2), L.Linear(None, 2)
    dst.cleargrads()
    with pytest.raises(RuntimeError):
        dst.addgrads(src)
    src.cleargrads()
    dst.addgrads(src)
    assert dst.W.array is None and dst.W.grad is None


def test_serialize_round_trip():
    src = Stateful()
    _init_b(src)
    src.mean[...] = numpy.arange(3)
    src.count = 9
    src.lazy(numpy.ones((1, 5), numpy.float32))
    saved = DictSerializer()
    src.serialize(saved)
    assert sorted(saved.target) == [
        'count',
        'inner/b',
        'inner/w',
        'lazy/W',
        'lazy/b',
        'mean',
        'p',
    ]
    dst = Stateful()
    dst.serialize(DictDeserializer(saved.target))
    for (path, p), (_, q) in zip(dst.namedparams(), src.namedparams()):
        numpy.testing.assert_array_equal(p.array, q.array, err_msg=path)
    assert dst.lazy.W.shape == (2, 5)
    numpy.testing.assert_array_equal(dst.mean, numpy.arange(3))
    assert dst.count == 9
    assert 'hidden' not in saved.target


def test_serialize_chainlist_by_index():
    saved = DictSerializer()
    link.ChainList(L.Linear(2, 2), L.Linear(2, 1)).serialize(saved)
    assert sorted(saved.target) == ['0/W', '0/b', '1/W', '1/b']


def test_repeat():
    base = L.Linear(3, 3)
    for mode in ('init', 'copy', 'share'):
        seq = base.repeat(3, mode)
        assert isinstance(seq, chainerlite.Sequential)
        assert len(seq) == 3
        assert all(layer is not base for layer in seq)
        shared = [layer.W.array is base.W.array for layer in seq]
        assert shared == [mode == 'share'] * 3
        same = [numpy.array_equal(layer.W.array, base.W.array) for layer in seq]
        assert same == [mode != 'init'] * 3
    assert len(base.repeat(0)) == 0
    with pytest.raises(ValueError):
        base.repeat(2, mode='wrong')


def test_update_enabled():
    from chainerlite import optimizers

    m = Stateful()
    assert not m.update_enabled
    m.disable_update()  # no update rules yet: nothing to do
    optimizers.SGD().setup(m)
    assert m.update_enabled
    m.disable_update()
    assert not m.update_enabled
    assert all(not p.update_rule.enabled for p in m.params())
    m.inner.enable_update()
    assert m.update_enabled
    assert m.inner.w.update_rule.enabled and not m.p.update_rule.enabled


def test_disabled_update_keeps_parameters():
    from chainerlite import optimizers

    m = L.Linear(2, 2)
    opt = optimizers.SGD(lr=1.0)
    opt.setup(m)
    m.disable_update()
    before = m.W.array.copy()
    m.W.grad = numpy.ones((2, 2), numpy.float32)
    m.b.grad = numpy.ones(2, numpy.float32)
    opt.update()
    numpy.testing.assert_array_equal(m.W.array, before)
    m.enable_update()
    opt.update()
    numpy.testing.assert_allclose(m.W.array, before - 1)


def test_parameter_assigned_in_init_scope_gets_name():
    a = Affine()
    with a.init_scope():
        a.v = variable.Parameter(numpy.zeros(2, numpy.float32))
    assert a.v.name == 'v'
    assert '/v' in [path for path, _ in a.namedparams()]


def test_chain_list_is_a_mutable_sequence():
    # Chainer 7.8.1's ChainList is a collections.abc.MutableSequence: the
    # list methods rename the children by their new indexes (found by the
    # differential harness; these results were recorded from Chainer)
    c = chainerlite.ChainList(L.Linear(1, 1), L.Linear(1, 2), L.Linear(1, 3))
    assert isinstance(c, collections.abc.MutableSequence)
    c.reverse()
    assert [(link.name, link.out_size) for link in c] == [('0', 3), ('1', 2), ('2', 1)]
    assert c.pop(0).out_size == 3 and [link.name for link in c] == ['0', '1']
    c.extend([L.Linear(1, 4)])
    assert c.index(c[1]) == 1 and [p for p, _ in c.namedparams()] == [
        '/0/W',
        '/0/b',
        '/1/W',
        '/1/b',
        '/2/W',
        '/2/b',
    ]
    del c[0]
    assert [link.name for link in c] == ['0', '1']
    c[0:1] = [L.Linear(1, 5), L.Linear(1, 6)]
    assert [(link.name, link.out_size) for link in c] == [('0', 5), ('1', 6), ('2', 4)]
    with pytest.raises(TypeError, match='integers or slices'):
        c['a'] = L.Linear(1, 1)
    c.clear()
    assert len(c) == 0
