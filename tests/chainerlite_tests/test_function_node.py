import gc
import weakref

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import testing
from chainerlite import FunctionNode
from chainerlite import Variable
from chainerlite.utils import type_check


def _arr(*shape, dtype=numpy.float32, seed=0):
    rng = numpy.random.RandomState(seed)
    return rng.uniform(0.5, 1.5, shape).astype(dtype)


# ------------------------------------------------- user-defined functions


class Scale(FunctionNode):
    """y = k * x; has its own attributes and never calls super().__init__."""

    def __init__(self, k):
        self.k = k
        self.calls = 0

    def forward(self, inputs):
        self.calls += 1
        (x,) = inputs
        return (x * self.k,)

    def backward(self, indexes, grad_outputs):
        (gy,) = grad_outputs
        return (gy * self.k,)


class CpuOnlyDouble(FunctionNode):
    def forward_cpu(self, inputs):
        return (inputs[0] * 2,)

    def backward(self, indexes, grad_outputs):
        return (grad_outputs[0] * 2,)


class Square(FunctionNode):
    def forward(self, inputs):
        self.retain_inputs((0,))
        (x,) = inputs
        return (x * x,)

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        (gy,) = grad_outputs
        return (2 * x * gy,)


class Exp(FunctionNode):
    def forward(self, inputs):
        self.retain_outputs((0,))
        return (numpy.exp(inputs[0]),)

    def backward(self, indexes, grad_outputs):
        (y,) = self.get_retained_outputs()
        return (y * grad_outputs[0],)


class MulAdd(FunctionNode):
    """(a * b, a + b): two inputs, two outputs."""

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        a, b = inputs
        return a * b, a + b

    def backward(self, indexes, grad_outputs):
        a, b = self.get_retained_inputs()
        g0, g1 = grad_outputs
        ga = gb = None
        if g0 is not None:
            ga, gb = g0 * b, g0 * a
        if g1 is not None:
            ga = g1 if ga is None else ga + g1
            gb = g1 if gb is None else gb + g1
        return ga, gb


class FirstOnly(FunctionNode):
    """y = 3 * a; the second input is ignored (its grad is None)."""

    def forward(self, inputs):
        return (inputs[0] * 3,)

    def backward(self, indexes, grad_outputs):
        return grad_outputs[0] * 3, None


# ------------------------------------------------------------- basics


def test_user_subclass_without_super_init():
    x = Variable(_arr(3))
    f = Scale(4.0)
    ys = f.apply((x,))
    assert isinstance(ys, tuple)
    assert len(ys) == 1
    (y,) = ys
    assert isinstance(y, Variable)
    assert f.k == 4.0
    assert f.calls == 1
    testing.assert_allclose(y.array, x.array * 4)
    assert y.creator is f
    assert y.creator_node is f
    y.grad = numpy.ones(3, numpy.float32)
    y.backward()
    testing.assert_allclose(x.grad, numpy.full(3, 4.0))


def test_forward_cpu_only():
    x = Variable(_arr(3))
    (y,) = CpuOnlyDouble().apply((x,))
    testing.assert_allclose(y.array, 2 * x.array)
    F.sum(y).backward()
    testing.assert_allclose(x.grad, numpy.full(3, 2.0))


def test_base_forward_cpu_not_implemented():
    class NoForward(FunctionNode):
        pass

    with pytest.raises(NotImplementedError):
        NoForward().apply((_arr(2),))


def test_ndarray_inputs_accepted():
    a = _arr(3)
    (y,) = Scale(2.0).apply((a,))
    assert isinstance(y, Variable)
    testing.assert_allclose(y.array, 2 * a)
    assert y.requires_grad is False


def test_mixed_ndarray_and_variable_inputs():
    a = _arr(3)
    x = Variable(_arr(3, seed=1))
    p, s = MulAdd().apply((a, x))
    testing.assert_allclose(p.array, a * x.array)
    testing.assert_allclose(s.array, a + x.array)
    F.sum(p).backward()
    testing.assert_allclose(x.grad, a)


def test_retain_inputs():
    a = _arr(3)
    x = Variable(a)
    f = Square()
    (y,) = f.apply((x,))
    retained = f.get_retained_inputs()
    assert len(retained) == 1
    assert isinstance(retained[0], Variable)
    assert retained[0].array is a
    F.sum(y).backward()
    testing.assert_allclose(x.grad, 2 * a)


def test_retain_outputs_after_output_variable_dropped():
    a = _arr(3)
    x = Variable(a)
    f = Exp()
    (y,) = f.apply((x,))
    (retained,) = f.get_retained_outputs()
    testing.assert_allclose(retained.array, numpy.exp(a))
    z = F.sum(y * 2)
    del y, retained
    gc.collect()
    z.backward()
    testing.assert_allclose(x.grad, 2 * numpy.exp(a), rtol=1e-5)


class LastRetained(FunctionNode):
    """p = a * b, s = a + b; retains its last input and last output."""

    def forward(self, inputs):
        self.retain_inputs((-1,))
        self.retain_outputs((-1,))
        a, b = inputs
        return a * b, a + b

    def backward(self, indexes, grad_outputs):
        (b,) = self.get_retained_inputs()
        (s,) = self.get_retained_outputs()
        gp, gs = grad_outputs
        return gp * b + gs, gs


def test_negative_retain_indexes_count_from_the_end():
    a, b = _arr(3), _arr(3, seed=1)
    xa, xb = Variable(a), Variable(b)
    f = LastRetained()
    p, s = f.apply((xa, xb))
    assert f._input_indexes_to_retain == (1,)
    assert f._output_indexes_to_retain == (1,)
    assert f.get_retained_inputs()[0] is xb
    assert f.get_retained_outputs()[0] is s
    F.sum(p + s).backward()
    testing.assert_allclose(xa.grad, b + 1)


@pytest.mark.parametrize('retain', ['retain_inputs', 'retain_outputs'])
@pytest.mark.parametrize('index', [1, -2, 7])
def test_out_of_range_retain_index_raises_naming_function(retain, index):
    class Bad(FunctionNode):
        def forward(self, inputs):
            getattr(self, retain)((0, index))
            return (inputs[0] * 2,)

    x = Variable(_arr(3))
    f = Bad()
    with pytest.raises(IndexError, match='Bad retains .* index %d' % index):
        f.apply((x,))
    assert f.inputs is None and f.outputs is None


def test_retained_output_index_set_by_hand_is_checked():
    x = Variable(_arr(3))
    f = Exp()
    f.apply((x,))
    f._output_indexes_to_retain = (3,)
    with pytest.raises(IndexError, match='Exp'):
        f.get_retained_outputs()


def test_apply_with_a_single_variable_raises_type_error():
    x = Variable(_arr(2, 3))
    with pytest.raises(TypeError, match='Square.apply expects a tuple or list'):
        Square().apply(x)
    with pytest.raises(TypeError, match='Square.apply'):
        Square().apply(_arr(2, 3))
    (y,) = Square().apply([x])
    assert y.shape == (2, 3)


def test_rank_setter_range():
    f = Square()
    f.rank = 5
    assert f.rank == 5
    for bad in (-1, 2**31, 2**80):
        with pytest.raises(ValueError, match='rank of Square'):
            f.rank = bad


def test_builtin_node_with_inputs_replaced_raises_on_backward():
    x, z = Variable(_arr(3)), Variable(_arr(3))
    y = x * z
    y.creator_node.inputs = (x.node,)
    with pytest.raises(IndexError):
        F.sum(y).backward()


def test_multiple_outputs_partial_grad():
    a, b = _arr(3), _arr(3, seed=1)
    xa, xb = Variable(a), Variable(b)
    p, s = MulAdd().apply((xa, xb))
    F.sum(p).backward()  # s receives no gradient
    testing.assert_allclose(xa.grad, b)
    testing.assert_allclose(xb.grad, a)


def test_multiple_outputs_both_grads():
    a, b = _arr(3), _arr(3, seed=1)
    xa, xb = Variable(a), Variable(b)
    p, s = MulAdd().apply((xa, xb))
    F.sum(p + s).backward()
    testing.assert_allclose(xa.grad, b + 1)
    testing.assert_allclose(xb.grad, a + 1)


# --------------------------------------------- graph attributes of nodes


def test_rank_inputs_outputs():
    x = Variable(_arr(3))
    f = Scale(2.0)
    (y,) = f.apply((x,))
    g = Scale(3.0)
    (z,) = g.apply((y,))
    assert f.rank == 0
    assert g.rank == 1
    assert isinstance(f.inputs, tuple)
    assert f.inputs[0] is x.node
    assert g.inputs[0] is y.node
    outs = f.outputs
    assert isinstance(outs, tuple)
    assert len(outs) == 1
    assert outs[0]() is y.node


def test_outputs_are_weak():
    x = Variable(_arr(3))
    f = Scale(2.0)
    (y,) = f.apply((x,))
    node_ref = weakref.ref(y.node)
    del y
    gc.collect()
    assert node_ref() is None
    assert f.outputs[0]() is None


def test_node_keeps_inputs_alive():
    x = Variable(_arr(3))
    node_ref = weakref.ref(x.node)
    (y,) = Scale(2.0).apply((x,))
    del x
    gc.collect()
    assert node_ref() is not None
    assert y.creator.inputs[0] is node_ref()


def test_label_default_and_override():
    assert Scale(1.0).label == 'Scale'

    class Named(Scale):
        @property
        def label(self):
            return 'my-label'

    assert Named(1.0).label == 'my-label'


def test_applying_same_node_again_relinks_it_as_in_chainer():
    f = Scale(2.0)
    x1, x2 = Variable(_arr(3, seed=1)), Variable(_arr(3, seed=2))
    (y1,) = f.apply((x1,))
    (y2,) = f.apply((x2,))
    numpy.testing.assert_allclose(y2.array, 2.0 * x2.array)
    assert f.calls == 2
    assert f.inputs == (x2.node,)
    assert [ref() for ref in f.outputs] == [y2.node]
    assert y1.creator is f and y2.creator is f
    # backward through the latest call reaches its inputs only
    y2.grad = numpy.ones(3, numpy.float32)
    y2.backward()
    numpy.testing.assert_allclose(x2.grad, numpy.full(3, 2.0))
    assert x1.grad is None
    # the earlier call's output is no longer an output of the node: as in
    # Chainer, no gradient flows from it through the node
    x2.cleargrad()
    y2.grad = None
    y1.grad = numpy.ones(3, numpy.float32)
    y1.backward()
    assert x1.grad is None and x2.grad is None


def test_applying_same_node_again_without_backprop():
    f = Scale(3.0)
    with chainerlite.no_backprop_mode():
        (a,) = f.apply((_arr(2),))
        (b,) = f.apply((_arr(2, seed=1),))
    numpy.testing.assert_allclose(b.array, 3.0 * _arr(2, seed=1))
    assert a.creator is None and f.inputs is None


# -------------------------------------------------------------- errors


def test_forward_returning_non_tuple_raises_type_error():
    class Bad(FunctionNode):
        def forward(self, inputs):
            return inputs[0] * 2

    with pytest.raises(TypeError):
        Bad().apply((Variable(_arr(3)),))


def test_forward_returning_list_raises_type_error():
    class Bad(FunctionNode):
        def forward(self, inputs):
            return [inputs[0] * 2]

    with pytest.raises(TypeError):
        Bad().apply((Variable(_arr(3)),))


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_forward_returning_a_numpy_scalar_raises_type_error(dtype):
    # a 0-d array cubed is a NumPy scalar: refused as in Chainer, not
    # wrapped into an array
    class Cube(FunctionNode):
        def forward(self, inputs):
            return (inputs[0] ** 3,)

    with pytest.raises(TypeError, match='tuple of ndarrays.\nFunction: Cube'):
        Cube().apply((Variable(numpy.array(2, dtype)),))


def test_forward_returning_none_for_an_output_is_accepted():
    class FirstOnly(FunctionNode):
        def forward(self, inputs):
            return inputs[0] * 2, None

    y, z = FirstOnly().apply((Variable(_arr(3)),))
    numpy.testing.assert_array_equal(y.array, _arr(3) * 2)
    assert z.array is None


def test_chainerx_surface_of_a_node():
    node = Scale(2.0)
    assert node.chainerx_device is None and node.is_elementwise is False
    assert node.forward_chainerx((_arr(2),)) is chainerlite.Fallback
    node.is_elementwise = True
    assert node.is_elementwise is True and FunctionNode.is_elementwise is False


def test_elementwise_nodes_are_marked_as_in_chainer():
    x = Variable(_arr(2))
    marked = [
        x + x,
        x + 1.0,
        x - x,
        1.0 - x,
        x * x,
        x * 2.0,
        x / x,
        1.0 / x,
        x**x,
        x**2.0,
        2.0**x,
        -x,
        abs(x),
        F.relu(x),
    ]
    for y in marked:
        assert y.creator.is_elementwise is True, y.creator.label
    assert F.exp(x).creator.is_elementwise is False
    assert F.sum(x).creator.is_elementwise is False


def test_backward_wrong_number_of_grads_raises_value_error():
    class TooMany(FunctionNode):
        def forward(self, inputs):
            return (inputs[0] + inputs[1],)

        def backward(self, indexes, grad_outputs):
            g = grad_outputs[0]
            return g, g, g

    x1, x2 = Variable(_arr(3)), Variable(_arr(3, seed=1))
    (y,) = TooMany().apply((x1, x2))
    y.grad = numpy.ones(3, numpy.float32)
    with pytest.raises(ValueError) as e:
        y.backward()
    msg = str(e.value)
    assert '3' in msg
    assert '2' in msg


def test_backward_too_few_grads_raises_value_error():
    class TooFew(FunctionNode):
        def forward(self, inputs):
            return (inputs[0] + inputs[1],)

        def backward(self, indexes, grad_outputs):
            return (grad_outputs[0],)

    x1, x2 = Variable(_arr(3)), Variable(_arr(3, seed=1))
    (y,) = TooFew().apply((x1, x2))
    y.grad = numpy.ones(3, numpy.float32)
    with pytest.raises(ValueError) as e:
        y.backward()
    assert '1' in str(e.value)
    assert '2' in str(e.value)


def test_backward_grad_of_wrong_shape_raises_naming_function():
    class BadShape(FunctionNode):
        def forward(self, inputs):
            return (inputs[0] * 2,)

        def backward(self, indexes, grad_outputs):
            return (chainerlite.Variable(numpy.ones(5, numpy.float32)),)

    x = Variable(_arr(3))
    (y,) = BadShape().apply((x,))
    y.grad = numpy.ones(3, numpy.float32)
    with pytest.raises(ValueError, match='BadShape'):
        y.backward()


def test_backward_grad_of_wrong_dtype_raises_naming_function():
    class BadDtype(FunctionNode):
        def forward(self, inputs):
            return (inputs[0] * 2,)

        def backward(self, indexes, grad_outputs):
            return (chainerlite.Variable(numpy.ones(3, numpy.float64)),)

    x = Variable(_arr(3))
    (y,) = BadDtype().apply((x,))
    y.grad = numpy.ones(3, numpy.float32)
    with pytest.raises(TypeError, match='BadDtype'):
        y.backward()


class Float32Only(FunctionNode):
    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1, in_types[0].dtype == numpy.float32)

    def forward(self, inputs):
        return (inputs[0] * 1,)

    def backward(self, indexes, grad_outputs):
        return (grad_outputs[0],)


def test_check_type_forward_raises_invalid_type():
    Float32Only().apply((Variable(_arr(2)),))
    with pytest.raises(type_check.InvalidType, match='Float32Only'):
        Float32Only().apply((Variable(_arr(2, dtype=numpy.float64)),))
    with pytest.raises(type_check.InvalidType):
        Float32Only().apply((Variable(_arr(2)), Variable(_arr(2))))


def test_check_type_forward_skipped_when_type_check_off():
    with chainerlite.using_config('type_check', False):
        (y,) = Float32Only().apply((Variable(_arr(2, dtype=numpy.float64)),))
    assert y.dtype == numpy.float64


# -------------------------------------------------------- backprop modes


def test_no_backprop_mode_outputs_have_no_creator():
    x = Variable(_arr(3))
    with chainerlite.no_backprop_mode():
        (y,) = Scale(2.0).apply((x,))
        z = x * 2
    assert y.creator is None
    assert z.creator is None
    assert z.creator_node is None
    testing.assert_allclose(y.array, 2 * x.array)
    w = x * 2
    assert w.creator is not None


def test_force_backprop_mode_inside_no_backprop_mode():
    x = Variable(_arr(3))
    with chainerlite.no_backprop_mode():
        with chainerlite.force_backprop_mode():
            (y,) = Scale(2.0).apply((x,))
    assert y.creator is not None


# ------------------------------------------------------------- chainer.grad


def test_grad_only_requested_inputs_and_leaves_untouched():
    a, b = _arr(3), _arr(3, seed=1)
    x, w = Variable(a), Variable(b)
    y = F.sum(x * w)
    (gx,) = chainerlite.grad([y], [x])
    assert isinstance(gx, Variable)
    testing.assert_allclose(gx.array, b)
    assert x.grad is None
    assert w.grad is None


def test_grad_unreachable_input_gives_none():
    x = Variable(_arr(3))
    other = Variable(_arr(3, seed=1))
    y = F.sum(x * 2)
    gx, go = chainerlite.grad([y], [x, other])
    testing.assert_allclose(gx.array, numpy.full(3, 2.0))
    assert go is None


def test_grad_unused_input_of_function_gives_none():
    a, b = Variable(_arr(3)), Variable(_arr(3, seed=1))
    (y,) = FirstOnly().apply((a, b))
    ga, gb = chainerlite.grad([F.sum(y)], [a, b])
    testing.assert_allclose(ga.array, numpy.full(3, 3.0))
    assert gb is None


def test_grad_with_grad_outputs_for_non_scalar():
    a, b = _arr(2, 3), _arr(2, 3, seed=1)
    g = _arr(2, 3, seed=2)
    x = Variable(a)
    y = x * b
    (gx,) = chainerlite.grad([y], [x], grad_outputs=[Variable(g)])
    testing.assert_allclose(gx.array, g * b)
    assert x.grad is None


def test_grad_default_grad_outputs_are_ones_for_non_scalar():
    # Chainer docs: "If an element is set to None, an array filled with 1 is
    # used. If this argument itself is None, it is treated as a sequence of
    # Nones."
    a = _arr(2, 3)
    x = Variable(a)
    y = x * 3
    (gx,) = chainerlite.grad([y], [x])
    testing.assert_allclose(gx.array, numpy.full((2, 3), 3.0))


def test_grad_none_element_of_grad_outputs_means_ones():
    x = Variable(_arr(2, 3))
    (gx,) = chainerlite.grad([x * 4], [x], grad_outputs=[None])
    assert gx is not None
    testing.assert_allclose(gx.array, numpy.full((2, 3), 4.0))


def test_grad_none_element_of_grad_outputs_means_ones_scalar():
    x = Variable(_arr(3))
    (gx,) = chainerlite.grad([F.sum(x * 4)], [x], grad_outputs=[None])
    assert gx is not None
    testing.assert_allclose(gx.array, numpy.full(3, 4.0))


def test_grad_intermediate_input():
    x = Variable(_arr(3))
    h = x * 2
    y = F.sum(h * 3)
    (gh,) = chainerlite.grad([y], [h])
    testing.assert_allclose(gh.array, numpy.full(3, 3.0))
    assert x.grad is None


def test_grad_set_grad():
    a = _arr(3)
    x = Variable(a)
    (gx,) = chainerlite.grad([F.sum(x * x)], [x], set_grad=True)
    testing.assert_allclose(x.grad, 2 * a)
    testing.assert_allclose(gx.array, 2 * a)


def test_grad_set_grad_replaces_existing_grad():
    # Chainer docs: "any original value of Variable.grad_var will be updated
    # even if it had already been set" -- the result is stored, not added.
    a = _arr(3)
    x = Variable(a, grad=numpy.full(3, 100.0, numpy.float32))
    chainerlite.grad([F.sum(x * 2)], [x], set_grad=True)
    testing.assert_allclose(x.grad, numpy.full(3, 2.0))


def test_grad_with_grad_inputs_accumulates():
    x = Variable(_arr(3))
    gi = Variable(numpy.full(3, 10.0, numpy.float32))
    (gx,) = chainerlite.grad([F.sum(x * 2)], [x], grad_inputs=[gi])
    testing.assert_allclose(gx.array, numpy.full(3, 12.0))
    testing.assert_allclose(gi.array, numpy.full(3, 10.0))


def test_grad_without_double_backprop_has_no_creator():
    x = Variable(_arr(3))
    (gx,) = chainerlite.grad([F.sum(x * x * x)], [x])
    assert gx.creator is None


def test_grad_enable_double_backprop_second_derivative_of_cube():
    a = numpy.array([0.5, 1.0, 2.0], numpy.float32)
    x = Variable(a)
    y = F.sum(x**3)
    (gx,) = chainerlite.grad([y], [x], enable_double_backprop=True)
    testing.assert_allclose(gx.array, 3 * a**2)
    assert gx.creator is not None
    (ggx,) = chainerlite.grad([F.sum(gx)], [x])
    testing.assert_allclose(ggx.array, 6 * a)


def test_grad_triggers_user_backward():
    x = Variable(_arr(3))
    (y,) = Scale(5.0).apply((x,))
    (gx,) = chainerlite.grad([F.sum(y)], [x])
    testing.assert_allclose(gx.array, numpy.full(3, 5.0))


# ------------------------------------------------------- chainer.backward


def test_backward_multiple_outputs():
    a = _arr(3)
    x = Variable(a)
    y1 = x * 2
    y2 = x * x
    g1 = Variable(numpy.full(3, 1.0, numpy.float32))
    g2 = Variable(numpy.full(3, 0.5, numpy.float32))
    chainerlite.backward([y1, y2], [g1, g2])
    testing.assert_allclose(x.grad, 2 * 1.0 + 2 * a * 0.5)


def test_backward_multiple_outputs_uses_grad_var():
    a = _arr(3)
    x = Variable(a)
    y1 = x * 2
    y2 = x * 3
    y1.grad = numpy.ones(3, numpy.float32)
    y2.grad = numpy.ones(3, numpy.float32)
    chainerlite.backward([y1, y2])
    testing.assert_allclose(x.grad, numpy.full(3, 5.0))


def test_backward_rejects_loss_scale():
    # chainer.backward(outputs, grad_outputs=None, *,
    # enable_double_backprop=False): loss_scale is not supported.
    x = Variable(_arr(3))
    y = x * 2
    with pytest.raises((ValueError, TypeError)):
        chainerlite.backward([y], [numpy.ones(3, numpy.float32)], loss_scale=2.0)


# ---------------------------------------------------------- double backprop


def test_double_backprop_via_variable_backward():
    a = numpy.array([0.5, 1.0, 2.0], numpy.float32)
    x = Variable(a)
    y = F.sum(x**3)
    y.backward(enable_double_backprop=True)
    gx = x.grad_var
    testing.assert_allclose(gx.array, 3 * a**2)
    assert gx.creator is not None
    x.cleargrad()
    F.sum(gx).backward()
    testing.assert_allclose(x.grad, 6 * a)


def test_double_backprop_through_user_function():
    a = numpy.array([0.5, 1.0, 2.0], numpy.float32)
    x = Variable(a)
    (y,) = Square().apply((x,))
    z = F.sum(y * x)  # x**3
    (gx,) = chainerlite.grad([z], [x], enable_double_backprop=True)
    testing.assert_allclose(gx.array, 3 * a**2)
    (ggx,) = chainerlite.grad([F.sum(gx)], [x])
    testing.assert_allclose(ggx.array, 6 * a)


def test_backward_without_double_backprop_grad_has_no_creator():
    x = Variable(_arr(3))
    F.sum(x**3).backward()
    assert x.grad_var.creator is None


# ---------------------------------------------------------- graph shapes


def test_diamond_graph_accumulates():
    a = _arr(3)
    x = Variable(a)
    h = x * 2
    y1 = h * 3
    y2 = h * h
    z = F.sum(y1 + y2)
    z.backward()
    # z = 6x + 4x^2 -> dz/dx = 6 + 8x
    testing.assert_allclose(x.grad, 6 + 8 * a)


def test_same_variable_used_twice_in_one_function():
    a = _arr(3)
    x = Variable(a)
    F.sum(x * x).backward()
    testing.assert_allclose(x.grad, 2 * a)
    x.cleargrad()
    F.sum(x + x).backward()
    testing.assert_allclose(x.grad, numpy.full(3, 2.0))


def test_unused_input_gets_none_grad():
    a, b = Variable(_arr(3)), Variable(_arr(3, seed=1))
    (y,) = FirstOnly().apply((a, b))
    F.sum(y).backward()
    testing.assert_allclose(a.grad, numpy.full(3, 3.0))
    assert b.grad is None


# ----------------------------------------------------- Chainer's class paths


def test_operator_node_classes_at_chainer_paths():
    from chainerlite.functions.math import basic_math as bm

    x = Variable(_arr(3))
    w = Variable(_arr(3, seed=1))
    assert (x + w).creator.__class__ is bm.Add
    assert (x + 1.0).creator.__class__ is bm.AddConstant
    assert (1.0 + x).creator.__class__ is bm.AddConstant
    assert (x - w).creator.__class__ is bm.Sub
    assert (1.0 - x).creator.__class__ is bm.SubFromConstant
    assert (x * w).creator.__class__ is bm.Mul
    assert (x * 2.0).creator.__class__ is bm.MulConstant
    assert (2.0 * x).creator.__class__ is bm.MulConstant
    assert (x / w).creator.__class__ is bm.Div
    assert (2.0 / x).creator.__class__ is bm.DivFromConstant
    assert (x**w).creator.__class__ is bm.PowVarVar
    assert (x**2.0).creator.__class__ is bm.PowVarConst
    assert (2.0**x).creator.__class__ is bm.PowConstVar
    assert (-x).creator.__class__ is bm.Neg
    assert abs(x).creator.__class__ is bm.Absolute
    for cls in (bm.Add, bm.Mul, bm.MulConstant, bm.Neg, bm.PowVarVar):
        assert issubclass(cls, FunctionNode)


def test_function_node_at_chainer_paths():
    assert chainerlite.FunctionNode is chainerlite.function_node.FunctionNode
    assert chainerlite.Variable is chainerlite.variable.Variable


# ------------------------------------------------------------ more grad()


def test_grad_loss_scale_scales_result():
    x = Variable(_arr(3))
    (gx,) = chainerlite.grad([F.sum(x * 2)], [x], loss_scale=4.0)
    testing.assert_allclose(gx.array, numpy.full(3, 8.0))


def test_grad_requires_lists():
    # Chainer: outputs/inputs must be a tuple or a list (TypeError).
    x = Variable(_arr(1))
    y = x * 2
    with pytest.raises(TypeError):
        chainerlite.grad(y, [x])
    with pytest.raises(TypeError):
        chainerlite.grad([y], x)


def test_grad_mismatched_grad_outputs_length():
    x = Variable(_arr(3))
    with pytest.raises(ValueError):
        chainerlite.grad([x * 2], [x], grad_outputs=[])


def test_grad_and_backward_argument_messages_are_chainers():
    x = Variable(_arr(3))
    y = F.sum(x * x)
    g = Variable(numpy.ones((), numpy.float32))
    cases = [
        (lambda: chainerlite.grad(y, [x]), 'outputs must be a tuple or a list, not'),
        (
            lambda: chainerlite.grad([y], [x], grad_inputs=g),
            'grad_inputs must be a tuple or a list or None, not',
        ),
        (
            lambda: chainerlite.backward([y], g),
            'grad_outputs must be None, a tuple, or a list, not',
        ),
        (lambda: chainerlite.backward([y, x.array]), 'each output must be a Variable'),
    ]
    for call, start in cases:
        with pytest.raises(TypeError) as e:
            call()
        assert str(e.value).startswith(start)
    with pytest.raises(ValueError) as e:
        chainerlite.grad([y], [x], grad_outputs=[g, g])
    assert str(e.value) == (
        'grad_outputs must be of the same length as outputs.\n'
        'len(outputs) = 1, len(grad_outputs) = 2'
    )
    with pytest.raises(
        ValueError, match='^grad_inputs must be of the same length as inputs'
    ):
        chainerlite.grad([y], [x], grad_inputs=[g, g])


def test_grad_with_requires_grad_false_input_still_gives_other_grads():
    x = Variable(_arr(3), requires_grad=False)
    w = Variable(_arr(3, seed=1))
    gx, gw = chainerlite.grad([F.sum(x * w)], [x, w])
    testing.assert_allclose(gw.array, x.array)


def test_weakref_to_function_node():
    f = Scale(1.0)
    r = weakref.ref(f)
    assert r() is f
    del f
    gc.collect()
    assert r() is None


def test_function_node_freed_with_graph():
    x = Variable(_arr(3))
    (y,) = Scale(2.0).apply((x,))
    r = weakref.ref(y.creator_node)
    del y
    gc.collect()
    assert r() is None


class _TripleOfMiddle(FunctionNode):
    # Takes (None, x, None), as Chainer allows: absent inputs are None.
    def forward(self, inputs):
        a, x, c = inputs
        assert a is None and c is None
        self.retain_inputs((1, 2))
        return (x * 3,)

    def backward(self, indexes, grad_outputs):
        self.seen_indexes = indexes
        x, c = self.get_retained_inputs()
        self.seen_retained = (x, c)
        return None, grad_outputs[0] * 3, None


class _OldTripleOfMiddle(chainerlite.Function):
    def forward(self, inputs):
        a, x, c = inputs
        assert a is None and c is None
        return (x * 3,)

    def backward(self, inputs, grad_outputs):
        self.seen_inputs = inputs
        return None, grad_outputs[0] * 3, None


def test_none_inputs_are_passed_through_and_get_no_gradient():
    x = Variable(numpy.array([2.0, 3.0], numpy.float32))
    node = _TripleOfMiddle()
    (y,) = node.apply((None, x, None))
    numpy.testing.assert_array_equal(y.array, [6.0, 9.0])
    y.grad = numpy.array([2.0, 4.0], numpy.float32)
    y.backward()
    assert node.seen_indexes == (1,)
    retained_x, retained_c = node.seen_retained
    assert retained_c is None
    numpy.testing.assert_array_equal(retained_x.array, x.array)
    numpy.testing.assert_array_equal(x.grad, [6.0, 12.0])


def test_none_inputs_of_an_old_style_function():
    x = Variable(numpy.array([2.0, 3.0], numpy.float32))
    f = _OldTripleOfMiddle()
    y = f(None, x, None)
    y.grad = numpy.array([1.0, 1.0], numpy.float32)
    y.backward()
    a, x_data, c = f.seen_inputs
    assert a is None and c is None
    numpy.testing.assert_array_equal(x_data, x.array)
    numpy.testing.assert_array_equal(x.grad, [3.0, 3.0])
    # a built-in function still names what is wrong with a None input
    with pytest.raises(TypeError):
        F.relu(None)


class _OnlyMiddleOutput(FunctionNode):
    # Returns (None, y, None), as Chainer allows.
    def forward(self, inputs):
        (x,) = inputs
        self.retain_outputs((1, 2))
        return None, x * 3 + 2, None

    def backward(self, indexes, grad_outputs):
        self.seen_grads = grad_outputs
        self.seen_retained = self.get_retained_outputs()
        return (grad_outputs[1] * 3,)


def test_none_outputs_become_variables_without_data():
    x = Variable(numpy.array([2.0, 3.0], numpy.float32))
    node = _OnlyMiddleOutput()
    y1, y2, y3 = node.apply((x,))
    assert y1.array is None and y3.array is None
    numpy.testing.assert_array_equal(y2.array, [8.0, 11.0])
    y2.grad = numpy.array([2.0, 4.0], numpy.float32)
    y2.backward()
    g1, g2, g3 = node.seen_grads
    assert g1 is None and g3 is None
    numpy.testing.assert_array_equal(g2.array, [2.0, 4.0])
    r2, r3 = node.seen_retained
    assert r3 is None
    numpy.testing.assert_array_equal(r2.array, [8.0, 11.0])
    numpy.testing.assert_array_equal(x.grad, [6.0, 12.0])


def test_output_data_is_aligned_with_the_outputs():
    class Two(chainerlite.FunctionNode):
        def forward(self, inputs):
            self.retain_outputs((1,))
            (x,) = inputs
            return x * 2, x * 3

    node = Two()
    node.apply((numpy.ones(2, numpy.float32),))
    first, second = node.output_data
    assert first is None
    numpy.testing.assert_array_equal(second, numpy.full(2, 3.0))


def test_output_data_without_retained_outputs_raises():
    class One(chainerlite.FunctionNode):
        def forward(self, inputs):
            return (inputs[0] * 2,)

    node = One()
    node.apply((numpy.ones(2, numpy.float32),))
    with pytest.raises(RuntimeError, match='retained output data is gone'):
        node.output_data


def test_check_layout_forward_accepts_standard_layouts_only():
    node = chainerlite.FunctionNode()
    assert node.check_layout_forward((chainerlite.Variable(numpy.ones(2)),)) is None

    class ChannelLast:
        layout = 'CHANNEL_LAST'

    with pytest.raises(RuntimeError, match='non-standard layouts'):
        node.check_layout_forward((ChannelLast(),))
