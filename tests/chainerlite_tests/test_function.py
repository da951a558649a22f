import numpy as np
import pytest

import chainerlite
from chainerlite.utils import type_check


class _Square(chainerlite.Function):
    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1, in_types[0].dtype.kind == 'f')

    def forward_cpu(self, inputs):
        (x,) = inputs
        self.retain_outputs((0,))
        return (x * x,)

    def backward_cpu(self, inputs, grad_outputs):
        (x,) = inputs
        assert self.output_data[0] is not None
        return (2 * x * grad_outputs[0],)


class _Split(chainerlite.Function):
    def forward(self, inputs):
        (x,) = inputs
        return x * 2, x * 3

    def backward(self, inputs, grad_outputs):
        g2, g3 = grad_outputs
        gx = 0
        if g2 is not None:
            gx = gx + 2 * g2
        if g3 is not None:
            gx = gx + 3 * g3
        return (gx,)


def test_old_style_forward_backward():
    x = chainerlite.Variable(np.array([1.0, 3.0]))
    y = _Square()(x)
    assert isinstance(y, chainerlite.Variable)
    np.testing.assert_allclose(y.array, [1.0, 9.0])
    assert isinstance(y.creator, _Square)
    assert isinstance(y.creator_node, chainerlite.function.FunctionAdapter)
    chainerlite.functions.sum(y).backward()
    np.testing.assert_allclose(x.grad, [2.0, 6.0])


def test_multiple_outputs_and_missing_grad():
    x = chainerlite.Variable(np.array([1.0, 2.0]))
    a, b = _Split()(x)
    chainerlite.functions.sum(a).backward()  # b gets no gradient
    np.testing.assert_allclose(x.grad, [2.0, 2.0])


def test_type_check_and_hooks():
    with pytest.raises(type_check.InvalidType) as info:
        _Square()(chainerlite.Variable(np.array([1, 2])))
    assert '_Square' in str(info.value)
    calls = []

    class Hook(chainerlite.FunctionHook):
        name = 'h'

        def forward_preprocess(self, function, in_data):
            calls.append(function.label)

    f = _Square()
    f.add_hook(Hook())
    f(chainerlite.Variable(np.array([1.0])))
    assert calls == ['_Square']


def test_calling_twice_builds_two_nodes():
    f = _Square()
    x = chainerlite.Variable(np.array([2.0]))
    y1, y2 = f(x), f(x)
    assert y1.creator_node is not y2.creator_node
    chainerlite.functions.sum(y1 + y2).backward()
    np.testing.assert_allclose(x.grad, [8.0])


def test_output_data_requires_retain_outputs():
    f = _Split()
    f(chainerlite.Variable(np.array([1.0])))
    with pytest.raises(RuntimeError):
        f.output_data


def test_stack_is_the_call_site_in_debug_mode():
    # Chainer 7.8.1's Function.stack: its node's stack, None outside debug
    x = chainerlite.Variable(np.array([1.0, 3.0]))
    f = _Square()
    f(x)
    assert f.stack is None
    with chainerlite.using_config('debug', True):
        g = _Square()
        y = g(x)  # (the node lives while its output does)
    assert y.creator is g
    assert any('test_stack_is_the_call_site' in frame.name for frame in g.stack)


def test_forward_returning_a_numpy_scalar_raises_type_error():
    class Cube(chainerlite.Function):
        def forward(self, inputs):
            return (inputs[0] ** 3,)  # a NumPy scalar for a 0-d input

        def backward(self, inputs, grads):
            return (3 * inputs[0] ** 2 * grads[0],)

    with pytest.raises(
        TypeError,
        match=r"Function: Cube\nActual output types: \(<class 'numpy.float64'>,\)",
    ):
        Cube()(chainerlite.Variable(np.array(2.0)))
    y = Cube()(chainerlite.Variable(np.array([2.0])))
    np.testing.assert_array_equal(y.array, [8.0])


def test_forward_returning_no_tuple_is_refused_by_apply():
    class Bare(chainerlite.Function):
        def forward(self, inputs):
            return inputs[0] * 2

    with pytest.raises(TypeError, match=r'^forward output must be a tuple \(Bare\)\n'):
        Bare()(chainerlite.Variable(np.ones(2, np.float32)))


class _PickLoss(chainerlite.Function):
    """A loss of (scores, labels) whose backward gives the scores' gradient
    only, as old-style losses often do."""

    def forward(self, inputs):
        x, t = inputs
        return (np.asarray(x[np.arange(len(t)), t].sum(), x.dtype),)

    def backward(self, inputs, grad_outputs):
        x, t = inputs
        gx = np.zeros_like(x)
        gx[np.arange(len(t)), t] = grad_outputs[0]
        return (gx,)


def test_backward_may_omit_gradients_nobody_needs():
    x = chainerlite.Variable(np.arange(6, dtype=np.float32).reshape(2, 3))
    labels = np.array([2, 0], np.int32)
    loss = _PickLoss()(x, labels)
    loss.backward()
    np.testing.assert_array_equal(x.grad, [[0, 0, 1], [1, 0, 0]])


def test_backward_missing_a_needed_gradient_raises_index_error():
    x = chainerlite.Variable(np.ones((2, 3), np.float32))
    labels = chainerlite.Variable(np.array([2, 0], np.int32))  # needs one
    loss = _PickLoss()(x, labels)
    with pytest.raises(IndexError, match=r'_PickLoss.backward returned 1 .*input 1'):
        loss.backward()


def test_gradients_past_the_inputs_are_ignored():
    class Extra(chainerlite.Function):
        def forward(self, inputs):
            return (inputs[0] * 2,)

        def backward(self, inputs, grad_outputs):
            return grad_outputs[0] * 2, None, 'never read'

    x = chainerlite.Variable(np.ones(3, np.float32))
    y = Extra()(x)
    y.grad = np.ones(3, np.float32)
    y.backward()
    np.testing.assert_array_equal(x.grad, [2, 2, 2])


def test_second_order_through_old_style_backward_raises():
    x = chainerlite.Variable(np.array([1.0, -2.0], np.float32))
    z = chainerlite.functions.sum(_Square()(x) * 3)
    # the first order is computed under double backprop as usual
    (gx,) = chainerlite.grad([z], [x], enable_double_backprop=True)
    np.testing.assert_array_equal(gx.array, [6, -12])
    # differentiating it again reaches the old-style backward: refused,
    # rather than a silent None gradient for x
    msg = 'twice-differentiate an old style Function "_Square"'
    with pytest.raises(RuntimeError, match=msg):
        chainerlite.functions.sum(gx).backward()
    with pytest.raises(RuntimeError, match='twice-differentiate'):
        chainerlite.grad([chainerlite.functions.sum(gx * gx)], [x])
    # without double backprop the gradient is a plain array, as before
    (gx,) = chainerlite.grad([z], [x])
    assert gx.creator is None
