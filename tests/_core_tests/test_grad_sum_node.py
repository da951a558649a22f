"""Gradients that meet at a variable are summed by the Add node.

As in Chainer 7.8.1, function hooks see each sum as an Add call, made
within the backward call of the function whose gradients meet (after its
backward_preprocess, before its backward_postprocess); a leaf's own grad
joins its first gradient; grad()'s grad_inputs join an input's first one.
"""

import numpy as np
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import function_hook
from chainerlite.function_hooks import TimerHook


class _Log(function_hook.FunctionHook):
    name = 'log'

    def __init__(self):
        self.calls = []

    def forward_preprocess(self, function, in_data):
        self.calls.append(('fwd', function.label, [a.shape for a in in_data]))

    def forward_postprocess(self, function, in_data):
        self.calls.append(('fwd-post', function.label))

    def backward_preprocess(self, function, in_data, out_grad):
        self.calls.append(('bwd', function.label))

    def backward_postprocess(self, function, in_data, out_grad):
        self.calls.append(('bwd-post', function.label))


def _var(values):
    return chainerlite.Variable(np.array(values, np.float32))


def test_fan_out_sum_is_an_add_inside_the_consumers_backward():
    x = _var([1.0, 2.0])
    log = _Log()
    h = F.exp(x)
    y = F.sum(h * 3.0 + h)
    with log:
        y.backward()
    adds = [i for i, c in enumerate(log.calls) if c[:2] == ('fwd', '_ + _')]
    assert len(adds) == 1
    i = adds[0]
    # the second gradient of h arrives from `_ * 3`, whose backward runs
    # the sum before its postprocess
    assert log.calls[i - 3 : i] == [
        ('bwd', '_ * 3.0'),
        ('fwd', '_ * 3.0', [(2,)]),
        ('fwd-post', '_ * 3.0'),
    ]
    assert log.calls[i][2] == [(2,), (2,)]
    assert log.calls[i + 1 : i + 3] == [('fwd-post', '_ + _'), ('bwd-post', '_ * 3.0')]
    np.testing.assert_allclose(x.grad, 4 * np.exp(x.array), rtol=1e-6)


def test_input_used_twice_by_one_function():
    x = _var([1.0, -2.0, 3.0])
    log = _Log()
    y = F.sum(x * x)
    with log:
        y.backward()
    labels = [c[1] for c in log.calls if c[0] == 'fwd']
    # Sum's backward broadcasts; Mul's two grad products, then their sum
    assert labels == ['BroadcastTo', '_ * _', '_ * _', '_ + _']
    np.testing.assert_allclose(x.grad, 2 * x.array)


def test_leaf_grad_joins_the_first_gradient():
    x = _var([1.0, 2.0])
    x.grad = np.array([10.0, 20.0], np.float32)
    log = _Log()
    y = F.sum(x * 2.0)
    with log:
        y.backward()
    labels = [c[1] for c in log.calls if c[0] == 'fwd']
    assert labels == ['BroadcastTo', '_ * 2.0', '_ + _']
    np.testing.assert_array_equal(x.grad, [12.0, 22.0])


def test_leaf_grad_order_of_the_sums():
    # ((old + g1) + g2): float32 rounding tells the order apart from
    # old + (g1 + g2)
    big, small = np.float32(2.0**24), np.float32(1.0)
    x = chainerlite.Variable(np.array([0.0], np.float32))
    x.grad = np.array([big], np.float32)
    y = F.sum(x * small + x * small)
    y.backward()
    assert x.grad[0] == (big + small) + small == big


def test_no_add_without_fan_out():
    x = _var([1.0, 2.0])
    log = _Log()
    y = F.sum(F.exp(F.tanh(x)))
    with log:
        y.backward()
    assert '_ + _' not in [c[1] for c in log.calls]


def test_sums_give_the_same_arrays_with_and_without_hooks():
    rng = np.random.default_rng(0)
    data = rng.standard_normal((3, 4)).astype(np.float32)

    def run(hook):
        x = chainerlite.Variable(data.copy())
        x.grad = np.ones_like(data)
        h = F.tanh(x)
        y = F.sum(h * h + F.exp(h) + x)
        if hook is None:
            y.backward()
        else:
            with hook:
                y.backward()
        return x.grad

    plain = run(None)
    np.testing.assert_array_equal(plain, run(_Log()))
    timer = TimerHook()
    np.testing.assert_array_equal(plain, run(timer))
    assert any(row[0] == 'Add' for row in timer.call_history)


def test_timer_counts_the_sum_inside_the_backward():
    # the backward call of `_ * _` is still timed (its Add is nested in it)
    timer = TimerHook()
    x = _var([1.0, 2.0])
    y = F.sum(x * x)
    with timer:
        y.backward()
    names = [row[0] for row in timer.call_history]
    assert names.count('Add') == 1
    assert 'Mul' in names and 'Sum' in names


def test_double_backprop_builds_the_add_into_the_graph():
    x = _var([1.0, 2.0])
    log = _Log()
    y = F.sum(x * x * x)
    with log:
        y.backward(enable_double_backprop=True)
    assert '_ + _' in [c[1] for c in log.calls if c[0] == 'fwd']
    gx = x.grad_var
    x.cleargrad()
    F.sum(gx).backward()
    np.testing.assert_allclose(x.grad, 6 * x.array)


def test_grad_inputs_join_the_first_gradient():
    x = _var([1.0, 2.0])
    log = _Log()
    y = F.sum(x * 2.0)
    with log:
        (gx,) = chainerlite.grad([y], [x], grad_inputs=[_var([5.0, 6.0])])
    assert [c[1] for c in log.calls if c[0] == 'fwd'][-1] == '_ + _'
    np.testing.assert_array_equal(gx.array, [7.0, 8.0])


def test_grad_input_reached_by_nothing_is_returned_as_given():
    x, z = _var([1.0, 2.0]), _var([3.0])
    y = F.sum(x * 2.0)
    gz = _var([4.0])
    gx, gz_out = chainerlite.grad([y], [x, z], grad_inputs=[None, gz])
    np.testing.assert_array_equal(gx.array, [2.0, 2.0])
    np.testing.assert_array_equal(gz_out.array, [4.0])


@pytest.mark.parametrize('dtype', [np.float16, np.float64])
def test_sum_keeps_the_dtype(dtype):
    x = chainerlite.Variable(np.array([1.0, 2.0], dtype))
    x.grad = np.ones(2, dtype)
    F.sum(x * x).backward()
    assert x.grad.dtype == dtype
    np.testing.assert_allclose(x.grad, [3.0, 5.0])


def test_backward_takes_variables_as_grad_outputs():
    # as Chainer: grad_outputs are Variables (or None); an array is refused
    # by an error that is both a TypeError and Chainer's AttributeError
    x = _var([1.0, 2.0])
    y = x * 2.0
    with pytest.raises(TypeError, match='grad_outputs must be a Variable') as info:
        chainerlite.backward([y], [np.ones(2, np.float32)])
    assert isinstance(info.value, AttributeError)
    assert x.grad is None
    chainerlite.backward([y, x * 3.0], [_var([1.0, 1.0]), None])
    np.testing.assert_array_equal(x.grad, [2.0, 2.0])


class _Fails(chainerlite.FunctionNode):
    def forward(self, inputs):
        return (inputs[0].copy(),)

    def backward(self, indexes, grad_outputs):
        raise ValueError('backward fails')


def test_a_failed_pass_gives_the_leaf_its_grad_back():
    # the pass takes a leaf's grad at its first gradient; if it fails
    # later, the leaf has its grad again
    x = _var([1.0, 2.0])
    x.grad = np.array([5.0, 6.0], np.float32)
    y = _Fails().apply((x * 2.0,))[0]
    with pytest.raises(ValueError, match='backward fails'):
        F.sum(y + x).backward()
    np.testing.assert_array_equal(x.grad, [5.0, 6.0])


class _NestedBackward(chainerlite.FunctionNode):
    # y = a * w, where w is not an input: its backward runs a backward of
    # its own, which writes w's gradient while the outer pass runs
    def __init__(self, w):
        self.w = w

    def forward(self, inputs):
        self.retain_inputs((0,))
        return (inputs[0] * self.w.array,)

    def backward(self, indexes, grad_outputs):
        (a,) = self.get_retained_inputs()
        with chainerlite.force_backprop_mode():
            inner = chainerlite.Variable(a.array) * self.w
        chainerlite.backward([inner], [grad_outputs[0]])
        return (grad_outputs[0] * self.w.array,)


def test_a_backward_nested_in_the_pass_adds_to_the_leaf():
    w = _var([3.0, 4.0])
    w.grad = np.array([100.0, 100.0], np.float32)
    a = _var([1.0, 2.0])
    # w gets a gradient from the outer pass (w * 5, whose backward runs
    # first and takes w's grad) and then, through the nested backward, a
    y = _NestedBackward(w).apply((a,))[0]
    F.sum(w * 5.0 + y).backward()
    np.testing.assert_array_equal(w.grad, [100.0 + 5.0 + 1.0, 100.0 + 5.0 + 2.0])
    np.testing.assert_array_equal(a.grad, [3.0, 4.0])
