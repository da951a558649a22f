import weakref

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite.functions.util import forget
from chainerlite.functions.util import forget_replay
from chainerlite.functions.util import forget_trace
from chainerlite.testing import attr


def _variable(shape=(3, 4)):
    return chainerlite.Variable(numpy.random.uniform(-1, 1, shape))


def _f(a, b):
    return (a + b) * a


def test_forward_matches_direct_call():
    x, y = _variable(), _variable()
    z = F.forget(_f, x, y)
    assert isinstance(z, chainerlite.Variable)
    numpy.testing.assert_allclose(z.array, _f(x, y).array)


def test_graph_keeps_only_the_forget_node():
    x, y = _variable(), _variable()
    z = F.forget(_f, x, y)
    assert isinstance(z.creator, forget.Forget)
    assert [node.rank for node in z.creator.inputs] == [0, 0]
    assert z.rank == 1


def test_backward_matches_direct_call():
    x, y = _variable(), _variable()
    gz = numpy.random.uniform(-1, 1, x.shape)
    z = F.forget(_f, x, y)
    z.grad = gz
    z.backward()
    numpy.testing.assert_allclose(x.grad, gz * (2 * x.array + y.array))
    numpy.testing.assert_allclose(y.grad, gz * x.array)


def test_check_backward():
    x = numpy.random.uniform(-1, 1, (3, 4))
    y = numpy.random.uniform(-1, 1, (3, 4))
    gz = numpy.random.uniform(-1, 1, (3, 4))
    gradient_check.check_backward(lambda a, b: F.forget(_f, a, b), (x, y), gz)


def test_configuration_during_forward_and_recomputation():
    seen = []

    def f(a):
        seen.append(
            (chainerlite.config.enable_backprop, chainerlite.config.in_recomputing)
        )
        return F.exp(a)

    x = _variable()
    z = F.forget(f, x)
    assert seen == [(False, False)]
    z.grad = numpy.ones(x.shape)
    z.backward()
    assert seen == [(False, False), (True, True)]
    assert chainerlite.config.in_recomputing is False


def test_multiple_outputs():
    x, y = _variable(), _variable()
    z0, z1 = F.forget(lambda a, b: (a * b, F.exp(a)), x, y)
    numpy.testing.assert_allclose(z0.array, x.array * y.array)
    numpy.testing.assert_allclose(z1.array, numpy.exp(x.array))
    z0.grad = numpy.ones(x.shape)
    z0.backward()
    numpy.testing.assert_allclose(x.grad, y.array)
    numpy.testing.assert_allclose(y.grad, x.array)


def test_list_output_is_refused_as_in_chainer():
    x = _variable()
    with pytest.raises(RuntimeError, match='list'):
        F.forget(lambda a: [a * 2, a * 3], x)
    outs = F.forget(lambda a: (a * 2, a * 3), x)
    assert isinstance(outs, tuple) and len(outs) == 2


def test_unused_input_has_no_gradient():
    x, y = _variable(), _variable()
    z = F.forget(lambda a, b: F.exp(a), x, y)
    z.grad = numpy.ones(x.shape)
    z.backward()
    numpy.testing.assert_allclose(x.grad, numpy.exp(x.array))
    assert y.grad is None


def test_func_returning_its_input():
    x, y = _variable(), _variable()
    a, b = F.forget(lambda a, b: (a, a * b), x, y)
    a.grad = numpy.full(x.shape, 2.0)
    b.grad = numpy.ones(x.shape)
    chainerlite.backward([a, b])
    numpy.testing.assert_allclose(x.grad, 2.0 + y.array)
    numpy.testing.assert_allclose(y.grad, x.array)


def test_ndarray_inputs_join_the_graph():
    x = numpy.random.uniform(-1, 1, (2, 3))
    z = F.forget(lambda a: a * 2, x)
    assert isinstance(z.creator, forget.Forget)
    z.grad = numpy.ones((2, 3))
    z.backward()


class _Scale(chainerlite.FunctionNode):
    # y = 3 x; records the input indexes its backward was asked for and
    # whether its output array was alive then
    calls = []

    def forward(self, inputs):
        y = inputs[0] * 3
        self.out_ref = weakref.ref(y)
        return (y,)

    def backward(self, indexes, grad_outputs):
        _Scale.calls.append((tuple(indexes), self.out_ref() is not None))
        return (grad_outputs[0] * 3,)


@pytest.mark.parametrize('as_variable', [True, False])
def test_recomputation_takes_only_the_gradients_someone_reads(as_variable):
    # an array argument is wrapped in a variable no one can read, so its
    # gradient is not computed during the recomputation's backward
    x = numpy.random.uniform(-1, 1, (2, 3))
    arg = chainerlite.Variable(x) if as_variable else x
    _Scale.calls = []
    z = F.forget(lambda a: _Scale().apply((a,))[0], arg)
    z.grad = numpy.ones((2, 3))
    z.backward()
    first = [indexes for indexes, _ in _Scale.calls]
    assert first == ([(0,)] if as_variable else [])
    if as_variable:
        numpy.testing.assert_allclose(arg.grad, numpy.full((2, 3), 3.0))


def test_recomputed_output_array_goes_before_its_backward():
    # the recomputed output that no node retained is not held while the
    # recomputed graph is back-propagated (only its gradient is needed)
    x = chainerlite.Variable(numpy.ones((2, 3)))
    _Scale.calls = []
    z = F.forget(lambda a: _Scale().apply((a,))[0], x)
    z.grad = numpy.ones((2, 3))
    z.backward()
    assert _Scale.calls == [((0,), False)]
    numpy.testing.assert_allclose(x.grad, numpy.full((2, 3), 3.0))


class _Exp(chainerlite.FunctionNode):
    # y = exp(x), retaining y for its backward; remembers its last output
    last = None

    def forward(self, inputs):
        self.retain_outputs((0,))
        y = numpy.exp(inputs[0])
        _Exp.last = weakref.ref(y)
        return (y,)

    def backward(self, indexes, grad_outputs):
        (y,) = self.get_retained_outputs()
        return (grad_outputs[0] * y,)


class _WatchExp(_Scale):
    # _Scale whose backward records whether _Exp's last output is gone
    seen = []

    def backward(self, indexes, grad_outputs):
        _WatchExp.seen.append(_Exp.last() is None)
        return super().backward(indexes, grad_outputs)


def test_recomputed_output_its_creator_retained_goes_after_that_backward():
    # exp's output is the recomputed root: once exp's backward ran, the
    # recomputation holds it no longer (the scale's backward runs next)
    x = chainerlite.Variable(numpy.linspace(-1, 1, 6))
    _WatchExp.seen = []
    z = F.forget(lambda a: _Exp().apply((_WatchExp().apply((a,))[0],))[0], x)
    z.grad = numpy.ones(6)
    z.backward()
    assert _WatchExp.seen == [True]
    numpy.testing.assert_allclose(x.grad, 3 * numpy.exp(3 * x.array))


class _Grab(_Scale):
    # _Scale whose backward remembers the gradient it gives (a new array)
    last = None

    def backward(self, indexes, grad_outputs):
        (gx,) = super().backward(indexes, grad_outputs)
        _Grab.last = weakref.ref(gx.array)
        return (gx,)


class _WatchGrad(_Scale):
    # _Scale whose backward records whether _Grab's last gradient is gone
    seen = []

    def backward(self, indexes, grad_outputs):
        _WatchGrad.seen.append(_Grab.last() is None)
        return super().backward(indexes, grad_outputs)


def test_output_gradient_goes_once_the_recomputed_graph_took_it():
    # forget's output gradient (given by _Grab's backward) is held by the
    # recomputed pass alone, not by the engine's frames around forget's
    # backward: once exp's backward took it, it is gone before the scale's
    # backward runs, as PyTorch's engine frees it
    x = chainerlite.Variable(numpy.linspace(-1, 1, 6))
    _WatchGrad.seen = []
    z = F.forget(lambda a: _Exp().apply((_WatchGrad().apply((a,))[0],))[0], x)
    y = _Grab().apply((z,))[0]
    y.grad = numpy.ones(6)
    y.backward()
    assert _WatchGrad.seen == [True]
    numpy.testing.assert_allclose(x.grad, 9 * numpy.exp(3 * x.array))


def test_not_callable():
    with pytest.raises(TypeError):
        F.forget(1, _variable())


@pytest.mark.parametrize(
    'position, ordinal',
    [
        (1, '1st'),
        (2, '2nd'),
        (3, '3rd'),
        (4, '4th'),
        (11, '11th'),
        (12, '12th'),
        (13, '13th'),
        (21, '21st'),
        (22, '22nd'),
        (23, '23rd'),
        (101, '101st'),
        (111, '111th'),
    ],
)
def test_non_variable_element_names_ordinal(position, ordinal):
    def f(a):
        outs = [a] * position
        outs[-1] = a.array
        return tuple(outs)

    message = (
        '{} element of a returned tuple is not Variable, but is numpy.ndarray'.format(
            ordinal
        )
    )
    with pytest.raises(RuntimeError, match=message):
        F.forget(f, _variable())


@pytest.mark.parametrize(
    'value, type_name',
    [(numpy.zeros(2), 'numpy.ndarray'), (None, 'NoneType'), (3, 'int')],
)
def test_non_variable_return(value, type_name):
    with pytest.raises(RuntimeError, match=type_name):
        F.forget(lambda a: value, _variable())


def test_double_backprop_builds_a_graph_of_the_gradients():
    x, y = _variable(), _variable()
    z = F.forget(_f, x, y)
    z.grad = numpy.ones(x.shape)
    z.backward(enable_double_backprop=True)
    assert x.grad_var.creator is not None
    numpy.testing.assert_allclose(x.grad, 2 * x.array + y.array)


def _dropout_grads(xp, use_forget):
    rng = numpy.random.RandomState(3)
    x_data = xp.asarray(rng.randn(4, 6).astype(numpy.float32))
    W_data = xp.asarray(rng.randn(6, 6).astype(numpy.float32))

    def block(x, W):
        return F.dropout(F.tanh(F.linear(x, W)), ratio=0.5) * 2.0

    xp.random.seed(11)
    x, W = chainerlite.Variable(x_data), chainerlite.Variable(W_data)
    y = F.forget(block, x, W) if use_forget else block(x, W)
    after = xp.random.random_sample((2,))  # the stream goes on the same
    F.sum(y * y).backward()
    return [
        chainerlite.backend.CpuDevice().send(a)
        for a in (y.array, x.grad, W.grad, after)
    ]


def test_dropout_inside_forget_replays_its_mask():
    plain = _dropout_grads(numpy, False)
    forgotten = _dropout_grads(numpy, True)
    for a, b in zip(plain, forgotten):
        numpy.testing.assert_array_equal(a, b)
    assert (plain[0] == 0).any()  # the mask did drop something


@attr.gpu
def test_dropout_inside_forget_replays_its_mask_on_gpu():
    # CuPy's draws under forget differ from a plain call's, so the check is
    # that the recomputation used the forward's mask: with
    # y = 2 * dropout(h) = 4 * mask * h and h = tanh(x W^T), the gradient of
    # sum(y * y) with respect to the pre-activation is 8 y (1 - h^2).
    cupy = chainerlite.backends.cuda.cupy
    y, gx, gW, _ = _dropout_grads(cupy, True)
    rng = numpy.random.RandomState(3)
    x = rng.randn(4, 6).astype(numpy.float32)
    W = rng.randn(6, 6).astype(numpy.float32)
    h = numpy.tanh(x @ W.T)
    g_pre = 8 * y * (1 - h * h)
    numpy.testing.assert_allclose(gx, g_pre @ W, rtol=1e-4, atol=1e-4)
    numpy.testing.assert_allclose(gW, g_pre.T @ x, rtol=1e-4, atol=1e-4)
    assert (y == 0).any() and (y != 0).any()


def test_replay_leaves_the_global_stream_untouched():
    # The forward takes from numpy.random what a plain call takes; the
    # recomputation takes nothing.
    x = chainerlite.Variable(numpy.ones((3, 3), numpy.float32))
    numpy.random.seed(0)
    y = F.forget(lambda a: F.dropout(a), x)
    first = numpy.random.random_sample(3)
    F.sum(y).backward()
    second = numpy.random.random_sample(3)
    numpy.random.seed(0)
    F.dropout(x)
    numpy.testing.assert_array_equal(first, numpy.random.random_sample(3))
    numpy.testing.assert_array_equal(second, numpy.random.random_sample(3))


def _masked(a):
    # Linear in ``a`` with random coefficients from four draws of two kinds,
    # one of them in a nested forget: with a of ones, y == dy/da.
    zero = chainerlite.Variable(numpy.zeros(a.shape, a.dtype))
    inner = F.forget(lambda b: F.dropout(b, 0.3), a)
    return F.dropout(a) * F.gaussian(zero, zero) + F.dropout(inner) * 3.0


def _check_replays(func, shape, calls):
    outputs = []
    for _ in range(calls):
        x = chainerlite.Variable(numpy.ones(shape, numpy.float32))
        y = F.forget(func, x)
        F.sum(y).backward()
        numpy.testing.assert_allclose(x.grad, y.array, rtol=1e-6)
        outputs.append(y.array)
    return outputs


def test_each_thread_replays_its_own_draws(in_threads):
    outputs = in_threads(lambda: _check_replays(_masked, (16, 16), 20), 8)
    assert all((y == 0).any() and (y != 0).any() for ys in outputs for y in ys)


def test_threads_share_one_stream_as_serial_calls_do(in_threads):
    def drop(a):
        return F.dropout(a) * 1.0

    numpy.random.seed(5)
    serial = _check_replays(drop, (8, 8), 8 * 10)
    numpy.random.seed(5)
    threaded = sum(in_threads(lambda: _check_replays(drop, (8, 8), 10), 8), [])
    assert sorted(y.tobytes() for y in threaded) == sorted(y.tobytes() for y in serial)


def test_recomputation_drawing_more_than_forward_raises():
    draws = iter([1, 2])

    def growing(a):
        for _ in range(next(draws)):
            a = F.dropout(a)
        return a

    y = F.forget(growing, chainerlite.Variable(numpy.ones(3, numpy.float32)))
    with pytest.raises(RuntimeError, match='forget: .*more random numbers'):
        F.sum(y).backward()


def _nested_block(wrap):
    def block(a):
        h = wrap(lambda b: F.dropout(F.tanh(b), 0.4), a)
        return F.dropout(h) * F.gaussian(a, a)

    numpy.random.seed(2)
    x = chainerlite.Variable(numpy.linspace(-1, 1, 12, dtype=numpy.float32))
    y = wrap(block, x)
    F.sum(y * y).backward()
    return y.array, x.grad


def test_nested_forget_draws_as_plain_calls():
    plain = _nested_block(lambda f, *xs: f(*xs))
    forgotten = _nested_block(F.forget)
    for a, b in zip(plain, forgotten):
        numpy.testing.assert_array_equal(a, b)


def _forget_hooks():
    # (registered, dispatched): the forget hooks in the registry, and those
    # of them its dispatch entries call
    registry = chainerlite.get_function_hooks()
    ours = (forget_trace.Trace, forget_replay.Replayer)
    return (
        sum(isinstance(h, ours) for h in registry.values()),
        sum(isinstance(e.hook, ours) for e in registry.entries),
    )


def test_nested_forget_hides_the_enclosing_hooks_from_its_nodes():
    # each node passes through the innermost forget's hook alone: else d
    # nested forgets cost d**3 on backward
    seen = []

    def inner(b):
        seen.append(_forget_hooks())
        return b * 2.0

    def outer(a):
        seen.append(_forget_hooks())
        return F.forget(inner, a * 3.0) + a

    x = chainerlite.Variable(numpy.ones(3, numpy.float32))
    y = F.forget(outer, x)
    assert seen == [(1, 1), (2, 1)]  # the forward call
    F.sum(y).backward()
    numpy.testing.assert_array_equal(x.grad, numpy.full(3, 7.0, numpy.float32))
    # outer recomputed (under its replayer), inner's forward in it, then
    # inner again for inner's own backward (with nothing to substitute, no
    # replayer)
    assert seen[2:] == [(1, 1), (2, 1), (0, 0)]
    assert _forget_hooks() == (0, 0)


def test_backward_in_another_thread_replays_the_forward_draws(in_threads):
    x = chainerlite.Variable(numpy.ones((6, 6), numpy.float32))
    (y,) = in_threads(lambda: F.forget(lambda a: F.dropout(a) * 1.0, x), 1)
    F.sum(y).backward()
    numpy.testing.assert_array_equal(x.grad, y.array)


@pytest.mark.parametrize('double', [False, True])
def test_recomputation_with_other_outputs_is_an_error(double):
    # a function that returns fewer outputs when recomputed had the
    # gradients of the others dropped, silently (Chainer asserts)
    calls = []

    def f(a):
        calls.append(None)
        return (F.exp(a), a * 2) if len(calls) == 1 else (F.exp(a),)

    x = chainerlite.Variable(numpy.array([1.0, 2.0], numpy.float32))
    y1, y2 = F.forget(f, x)
    loss = F.sum(y1 + y2)
    with pytest.raises(AssertionError, match='1 outputs when recomputed, but 2'):
        if double:
            chainerlite.grad([loss], [x], enable_double_backprop=True)
        else:
            loss.backward()
