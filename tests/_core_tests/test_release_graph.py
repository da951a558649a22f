"""backward(retain_graph=False): each node frees what it retained for its
backward once that backward ran, and a graph so released cannot be gone
through again. Random graphs are checked in test_grad_properties.py."""

import threading
import weakref
import tracemalloc

import numpy as np
import pytest

import chainerlite
import chainerlite.functions as F
import chainerlite.links as L


def _mlp(seed=0, units=8, depth=4):
    rng = np.random.RandomState(seed)
    model = chainerlite.Sequential(
        *[layer for _ in range(depth) for layer in (L.Linear(units, units), F.relu)]
    )
    for p in model.params():
        p.array[...] = rng.uniform(-1, 1, p.shape)
    model.cleargrads()
    return model, rng.uniform(-1, 1, (5, units)).astype(np.float32)


def _grads(model):
    return [p.grad.copy() for p in model.params()]


@pytest.mark.parametrize('how', ['keyword', 'config', 'function'])
def test_gradients_equal_with_and_without_release(how):
    model, x = _mlp()
    F.sum(F.tanh(model(x)) ** 2).backward()
    kept = _grads(model)
    model.cleargrads()
    loss = F.sum(F.tanh(model(x)) ** 2)
    if how == 'keyword':
        loss.backward(retain_graph=False)
    elif how == 'config':
        with chainerlite.using_config('retain_graph', False):
            loss.backward()
    else:
        loss.grad = np.ones((), np.float32)
        chainerlite.backward([loss], retain_graph=False)
    for a, b in zip(kept, _grads(model)):
        np.testing.assert_array_equal(a, b)
    with pytest.raises(RuntimeError, match='retain_graph=False'):
        loss.backward()


def test_default_keeps_the_graph_as_chainer_does():
    model, x = _mlp()
    loss = F.sum(model(x))
    loss.backward()
    first = _grads(model)
    loss.backward()
    for a, b in zip(first, _grads(model)):
        np.testing.assert_allclose(b, 2 * a, rtol=1e-6)
    assert chainerlite.config.retain_graph is True


def test_second_backward_names_the_node_and_what_went():
    x = chainerlite.Variable(np.ones((2, 3), np.float32))
    y = F.sum(F.relu(x) * 2.0)
    y.backward(retain_graph=False)
    with pytest.raises(RuntimeError) as info:
        y.backward()
    assert 'Sum' in str(info.value) and 'retained' in str(info.value)
    assert x.grad is not None  # the first pass wrote its gradients


def test_grad_releases_only_the_part_it_goes_through():
    x = chainerlite.Variable(np.full((3,), 0.5, np.float32))
    w = chainerlite.Variable(np.full((3,), 2.0, np.float32))
    h = F.tanh(x)
    y = F.sum(h * w)
    (gw,) = chainerlite.grad([y], [w], retain_graph=False)
    np.testing.assert_allclose(gw.array, np.tanh(0.5), rtol=1e-6)
    with pytest.raises(RuntimeError, match='retain_graph=False'):
        chainerlite.grad([y], [w])


def test_memory_goes_while_the_pass_runs():
    # A chain of 1 MiB activations: with the release, what the forward
    # graph held is gone once the pass is over although the loss (and so the
    # graph) is still alive, and the pass peaks no higher.
    x = chainerlite.Variable(np.ones((512, 512), np.float32))

    def step(retain_graph):
        tracemalloc.start()
        h = x
        for _ in range(16):
            h = F.tanh(h * 0.5)
        loss = F.sum(h)
        del h
        before = tracemalloc.get_traced_memory()[0]
        tracemalloc.reset_peak()
        loss.backward(retain_graph=retain_graph)
        current, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        x.cleargrad()
        return current - before, peak - before, loss

    mib = 2**20
    kept_now, kept_peak, _ = step(True)
    freed_now, freed_peak, loss = step(False)
    assert kept_now < 2 * mib  # x's gradient
    assert freed_now < -14 * mib  # the tanh outputs went
    assert freed_peak <= kept_peak
    assert loss.creator is not None


def test_double_backprop_keeps_the_graph():
    x = chainerlite.Variable(np.array([0.3, -0.2], np.float32))
    y = F.sum(F.sin(x) * x)
    (gx,) = chainerlite.grad([y], [x], enable_double_backprop=True, retain_graph=False)
    # a double-backprop pass releases nothing: the graph goes through again
    (again,) = chainerlite.grad([y], [x])
    np.testing.assert_allclose(again.array, gx.array, rtol=1e-6)
    # gx's graph holds y's nodes too; its release frees them with it
    F.sum(gx).backward(retain_graph=False)
    expected = 2 * np.cos(x.array) - x.array * np.sin(x.array)
    np.testing.assert_allclose(x.grad, expected, rtol=1e-6)
    with pytest.raises(RuntimeError, match='retain_graph=False'):
        chainerlite.grad([y], [x])


def test_arrays_stored_on_nodes_are_dropped():
    x = chainerlite.Variable(np.ones((4, 4), np.float32))
    with chainerlite.using_config('train', True):
        y = F.dropout(x, 0.5)
    node = y.creator
    mask = node.mask.copy()  # the scaled mask, made from the kept booleans
    held = [k for k, v in vars(node).items() if isinstance(v, np.ndarray)]
    assert held  # the booleans and the scaled mask
    F.sum(y).backward(retain_graph=False)
    np.testing.assert_array_equal(x.grad, mask)
    assert not [k for k in held if k in vars(node)]
    assert node.dropout_ratio == 0.5  # attributes that are not arrays stay


def test_forget_releases_and_gradients_hold():
    model, x = _mlp(depth=2)

    def loss_of(use_forget):
        h = chainerlite.Variable(x)
        for k in (0, 2):
            block = model[k : k + 2]

            def layer(a, block=block):
                return block[1](block[0](a))

            h = F.forget(layer, h) if use_forget else layer(h)
        return F.sum(h * h)

    loss_of(False).backward()
    plain = _grads(model)
    model.cleargrads()
    loss = loss_of(True)
    loss.backward(retain_graph=False)
    for a, b in zip(plain, _grads(model)):
        np.testing.assert_allclose(a, b, rtol=1e-6)
    with pytest.raises(RuntimeError, match='retain_graph=False'):
        loss.backward()


def test_config_is_per_thread_and_threads_release_their_own_graphs():
    model, x = _mlp()
    F.sum(model(x)).backward()
    # the layers' parameters in the order the model applies them (params()
    # walks a Sequential's children in Chainer's order, not the layers')
    layers = [
        p for link in model if isinstance(link, L.Linear) for p in (link.W, link.b)
    ]
    expected = [p.grad.copy() for p in layers]
    results = {}

    def worker(i):
        # parameters are shared: each thread differentiates by copies
        params = [chainerlite.Variable(p.array.copy()) for p in layers]
        h = chainerlite.Variable(x)
        for k in range(0, len(params), 2):
            h = F.relu(F.linear(h, params[k], params[k + 1]))
        loss = F.sum(h)
        if i % 2:
            with chainerlite.using_config('retain_graph', False):
                loss.backward()
        else:
            loss.backward()
            loss.backward()  # this thread keeps its graphs
        results[i] = [p.grad / (1 if i % 2 else 2) for p in params]

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(6)]
    with chainerlite.using_config('retain_graph', False):
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert sorted(results) == list(range(6))
    for grads in results.values():
        for a, b in zip(expected, grads):
            np.testing.assert_allclose(a, b, rtol=1e-6)


def test_global_config_switches_the_default():
    x = chainerlite.Variable(np.ones(3, np.float32))
    chainerlite.global_config.retain_graph = False
    try:
        y = F.sum(F.exp(x))
        y.backward()
        with pytest.raises(RuntimeError, match='retain_graph=False'):
            y.backward()
    finally:
        del chainerlite.global_config.retain_graph
    y = F.sum(F.exp(x))
    y.backward()
    y.backward()


class _Probe(chainerlite.FunctionNode):
    # y = 2 x; its backward records whether the array of its output, which
    # only the next node retained, is still alive when it runs
    seen = None

    def forward(self, inputs):
        (x,) = inputs
        y = x * 2
        self.out_ref = weakref.ref(y)
        return (y,)

    def backward(self, indexes, grad_outputs):
        _Probe.seen = self.out_ref() is not None
        return (grad_outputs[0] * 2,)


@pytest.mark.parametrize('retain_graph', [True, False])
def test_a_retained_input_goes_before_its_creators_backward(retain_graph):
    # F.sin retains its input, the output of _Probe: with the release that
    # array is freed once sin's backward ran, before _Probe's backward (its
    # only consumer has run); Chainer's default keeps it
    x = chainerlite.Variable(np.linspace(-1, 1, 6).astype(np.float32))
    y = F.sum(F.sin(_Probe().apply((x,))[0]))
    y.backward(retain_graph=retain_graph)
    assert _Probe.seen is retain_graph
    np.testing.assert_allclose(x.grad, 2 * np.cos(2 * x.array), rtol=1e-6)


def test_an_output_the_creator_retained_stays_for_its_backward():
    # F.exp retains its output, which F.sin retains as its input too: the
    # release must leave it to exp's backward
    x = chainerlite.Variable(np.array([0.1, -0.4, 0.7], np.float32))
    F.sum(F.sin(F.exp(x))).backward(retain_graph=False)
    expected = np.cos(np.exp(x.array)) * np.exp(x.array)
    np.testing.assert_allclose(x.grad, expected, rtol=1e-6)
