"""F.forget's keep: chosen intermediates are kept, the rest recomputed."""

import gc
import time
import weakref
from unittest import mock

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite.functions.activation.relu import ReLU
from chainerlite.functions.connection.convolution_2d import Convolution2DFunction
from chainerlite.functions.connection.linear import LinearFunction
from chainerlite.functions.noise.dropout import Dropout
from chainerlite.functions.util import forget
from chainerlite.functions.util import forget_policy
from chainerlite.function_hooks import TimerHook


class _Calls(object):
    """Counts the forward calls of node classes (their apply included)."""

    def __init__(self, *classes):
        self.counts = {cls: 0 for cls in classes}
        self._patches = [
            mock.patch.object(cls, 'forward', self._counting(cls)) for cls in classes
        ]

    def _counting(self, cls):
        original = cls.forward

        def forward(node, inputs):
            self.counts[cls] += 1
            return original(node, inputs)

        return forward

    def __enter__(self):
        for patch in self._patches:
            patch.start()
        return self

    def __exit__(self, *_):
        for patch in self._patches:
            patch.stop()


_RNG = numpy.random.RandomState(0)
_WS = [_RNG.randn(12, 12).astype(numpy.float32) * 0.5 for _ in range(3)]
_X = _RNG.randn(5, 12).astype(numpy.float32)


def _mlp(x, *ws):
    for i, W in enumerate(ws):
        with chainerlite.forget_tag('layer{}'.format(i)):
            x = F.dropout(F.relu(F.linear(x, W)), 0.3)
    return x


def _grads(keep, block=_mlp, seed=0):
    # the output and gradients of sum(y^2), y = block(x, *ws), plain
    # (keep='plain') or through forget with ``keep``
    numpy.random.seed(seed)
    x = chainerlite.Variable(_X.copy())
    ws = [chainerlite.Variable(W.copy()) for W in _WS]
    y = block(x, *ws) if keep == 'plain' else F.forget(block, x, *ws, keep=keep)
    F.sum(y * y).backward()
    return [y.array, x.grad] + [W.grad for W in ws]


_POLICIES = [
    ('nothing', None),
    ('class', LinearFunction),
    ('classes', (LinearFunction, Dropout)),
    ('tag', 'layer1'),
    ('class and tag', [ReLU, 'layer0']),
    ('callable', lambda site: site.index % 2 == 0),
    ('everything', lambda site: True),
]


@pytest.mark.parametrize('name, keep', _POLICIES, ids=[p[0] for p in _POLICIES])
def test_gradients_equal_the_plain_ones(name, keep):
    plain = _grads('plain')
    assert (plain[0] == 0).any()  # dropout dropped something
    for a, b in zip(plain, _grads(keep)):
        numpy.testing.assert_array_equal(a, b)


@pytest.mark.parametrize(
    'keep, recomputed',
    [
        (None, {LinearFunction: 3, Dropout: 3}),
        (LinearFunction, {LinearFunction: 0, Dropout: 3}),
        (Dropout, {LinearFunction: 3, Dropout: 0}),
        ('layer2', {LinearFunction: 2, Dropout: 2}),
        (lambda site: True, {LinearFunction: 0, Dropout: 0}),
    ],
)
def test_kept_nodes_are_not_run_again(keep, recomputed):
    numpy.random.seed(0)
    x = chainerlite.Variable(_X.copy())
    ws = [chainerlite.Variable(W) for W in _WS]
    with _Calls(LinearFunction, Dropout) as calls:
        y = F.forget(_mlp, x, *ws, keep=keep)
        assert calls.counts == {LinearFunction: 3, Dropout: 3}
        F.sum(y).backward()
    assert calls.counts == {cls: 3 + n for cls, n in recomputed.items()}


def test_convolution_kept():
    def block(x, W):
        return F.tanh(F.convolution_2d(F.tanh(x), W, pad=1))

    x = _RNG.randn(2, 3, 5, 5)
    W = _RNG.randn(4, 3, 3, 3)
    results = []
    for keep in ('plain', Convolution2DFunction):
        xv, Wv = chainerlite.Variable(x), chainerlite.Variable(W)
        with _Calls(Convolution2DFunction) as calls:
            y = block(xv, Wv) if keep == 'plain' else F.forget(block, xv, Wv, keep=keep)
            F.sum(y * y).backward()
        results.append((calls.counts[Convolution2DFunction], xv.grad, Wv.grad))
    (n_plain, *plain), (n_kept, *kept) = results
    assert n_plain == n_kept == 1
    for a, b in zip(plain, kept):
        numpy.testing.assert_array_equal(a, b)


def test_sites_seen_by_a_callable():
    seen = []

    def keep(site):
        seen.append(site)
        return False

    def block(x):
        with chainerlite.forget_tag('outer'):
            h = F.exp(x)
            with chainerlite.forget_tag('inner'):
                h = F.forget(lambda a: F.sin(F.cos(a)), h)  # one site
        return h * 2

    x = chainerlite.Variable(numpy.linspace(0, 1, 4))
    y = F.forget(block, x, keep=keep)
    assert [s.index for s in seen] == [0, 1, 2]
    assert [type(s.node).__name__ for s in seen] == ['Exp', 'Forget', 'MulConstant']
    assert [s.tags for s in seen] == [{'outer'}, {'outer', 'inner'}, frozenset()]
    numpy.testing.assert_array_equal(seen[2].outputs[0], y.array)
    assert 'Exp' in repr(seen[0]) and 'outer' in repr(seen[0])


def test_kept_nested_forget_replays_its_draws():
    # the nested forget is kept whole; its own recomputation (when the
    # outer backward reaches it) replays the draws it recorded, and the
    # draws after it stay in step
    def block(x):
        h = F.forget(lambda a: F.dropout(F.tanh(a), 0.5), x)
        return F.dropout(h * x, 0.5)

    plain = _grads('plain', lambda x, *ws: block(x), seed=3)
    for keep in (forget.Forget, None, Dropout):
        kept = _grads(keep, lambda x, *ws: block(x), seed=3)
        for a, b in zip(plain[:2], kept[:2]):
            numpy.testing.assert_array_equal(a, b)


def test_keep_in_threads(in_threads):
    # y = dropout(x W^T) with ratio 0.5: the mask m = (y != 0), and the
    # gradients of sum(y) are 2 m W and 2 m^T x, whatever each thread drew
    def block(x, W):
        return F.dropout(F.linear(x, W), 0.5)

    def run():
        for i in range(20):
            keep = (LinearFunction, Dropout, 'none')[i % 3]
            x = chainerlite.Variable(_X.copy())
            W = chainerlite.Variable(_WS[0])
            y = F.forget(block, x, W, keep=keep)
            F.sum(y).backward()
            m = 2.0 * (y.array != 0)
            numpy.testing.assert_allclose(x.grad, m @ _WS[0], rtol=1e-5, atol=1e-6)
            numpy.testing.assert_allclose(W.grad, m.T @ _X, rtol=1e-5, atol=1e-6)
            assert (m == 0).any() and (m != 0).any()
        return True

    assert in_threads(run, 4) == [True] * 4


def test_double_backprop_with_keep():
    def second_order(keep):
        numpy.random.seed(5)
        x = chainerlite.Variable(_X.astype(numpy.float64))
        ws = [chainerlite.Variable(W.astype(numpy.float64)) for W in _WS]

        def block(x, *ws):
            for W in ws:
                x = F.dropout(F.tanh(F.linear(x, W)), 0.3)
            return x

        y = block(x, *ws) if keep == 'plain' else F.forget(block, x, *ws, keep=keep)
        (gx,) = chainerlite.grad([F.sum(y * y)], [x], enable_double_backprop=True)
        F.sum(gx * gx).backward()
        return [gx.array, x.grad] + [W.grad for W in ws]

    plain = second_order('plain')
    for keep in (LinearFunction, Dropout, None):
        for a, b in zip(plain, second_order(keep)):
            numpy.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)


def test_kept_node_state_reaches_the_new_node():
    # max_pooling_2d(return_indices=True) reads the indexes off the node it
    # created, after apply: they are there when the node is kept
    def block(x):
        y, indexes = F.max_pooling_2d(x, 2, return_indices=True)
        return y * 1.0

    x = chainerlite.Variable(_RNG.permutation(32).reshape(1, 2, 4, 4) * 1.0)
    from chainerlite.functions.pooling.max_pooling_2d import MaxPooling2D

    y = F.forget(block, x, keep=MaxPooling2D)
    F.sum(y).backward()
    assert x.grad.sum() == y.size


def test_recomputation_without_substitutes_runs_no_hook():
    # the forward call is traced (one hook); a recomputation that reuses
    # nothing and passes over nothing (exp's output is read by its
    # backward) runs with no hook
    seen = []

    def block(x):
        seen.append(dict(chainerlite.get_function_hooks()))
        return F.exp(x)

    x = chainerlite.Variable(numpy.ones(3))
    F.sum(F.forget(block, x)).backward()
    assert len(seen[0]) == 1 and seen[1] == {}
    F.sum(F.forget(block, x, keep=lambda site: True)).backward()
    assert len(seen[2]) == 1 and len(seen[3]) == 1


@pytest.mark.parametrize(
    'keep, message',
    [
        (3, 'forget: keep must be None, a FunctionNode class, .* not int'),
        (int, 'forget: keep must be .* not type'),
        ((LinearFunction, F.linear), 'F.linear|function linear.*give the node class'),
        (
            ['a', 1.5],
            'forget: keep takes FunctionNode classes and tag names, not float',
        ),
    ],
)
def test_bad_keep(keep, message):
    with pytest.raises(TypeError, match=message):
        F.forget(F.exp, chainerlite.Variable(numpy.ones(2)), keep=keep)


def test_bad_tag():
    with pytest.raises(TypeError, match='forget_tag: name must be a str, not int'):
        with chainerlite.forget_tag(1):
            pass


def test_recomputation_applying_other_nodes_raises():
    calls = iter([F.exp, F.sin])

    def block(x):
        return next(calls)(x)

    y = F.forget(block, chainerlite.Variable(numpy.ones(2)), keep=lambda site: True)
    with pytest.raises(
        RuntimeError, match='forget: the function applied Sin as its node 0'
    ):
        F.sum(y).backward()


def test_policy_of_a_tag_set():
    keep = forget_policy.as_policy({'a', 'b'})
    node = F.exp(chainerlite.Variable(numpy.ones(1))).creator
    assert keep(forget_policy.Site(0, node, frozenset({'b', 'c'}), ()))
    assert not keep(forget_policy.Site(0, node, frozenset({'c'}), ()))
    assert forget_policy.as_policy(None) is None


def test_backward_releases_the_kept_nodes():
    # a kept node joins the recomputed graph; once that graph's backward is
    # done, nothing holds it (nor, through its inputs, that graph) while the
    # output of forget lives on
    kept = []

    def keep(site):
        kept.append(weakref.ref(site.node))
        return True

    x = chainerlite.Variable(_X.copy())
    W = chainerlite.Variable(_WS[0])
    y = F.forget(lambda a, b: F.relu(F.linear(a, b)), x, W, keep=keep)
    F.sum(y).backward()
    gc.collect()
    assert len(kept) == 2 and all(ref() is None for ref in kept)
    assert y.creator is not None


class _Slow(chainerlite.FunctionNode):
    def forward(self, inputs):
        time.sleep(0.02)
        return (inputs[0] * 2,)

    def backward(self, indexes, grad_outputs):
        return (grad_outputs[0] * 2,)


@pytest.mark.parametrize('keep, recomputed', [(None, True), (_Slow, False)])
def test_timer_shows_the_recomputation(keep, recomputed):
    x = chainerlite.Variable(numpy.ones(3))
    with TimerHook() as hook:
        y = F.forget(lambda a: F.exp(_Slow().apply((a,))[0]), x, keep=keep)
        F.sum(y).backward()
    slow = hook.summary()['_Slow']
    assert slow['forward_time'] >= 0.02
    assert (slow['recompute_time'] >= 0.02) == recomputed
    assert hook.summary()['Exp']['recompute_time'] > 0
