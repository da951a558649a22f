import gc
import threading
import weakref

import numpy as np
import pytest

import chainerlite
import chainerlite.functions as F


def _v(*values):
    return chainerlite.Variable(np.array(values, np.float64))


def test_diamond_accumulates():
    x = _v(1.0, 2.0)
    a = x * 2.0
    y = F.sum(a * a + a)  # d/dx = (2a + 1) * 2
    y.backward()
    np.testing.assert_allclose(x.grad, (2 * x.array * 2 + 1) * 2)


def _scalar(value):
    return chainerlite.Variable(np.array(value, np.float64))


def test_unused_input_gets_no_grad():
    x, z = _scalar(1.0), _scalar(2.0)
    y = x * 3.0
    y.backward()
    assert z.grad is None
    assert chainerlite.grad([y], [x, z])[1] is None


def test_broadcast_grad_sums_back():
    x = chainerlite.Variable(np.ones((3, 4)))
    b = chainerlite.Variable(np.arange(4.0))
    F.sum(x * b).backward()
    np.testing.assert_allclose(b.grad, np.full(4, 3.0))
    np.testing.assert_allclose(x.grad, np.tile(np.arange(4.0), (3, 1)))


def test_intermediate_grads_are_freed_unless_retained():
    x = _v(1.0, 2.0)
    h = x * 2.0
    y = F.sum(h * 3.0)
    y.backward()
    assert h.grad is None and x.grad is not None
    x.cleargrad()
    y.backward(retain_grad=True)
    np.testing.assert_allclose(h.grad, [3.0, 3.0])


def test_loss_scale_multiplies_grads():
    x = _v(1.0, 2.0)
    F.sum(x * 2.0).backward(loss_scale=8.0)
    np.testing.assert_allclose(x.grad, [16.0, 16.0])
    assert x._loss_scale == 8.0


def test_double_backprop():
    x = _scalar(2.0)
    y = x * x * x
    y.backward(enable_double_backprop=True)
    gx = x.grad_var
    assert gx.creator is not None
    x.cleargrad()
    gx.backward()
    np.testing.assert_allclose(x.grad, 12.0)  # 6x


def test_million_op_chain_has_no_recursion_limit():
    x = chainerlite.Variable(np.ones((), np.float32))
    h = x
    for _ in range(1000000):
        h = h * 1.0
    h.backward()
    assert x.grad == 1.0
    del h  # freeing the chain must not recurse either
    gc.collect()


def test_graph_is_freed_when_dropped():
    x = _v(1.0, 2.0)
    h = x * 2.0
    y = h * 3.0
    refs = [weakref.ref(h.creator), weakref.ref(y.creator), weakref.ref(h.node)]
    del h, y
    assert all(r() is None for r in refs)
    assert x.node.creator is None


def test_backward_frees_pending_grads_and_keeps_graph_reusable():
    x = _v(1.0, 2.0)
    y = F.sum(x * x)
    y.backward()
    y.backward()
    np.testing.assert_allclose(x.grad, 2 * 2 * x.array)


def _thread_grads(seed):
    rng = np.random.RandomState(seed)
    x = chainerlite.Variable(rng.rand(5, 5))
    w = chainerlite.Variable(rng.rand(5, 5))
    h = x
    for _ in range(50):
        h = h * w + h * 0.5
    F.sum(h).backward()
    return x.grad.copy(), w.grad.copy()


def _run_threads(target, n):
    """Runs ``target(k)`` for k in range(n), each in its own thread."""
    threads = [threading.Thread(target=target, args=(k,)) for k in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def test_concurrent_threads_match_serial():
    serial = [_thread_grads(i) for i in range(8)]
    results = [None] * 8

    def run(i):
        results[i] = _thread_grads(i)

    _run_threads(run, 8)
    for (sx, sw), (tx, tw) in zip(serial, results):
        np.testing.assert_array_equal(sx, tx)
        np.testing.assert_array_equal(sw, tw)


class _Failing(chainerlite.FunctionNode):
    def forward(self, inputs):
        raise ValueError('bad forward')


def test_exception_in_forward_leaves_no_half_linked_node():
    x = _v(1.0)
    node = _Failing()
    with pytest.raises(ValueError):
        node.apply((x,))
    assert node.inputs is None and node.outputs is None
    assert x.node.creator is None


class _WrongGrad(chainerlite.FunctionNode):
    def __init__(self, grad):
        self.grad = grad

    def forward(self, inputs):
        return (inputs[0] * 2,)

    def backward(self, indexes, grad_outputs):
        return (chainerlite.Variable(self.grad),)


@pytest.mark.parametrize(
    'grad, exc, text',
    [
        (np.ones((3,)), ValueError, 'shape'),
        (np.ones((2,), np.float32), TypeError, 'dtype'),
    ],
)
def test_grad_mismatch_names_function(grad, exc, text):
    x = _v(1.0, 2.0)
    (y,) = _WrongGrad(grad).apply((x,))
    y.grad = np.ones(2)
    with pytest.raises(exc) as info:
        y.backward()
    assert '_WrongGrad' in str(info.value) and text in str(info.value)
    assert x.grad is None  # nothing half-accumulated


def test_grad_only_walks_between_outputs_and_inputs():
    calls = []

    class Count(chainerlite.FunctionHook):
        name = 'count'

        def backward_preprocess(self, function, in_data, out_grad):
            calls.append(function.label)

    x = _v(1.0)
    a = F.exp(x)  # upstream of `a`: not needed for d y / d a
    y = a * 2.0
    with Count():
        (ga,) = chainerlite.grad([y], [a])
    assert calls == ['_ * 2.0']
    np.testing.assert_allclose(ga.array, [2.0])
    assert x.grad is None and a.grad is None


def test_grad_set_grad_and_grad_inputs():
    x = _v(1.0, 2.0)
    y = F.sum(x * 3.0)
    (gx,) = chainerlite.grad([y], [x], grad_inputs=[np.ones(2)], set_grad=True)
    np.testing.assert_allclose(gx.array, [4.0, 4.0])
    np.testing.assert_allclose(x.grad, [4.0, 4.0])


# ------------------------------------------------- grad() on shared subgraphs


def test_grad_keeps_a_value_used_with_its_descendant():
    x = chainerlite.Variable(np.array(1.0))
    a = -x
    f = a + a * a  # df/dx = -(1 + 2a) = 1 at x = 1
    (gx,) = chainerlite.grad([f], [x])
    np.testing.assert_allclose(gx.array, 1.0)
    f.backward()
    np.testing.assert_allclose(x.grad, 1.0)


def test_grad_matches_backward_on_a_residual_block():
    rng = np.random.RandomState(0)
    x = chainerlite.Variable(rng.randn(4, 3))
    w1 = chainerlite.Variable(rng.randn(3, 3))
    w2 = chainerlite.Variable(rng.randn(3, 3))
    h = F.matmul(x, w1)
    out = F.sum(h + F.tanh(F.matmul(h, w2)))
    gx, gw1, gw2 = chainerlite.grad([out], [x, w1, w2])
    out.backward()
    np.testing.assert_allclose(gx.array, x.grad)
    np.testing.assert_allclose(gw1.array, w1.grad)
    np.testing.assert_allclose(gw2.array, w2.grad)


def test_grad_by_an_intermediate_and_its_ancestor():
    # Chainer passes the gradient on through an input to what it was
    # computed from: d(h*h)/dx counts the path through h.
    x = _v(3.0)
    h = x * 2.0
    y = h * h
    gx, gh = chainerlite.grad([y], [x, h])
    np.testing.assert_allclose(gh.array, [12.0])
    np.testing.assert_allclose(gx.array, [24.0])


def test_grad_loss_scale_applies_to_default_seeds_only():
    x = _v(1.0, 2.0)
    y = x * 3.0
    (g_default,) = chainerlite.grad([F.sum(y)], [x], loss_scale=2.0)
    np.testing.assert_allclose(g_default.array, [6.0, 6.0])
    (g_given,) = chainerlite.grad([y], [x], grad_outputs=[np.ones(2)], loss_scale=2.0)
    np.testing.assert_allclose(g_given.array, [3.0, 3.0])


def _trunk_and_heads(seed):
    rng = np.random.RandomState(seed)
    x = chainerlite.Variable(rng.rand(4, 4))
    w = chainerlite.Variable(rng.rand(4, 4))
    trunk = x
    for _ in range(20):
        trunk = F.tanh(F.matmul(trunk, w) + trunk * 0.5)
    heads = [
        F.sum(trunk * float(k + 1)) + F.sum(trunk * trunk) * float(k) for k in range(8)
    ]
    return x, w, heads


def test_threads_running_grad_on_heads_of_one_trunk_match_serial():
    x, w, heads = _trunk_and_heads(0)
    serial = [[g.array.copy() for g in chainerlite.grad([h], [x, w])] for h in heads]
    results = [[] for _ in heads]
    barrier = threading.Barrier(len(heads))

    def run(k):
        barrier.wait()
        for _ in range(20):
            results[k].append([g.array for g in chainerlite.grad([heads[k]], [x, w])])

    _run_threads(run, len(heads))
    for k, runs in enumerate(results):
        assert len(runs) == 20
        for gx, gw in runs:
            np.testing.assert_array_equal(gx, serial[k][0])
            np.testing.assert_array_equal(gw, serial[k][1])


def test_threads_mixing_first_and_second_order_grad_on_one_graph():
    # Half of the threads build the graph of the backward pass, half do not;
    # the gradients they return must add up to the serial sum.
    x, w, heads = _trunk_and_heads(1)
    expected = sum(chainerlite.grad([h], [x])[0].array for h in heads)
    barrier = threading.Barrier(len(heads))
    lock = threading.Lock()
    total = [np.zeros_like(x.array)]

    def run(k):
        barrier.wait()
        (g,) = chainerlite.grad([heads[k]], [x], enable_double_backprop=k % 2)
        with lock:
            total[0] = total[0] + g.array

    _run_threads(run, len(heads))
    np.testing.assert_allclose(total[0], expected, rtol=1e-12)


# ---------------------------------------------------------- sibling outputs


def test_backward_uses_a_sibling_outputs_preset_grad():
    x = chainerlite.Variable(np.arange(4.0))
    y1, y2 = F.split_axis(x, 2, 0)
    y2.grad = np.array([5.0, 6.0])
    y1.grad = np.array([1.0, 2.0])
    y1.backward()
    np.testing.assert_allclose(x.grad, [1.0, 2.0, 5.0, 6.0])
    assert y2.grad is None  # consumed, as in Chainer


def test_backward_function_consumes_the_outputs_grads():
    x = _v(1.0, 2.0)
    y = x * 2.0
    y.grad = np.ones(2)
    chainerlite.backward([y])
    np.testing.assert_allclose(x.grad, [2.0, 2.0])
    assert y.grad is None
    with pytest.warns(RuntimeWarning, match='no grad'):
        chainerlite.backward([x * 3.0])


def test_hook_that_unchains_its_node_gets_a_clear_error():
    class Unchain(chainerlite.FunctionHook):
        name = 'unchain'

        def backward_preprocess(self, function, in_data, out_grad):
            function.unchain()

    x = _v(1.0, 2.0)
    y = F.sum(F.tanh(x) * x)
    with Unchain():
        with pytest.raises(
            RuntimeError,
            match='unchained while backward was running over it, by a '
            'backward_preprocess hook;',
        ):
            y.backward()
    assert x.grad is None


def test_another_thread_that_unchains_a_node_under_backward_is_named():
    # The backward thread's hook holds the node while a real second thread
    # unchains it; the error names the other thread, not a hook.
    reached, unchained = threading.Event(), threading.Event()

    class Hold(chainerlite.FunctionHook):
        name = 'hold'

        def backward_preprocess(self, function, in_data, out_grad):
            if function is target:
                reached.set()
                assert unchained.wait(10)

    def other():
        assert reached.wait(10)
        target.unchain()
        unchained.set()

    x = _v(1.0, 2.0)
    h = F.tanh(x) * x
    target = h.creator
    y = F.sum(h * 3.0)
    thread = threading.Thread(target=other)
    thread.start()
    try:
        with Hold():
            with pytest.raises(RuntimeError) as info:
                y.backward()
    finally:
        reached.set()
        thread.join(10)
    message = str(info.value)
    assert 'unchained while backward was running over it, by another thread' in (
        message
    )
    assert 'hook' not in message
    assert x.grad is None


def test_grad_adds_the_output_gradients_of_an_output_given_twice():
    # the gradient of gz1 * z + gz2 * z (Chainer 7.8.1 keeps only gz2; see
    # docs/differences.rst)
    x = chainerlite.Variable(np.ones(3, np.float32))
    z = F.sum(x * 2.0)
    gzs = [chainerlite.Variable(np.array(v, np.float32)) for v in (1.0, 5.0)]
    (gx,) = chainerlite.grad([z, z], [x], gzs)
    np.testing.assert_array_equal(gx.array, [12.0, 12.0, 12.0])
