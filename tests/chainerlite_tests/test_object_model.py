"""Links, Parameters, old-style Functions and optimizers as Python code
treats Chainer's: methods replaced on their classes and instances take
effect at once, and pickling or deep-copying a model or an optimizer with
its state gives one that trains on exactly as the original (checked
against Chainer 7.8.1, which gives the same)."""

import copy
import pickle
from unittest import mock

import numpy as np
import pytest

import chainerlite
import chainerlite.functions as F
import chainerlite.links as L
from chainerlite import optimizer_hooks, optimizers


class Net(chainerlite.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(3, 4, initialW=chainerlite.initializers.Constant(0.1))
            self.bn = L.BatchNormalization(4)
            self.l2 = L.Linear(4, 2, initialW=chainerlite.initializers.Constant(-0.2))
        self.add_persistent('count', 3)

    def forward(self, x):
        return self.l2(F.relu(self.bn(self.l1(x))))


X = np.linspace(-1, 1, 15, dtype=np.float32).reshape(5, 3)


def _step(opt):
    opt.target.cleargrads()
    F.sum(opt.target(X) ** 2).backward()
    opt.update()


def _pickled(obj):
    return pickle.loads(pickle.dumps(obj))


@pytest.mark.parametrize('dup', [_pickled, copy.deepcopy], ids=['pickle', 'deepcopy'])
@pytest.mark.parametrize(
    'name, state', [('Adam', ['m', 'v']), ('MomentumSGD', ['v']), ('RMSprop', ['ms'])]
)
def test_optimizer_with_state_round_trips(dup, name, state):
    opt = getattr(optimizers, name)()
    opt.setup(Net())
    opt.add_hook(optimizer_hooks.WeightDecay(0.01))
    for _ in range(3):
        _step(opt)
    twin = dup(opt)
    assert twin.t == 3 and twin.target is not opt.target
    rule = twin.target.l1.W.update_rule
    assert (
        sorted(rule.state) == state
        and rule.state[state[0]] is not (opt.target.l1.W.update_rule.state[state[0]])
    )
    assert twin.target.count == 3
    for _ in range(2):
        _step(opt)
        _step(twin)
    for (path, p), (_, q) in zip(opt.target.namedparams(), twin.target.namedparams()):
        np.testing.assert_array_equal(p.array, q.array, err_msg=path)
    np.testing.assert_array_equal(opt.target.bn.avg_mean, twin.target.bn.avg_mean)


@pytest.mark.parametrize('dup', [_pickled, copy.deepcopy], ids=['pickle', 'deepcopy'])
def test_links_round_trip(dup):
    net = Net()
    net.l1.W.grad = np.ones((4, 3), np.float32)
    twin = dup(net)
    assert [n for n, _ in twin.namedparams()] == [n for n, _ in net.namedparams()]
    assert twin.l1.W is not net.l1.W and twin.l1.W.grad.sum() == 12
    np.testing.assert_array_equal(twin(X).array, net(X).array)
    chain_list = dup(chainerlite.ChainList(L.Linear(2, 2), L.Linear(2, 1)))
    assert [n for n, _ in chain_list.namedparams()] == ['/0/W', '/0/b', '/1/W', '/1/b']
    lazy = dup(L.Linear(None, 2))
    assert lazy.W.array is None and lazy(np.ones((1, 3), np.float32)).shape == (1, 2)


def test_link_call_replaced_on_the_class_and_an_instance():
    link = L.Linear(3, 2)
    x = np.ones((1, 3), np.float32)
    with mock.patch.object(L.Linear, '__call__', lambda self, x: 'class'):
        assert link(x) == 'class'
    link.forward = lambda x: 'instance'
    assert link(x) == 'instance'
    del link.forward
    assert link(x).shape == (1, 2)


def test_update_rule_and_optimizer_methods_replaced():
    opt = optimizers.SGD(lr=0.5)
    opt.setup(Net())
    seen = []
    original = optimizers.SGD.update

    def update(self, *args, **kwargs):
        seen.append('update')
        return original(self, *args, **kwargs)

    with (
        mock.patch.object(optimizers.SGD, 'update', update),
        mock.patch.object(
            type(opt.target.l1.W.update_rule),
            'update_core',
            lambda self, param: seen.append(param.name),
        ),
    ):
        _step(opt)
    assert seen[0] == 'update'
    assert sorted(seen[1:]) == ['W', 'W', 'b', 'b', 'beta', 'gamma']
    before = opt.target.l1.W.array.copy()
    _step(opt)
    assert not np.array_equal(before, opt.target.l1.W.array)


def test_parameter_attributes_and_methods_patched():
    p = chainerlite.Parameter(np.ones(2, np.float32))
    p.note = 'kept'
    with mock.patch.object(chainerlite.Parameter, 'zerograd', lambda self: 'patched'):
        assert p.zerograd() == 'patched'
    assert copy.deepcopy(p).note == 'kept'
    assert _pickled(p).note == 'kept'


def test_old_style_function_methods_replaced():
    class Twice(chainerlite.Function):
        def forward(self, inputs):
            return (inputs[0] * 2,)

        def backward(self, inputs, grad_outputs):
            return (grad_outputs[0] * 2,)

    x = chainerlite.Variable(np.ones(2, np.float32))
    with mock.patch.object(Twice, 'backward', lambda self, i, g: (g[0] * 7,)):
        F.sum(Twice()(x)).backward()
    assert x.grad.tolist() == [7, 7]
