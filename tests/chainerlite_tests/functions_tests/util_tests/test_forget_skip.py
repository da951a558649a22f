"""F.forget's recomputation stops after the last node its backward needs."""

import os
import weakref
from unittest import mock

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import function_node
from chainerlite import gradient_check
from chainerlite.functions.math.matmul import MatMul
from chainerlite.functions.util import forget_skip
from chainerlite.functions.util import forget_trace


class _Counting(object):
    """Counts the forward products of MatMul (its backward multiplies by
    transposes); a node passed over computes none."""

    def __init__(self):
        self.count = 0
        original = MatMul.forward

        def forward(node, inputs):
            self.count += not (node.transa or node.transb)
            return original(node, inputs)

        self._patch = mock.patch.object(MatMul, 'forward', forward)

    def __enter__(self):
        self._patch.start()
        return self

    def __exit__(self, *_):
        self._patch.stop()


def _residual(x, W1, W2):
    # the second matmul reads relu's output (retained as relu's and as its
    # own input): relu runs again; the second matmul and the sum do not
    return x + F.matmul(F.relu(F.matmul(x, W1)), W2)


def _arrays(seed, *shapes):
    rng = numpy.random.RandomState(seed)
    return [rng.randn(*shape) for shape in shapes]


def _grads(run, arrays):
    xs = [chainerlite.Variable(a.copy()) for a in arrays]
    y = run(*xs)
    F.sum(y * y).backward()
    return [y.array] + [x.grad for x in xs]


def _assert_same(a, b):
    for u, v in zip(a, b):
        numpy.testing.assert_array_equal(u, v)


def test_tail_is_not_recomputed():
    arrays = _arrays(0, (4, 6), (6, 8), (8, 6))
    with _Counting() as calls:
        plain = _grads(_residual, arrays)
    assert calls.count == 2
    with _Counting() as calls:
        forgotten = _grads(lambda *xs: F.forget(_residual, *xs), arrays)
    assert calls.count == 3  # the forward call's two, and the first again
    _assert_same(plain, forgotten)


def _relu_block(x, W1, W2):
    return F.relu(F.matmul(F.matmul(x, W1), W2))


def test_node_that_made_a_returned_array_stands_in_while_it_lives():
    # relu reads its output, which forget returned: while that array lives
    # (y * y keeps it), relu is linked with it and the last matmul, which
    # only relu read, is passed over
    arrays = _arrays(1, (4, 6), (6, 8), (8, 6))
    with _Counting() as calls:
        forgotten = _grads(lambda *xs: F.forget(_relu_block, *xs), arrays)
    assert calls.count == 3  # the forward call's two, and the first again
    _assert_same(_grads(_relu_block, arrays), forgotten)


@pytest.mark.parametrize(
    'func, expected',
    [
        (lambda a, b: a, ([1.0, 2.0], [0.0, 0.0])),
        (lambda a, b: (a, a), ([2.0, 4.0], [0.0, 0.0])),
        (lambda a, b: (b, a * 3), ([9.0, 18.0], [3.0, 4.0])),
    ],
)
def test_inputs_returned_as_they_are(func, expected):
    # an input of forget among the returned arrays (its source is -1, no
    # node) was looked up as the last node of the trace: IndexError with
    # no node, KeyError or another node's outputs otherwise
    xs = [chainerlite.Variable(numpy.array(v, numpy.float32)) for v in ([1, 2], [3, 4])]
    ys = F.forget(func, *xs)
    ys = ys if isinstance(ys, tuple) else (ys,)
    sum(F.sum(y * y) for y in ys).backward()
    for x, gx in zip(xs, expected):
        numpy.testing.assert_allclose(
            numpy.zeros(2) if x.grad is None else x.grad, numpy.multiply(gx, 2)
        )


def test_returned_array_made_by_another_node_when_recomputed():
    # the node that made the returned array stands in for itself, but the
    # recomputation applies another one there: it runs in full, as Chainer
    # (which checks nothing), instead of raising keep's RuntimeError
    def f(h):
        if chainerlite.config.in_recomputing:
            return h * 3
        return h + 0

    x = chainerlite.Variable(numpy.array([1, 2], numpy.float32))
    y = F.forget(f, x)
    F.sum(y * 2).backward()
    numpy.testing.assert_array_equal(x.grad, [6, 6])


def test_tail_after_a_node_whose_output_died_runs():
    # the returned array died before backward (F.sum keeps no input):
    # relu runs again, and so does everything before it
    arrays = _arrays(1, (4, 6), (6, 8), (8, 6))
    xs = [chainerlite.Variable(a.copy()) for a in arrays]
    with _Counting() as calls:
        F.sum(F.forget(_relu_block, *xs)).backward()
    assert calls.count == 4
    ys = [chainerlite.Variable(a.copy()) for a in arrays]
    F.sum(_relu_block(*ys)).backward()
    _assert_same([x.grad for x in xs], [y.grad for y in ys])


def test_array_made_anew_in_the_tail_is_not_passed_over():
    # the last product retains an array the function makes in each call:
    # that node runs again (the forward call's array is gone)
    made = []

    def block(x, W):
        scale = numpy.full((4, 6), 0.5)
        made.append(weakref.ref(scale))
        return F.matmul(x, W) * scale

    arrays = _arrays(2, (4, 6), (6, 6))
    forgotten = _grads(lambda *xs: F.forget(block, *xs), arrays)
    assert len(made) == 2
    _assert_same(_grads(block, arrays), forgotten)


def test_recomputation_with_other_arrays_runs_in_full():
    # an array the function keeps alive, but another one in each call (of
    # the same values): the tail reads it, so the recomputation sees it
    # differs and runs every node again
    kept = []

    def block(x, W):
        kept.append(numpy.full((4, 6), 0.5))
        return x + F.matmul(x, W) * kept[-1]

    arrays = _arrays(3, (4, 6), (6, 6))
    forgotten = _grads(lambda *xs: F.forget(block, *xs), arrays)
    assert len(kept) == 3  # forward, the recomputation stopped, in full
    _assert_same(_grads(block, arrays), forgotten)


def test_a_branch_on_a_placeholder_is_caught():
    # the function branches on the value of an array of the tail: in the
    # recomputation that array is a placeholder (zeros), the branch differs
    # and the recomputation runs again in full
    calls = []

    def block(x, W):
        h = F.matmul(x, W)
        calls.append(None)
        if (h.array > 0).any():
            h = h * 2.0
        return h + x

    arrays = _arrays(4, (4, 6), (6, 6))
    forgotten = _grads(lambda *xs: F.forget(block, *xs), arrays)
    assert len(calls) == 3
    _assert_same(_grads(block, arrays), forgotten)


class _Scale(function_node.FunctionNode):
    # a node of the user's: never passed over
    calls = 0

    def forward(self, inputs):
        type(self).calls += 1
        self.retain_inputs((1,))
        return (inputs[0] * inputs[1],)

    def backward(self, indexes, grad_outputs):
        (s,) = self.get_retained_inputs()
        return grad_outputs[0] * s, None


def test_nodes_of_the_user_run_again():
    s = numpy.full((4, 6), 3.0)

    def block(x, W):
        return _Scale().apply((F.matmul(x, W), s))[0]

    arrays = _arrays(5, (4, 6), (6, 6))
    _Scale.calls = 0
    forgotten = _grads(lambda *xs: F.forget(block, *xs), arrays)
    assert _Scale.calls == 2
    _assert_same(_grads(block, arrays), forgotten)


def test_eligible_nodes_hold_no_array():
    y = F.dropout(chainerlite.Variable(numpy.ones((3, 3), numpy.float32)))
    assert not forget_skip.eligible(y.creator)  # its mask
    product = F.matmul(numpy.ones((2, 2)), numpy.ones((2, 2)))
    assert forget_skip.eligible(product.creator)
    assert not forget_skip.eligible(_Scale())


def _random_block(rng):
    """A random function of x (4, 6) and parameters, through nodes that
    retain inputs, outputs, nothing, arrays of their own (dropout, batch
    normalization), several outputs, with arrays made in Python (kept or
    made anew) and numbers read from arrays in Python; its tail is often
    passed over."""
    persistent = numpy.asarray(rng.randn(4, 6))
    ops = [
        lambda h, p: F.matmul(h, p[0]),
        lambda h, p: F.linear(h, p[0], p[1]),
        lambda h, p: F.relu(h),
        lambda h, p: F.tanh(h),
        lambda h, p: F.exp(h * 0.1),
        lambda h, p: h + p[2],
        lambda h, p: h - 0.5,
        lambda h, p: h * persistent,
        lambda h, p: h * numpy.full((4, 6), 0.7),
        lambda h, p: F.reshape(F.transpose(F.reshape(h, (6, 4))), (4, 6)),
        lambda h, p: F.broadcast_to(F.sum(h, axis=0), (4, 6)) * 0.1 + h,
        lambda h, p: F.dropout(h, 0.3),
        lambda h, p: F.batch_normalization(h, p[3], p[4]),
        lambda h, p: F.concat(F.split_axis(h, 2, axis=1)[::-1], axis=1),
        lambda h, p: h * float(numpy.abs(h.array).mean() + 1),
        lambda h, p: F.sigmoid(h) * h,
    ]
    picks = rng.randint(0, len(ops), size=rng.randint(2, 7))
    residual = rng.rand() < 0.5

    def block(x, W, b, c, gamma, beta):
        h = x
        for k in picks:
            h = ops[k](h, (W, b, c, gamma, beta))
        return x + h if residual else h

    return block


@pytest.mark.parametrize('double', [False, True])
def test_random_graphs_have_the_gradients_of_plain_calls(double):
    rng = numpy.random.RandomState(7)
    passed_over = 0
    trials = 600 if os.environ.get('CHAINERLITE_FUZZ') == 'full' else 60
    for trial in range(trials):
        block = _random_block(rng)
        arrays = _arrays(trial, (4, 6), (6, 6), (6,), (4, 6), (6,), (6,))
        arrays[1] = arrays[1][:, :6]
        results = []
        for wrap in (block, lambda *xs: F.forget(block, *xs)):
            numpy.random.seed(trial)
            xs = [chainerlite.Variable(a.copy()) for a in arrays]
            y = wrap(*xs)
            firsts = []
            if double:
                gxs = chainerlite.grad([F.sum(y * y)], xs, enable_double_backprop=True)
                firsts = [None if g is None else g.array for g in gxs]
                F.sum(sum(F.sum(g * g) for g in gxs if g is not None)).backward()
            else:
                F.sum(y * y).backward()
            results.append([y.array] + firsts + [x.grad for x in xs])
            if wrap is not block:
                passed_over += bool(y.creator._skipped)
        for a, b in zip(*results):
            assert (a is None) == (b is None)  # a parameter the block did not use
            if a is not None:
                numpy.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)
    assert passed_over >= trials // 4


def test_double_backward_through_a_tail_passed_over():
    arrays = _arrays(8, (3, 4), (4, 5), (5, 4))

    def f(*xs):
        return F.forget(_residual, *xs)

    xs = [chainerlite.Variable(a) for a in arrays]
    assert f(*xs).creator._skipped
    (gy,) = _arrays(9, (3, 4))
    ggs = tuple(_arrays(10, (3, 4), (4, 5), (5, 4)))
    gradient_check.check_double_backward(f, tuple(arrays), gy, ggs, dtype=numpy.float64)


def test_threads_replay_their_draws_with_a_tail_passed_over(in_threads):
    W = numpy.random.RandomState(11).randn(6, 6)

    def run():
        masks = []

        def block(x):
            h, mask = F.dropout(F.relu(x), 0.5, return_mask=True)
            if not chainerlite.config.in_recomputing:
                masks.append(mask)
            return x + F.matmul(h, W)

        for i in range(10):
            a = numpy.random.RandomState(i).randn(4, 6)
            x = chainerlite.Variable(a)
            y = F.forget(block, x)
            assert y.creator._skipped
            F.sum(y).backward()
            # the gradient with the forward call's mask
            expected = 1 + masks[-1] * (a > 0) * W.sum(axis=1)
            numpy.testing.assert_allclose(x.grad, expected, rtol=1e-12)
            assert (masks[-1] == 0).any() and (masks[-1] != 0).any()
        return masks

    assert len(in_threads(run, 4)) == 4


def test_arrays_without_weak_references():
    # where arrays take no weak reference (another array type), no input
    # can be traced to its source: only a tail that retains nothing is
    # passed over, and the gradients are right
    def refuse(obj):
        raise TypeError('cannot create weak reference')

    arrays = _arrays(13, (4, 6), (6, 8), (8, 6))
    with mock.patch.object(forget_trace.weakref, 'ref', refuse):
        xs = [chainerlite.Variable(a.copy()) for a in arrays]
        y = F.forget(_residual, *xs)
        assert y.creator._skipped == {3}  # the sum
        F.sum(y * y).backward()
    forgotten = [y.array] + [x.grad for x in xs]
    _assert_same(_grads(_residual, arrays), forgotten)
