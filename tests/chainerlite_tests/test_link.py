import numpy
import pytest

import chainerlite
import chainerlite.links as L
from chainerlite import initializers
from chainerlite import link
from chainerlite import variable


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
    assert a.to_cpu() is a
    assert isinstance(a.w.array, numpy.ndarray)
    assert isinstance(a.mean, numpy.ndarray)


def test_chain_paths():
    m = Model()
    assert [path for path, _ in m.namedparams()] == [
        '/first/W', '/first/b', '/second/b', '/second/w',
        '/stack/0/W', '/stack/0/b']
    assert [path for path, _ in m.namedlinks()] == [
        '/', '/first', '/second', '/stack', '/stack/0']
    assert [path for path, _ in m.namedlinks(skipself=True)] == [
        '/first', '/second', '/stack', '/stack/0']
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
    assert [path for path, _ in m.namedlinks(skipself=True)] == [
        '/first', '/second']


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
    x = chainerlite.Variable(numpy.ones((4, 3), numpy.float32))
    y = m.stack[0](m.first(x))
    y.grad = numpy.ones_like(y.array)
    y.backward()
    assert m.first.W.grad.shape == (2, 3)
    assert m.stack[0].b.grad.shape == (2,)
    assert m.second.w.grad is None
