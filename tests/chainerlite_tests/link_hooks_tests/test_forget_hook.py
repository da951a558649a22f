"""link_hooks.ForgetHook: a link's forward under F.forget."""

import copy
import pickle

import numpy
import pytest

import chainerlite
from chainerlite import functions as F
from chainerlite import link_hooks
from chainerlite import links as L


class Block(chainerlite.Chain):
    # A block with a non-array argument and a keyword variable.
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(4, 4)
            self.bn = L.BatchNormalization(4)

    def forward(self, x, scale, shift=None):
        h = F.tanh(self.bn(self.l1(x)) * scale)
        return h if shift is None else h + shift


def _grads(block, x, shift):
    block.cleargrads()
    xv = chainerlite.Variable(x)
    sv = chainerlite.Variable(shift)
    y = block(xv, 2.0, shift=sv)
    F.sum(y * y).backward()
    return y, [xv.grad, sv.grad] + [
        p.grad.copy() for _, p in sorted(block.namedparams())
    ]


def _inputs():
    rng = numpy.random.RandomState(0)
    return (
        rng.randn(5, 4).astype(numpy.float32),
        rng.randn(5, 4).astype(numpy.float32),
    )


def test_forget_hook_gives_the_gradients_of_the_plain_link():
    x, shift = _inputs()
    block = Block()
    twin = block.copy('copy')
    plain_y, plain = _grads(twin, x, shift)
    _ = block.add_hook(link_hooks.ForgetHook())
    y, forgotten = _grads(block, x, shift)
    assert y.creator.label == 'Forget'
    numpy.testing.assert_allclose(y.array, plain_y.array, rtol=1e-6)
    for got, want in zip(forgotten, plain):
        numpy.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)
    # BatchNormalization updated its statistics once, not on recomputation
    numpy.testing.assert_allclose(block.bn.avg_mean, twin.bn.avg_mean, rtol=1e-6)
    numpy.testing.assert_allclose(block.bn.avg_var, twin.bn.avg_var, rtol=1e-6)


def test_deleting_the_hook_leaves_nothing_behind():
    block = Block()
    own = dict(block.__dict__)
    hook = link_hooks.ForgetHook()
    block.add_hook(hook)
    assert 'forward' in block.__dict__
    block.delete_hook('ForgetHook')
    assert block.__dict__.keys() == own.keys()
    assert not block.local_link_hooks
    y = block(numpy.ones((2, 4), numpy.float32), 1.0)
    assert y.creator.label != 'Forget'


def test_hook_over_an_instance_forward_restores_it():
    layer = L.Linear(3, 2)
    calls = []

    def forward(x):
        calls.append(1)
        return type(layer).forward(layer, x)

    layer.forward = forward
    layer.add_hook(link_hooks.ForgetHook())
    y = layer(numpy.ones((1, 3), numpy.float32))
    F.sum(y).backward()
    assert len(calls) == 2  # the forward and its recomputation
    layer.delete_hook('ForgetHook')
    assert layer.__dict__['forward'] is forward


def test_no_backprop_mode_calls_the_link_plainly():
    layer = L.Linear(3, 2)
    layer.add_hook(link_hooks.ForgetHook())
    with chainerlite.no_backprop_mode():
        y = layer(numpy.ones((1, 3), numpy.float32))
    assert y.creator is None
    # constants only: no forget either
    assert (
        layer(chainerlite.Variable(numpy.ones((1, 3), numpy.float32))).creator.label
        == 'Forget'
    )


def test_copies_compute_with_their_own_parameters():
    x, shift = _inputs()
    block = Block()
    block.add_hook(link_hooks.ForgetHook())
    for twin in (
        block.copy('share'),
        copy.deepcopy(block),
        pickle.loads(pickle.dumps(block)),
    ):
        twin.cleargrads()
        block.cleargrads()
        y = twin(chainerlite.Variable(x), 2.0, shift=shift)
        assert y.creator.label == 'Forget'
        F.sum(y).backward()
        assert twin.l1.W.grad is not None
        assert block.l1.W.grad is None


def test_forget_hook_cannot_be_global():
    with pytest.raises(NotImplementedError, match='ForgetHook'):
        with link_hooks.ForgetHook():
            pass
    assert not chainerlite.link_hook._get_link_hooks()


def test_deleting_after_the_forward_was_replaced_raises():
    layer = L.Linear(3, 2)
    layer.add_hook(link_hooks.ForgetHook())
    layer.forward = lambda x: x
    with pytest.raises(RuntimeError, match='ForgetHook.deleted'):
        layer.delete_hook('ForgetHook')


def test_a_hooked_link_serializes_as_the_plain_one(tmp_path):
    block = Block()
    block.add_hook(link_hooks.ForgetHook())
    block(chainerlite.Variable(numpy.ones((3, 4), numpy.float32)), 1.0)
    chainerlite.serializers.save_npz(str(tmp_path / 'hooked.npz'), block)
    plain = Block()
    chainerlite.serializers.load_npz(str(tmp_path / 'hooked.npz'), plain)
    for (name, p), (_, q) in zip(
        sorted(block.namedparams()), sorted(plain.namedparams())
    ):
        numpy.testing.assert_array_equal(p.array, q.array, err_msg=name)
    numpy.testing.assert_array_equal(block.bn.avg_mean, plain.bn.avg_mean)
    with numpy.load(str(tmp_path / 'hooked.npz')) as saved:
        assert not [key for key in saved.files if 'forward' in key]
