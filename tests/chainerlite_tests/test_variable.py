import copy
import gc
import pickle
import re
import weakref

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import testing
from chainerlite import Variable


def _arr(*shape, dtype=numpy.float32, seed=0):
    rng = numpy.random.RandomState(seed)
    return rng.uniform(0.5, 1.5, shape).astype(dtype)


# ------------------------------------------------------------- constructor


@pytest.mark.filterwarnings('ignore::PendingDeprecationWarning')
def test_matrix_data_becomes_a_plain_ndarray():
    m = numpy.matrix([[1.0, 2.0], [3.0, 4.0]], numpy.float32)
    v = Variable(m)
    assert type(v.array) is numpy.ndarray and v.dtype == numpy.float32
    numpy.testing.assert_array_equal((v * v).array, [[1.0, 4.0], [9.0, 16.0]])
    v.array = numpy.matrix([[2.0, 2.0], [2.0, 2.0]], numpy.float32)
    assert type(v.array) is numpy.ndarray
    v.grad = numpy.matrix([[1.0, 1.0], [1.0, 1.0]], numpy.float32)
    assert type(v.grad) is numpy.ndarray
    y = F.relu(numpy.matrix([[1.0, -1.0]], numpy.float32))
    assert type(y.array) is numpy.ndarray


@pytest.mark.filterwarnings('ignore::PendingDeprecationWarning')
def test_matrix_data_shares_memory():
    m = numpy.matrix([[1.0, 2.0]], numpy.float32)
    v = Variable(m)
    v.array[0, 0] = 5
    assert m[0, 0] == 5


def test_masked_array_data_is_rejected():
    data = numpy.ma.masked_array([1.0, 2.0], mask=[True, False])
    with pytest.raises(TypeError, match='Variable data.*masked'):
        Variable(data)
    with pytest.raises(TypeError, match='masked'):
        Variable().array = data
    with pytest.raises(TypeError, match='masked'):
        F.relu(data)


def test_uninitialised_variable_is_like_variable_of_none():
    v = Variable.__new__(Variable)
    assert v.array is None and v.grad is None and v.name is None
    assert v.requires_grad and v.creator is None
    assert v.node.get_variable_or_none() is v
    assert repr(v) == 'variable(None)'
    v.unchain_backward()
    v.backward()


def test_subclass_skipping_super_init_is_usable():
    class Lazy(Variable):
        def __init__(self, data):
            self.pending = data

    x = Lazy(_arr(3))
    assert x.array is None and x.node is not None
    x.array = x.pending
    F.sum(x * x).backward()
    testing.assert_allclose(x.grad, 2 * x.pending)


def test_reinit_detaches_the_old_graph():
    x = Variable(_arr(3))
    y = x * 2
    old_node = x.node
    Variable.__init__(x, _arr(5), name='x2')
    assert x.node is not old_node and x.name == 'x2'
    assert old_node.get_variable_or_none() is None
    y.grad = numpy.ones(3, numpy.float32)
    y.backward()
    assert x.grad is None
    del x
    gc.collect()
    others = [Variable(_arr(3)) for _ in range(50)]
    y.grad = numpy.ones(3, numpy.float32)  # the pass took the first one
    y.backward()
    assert all(o.grad is None for o in others)


def test_reinit_of_a_variable_outside_any_graph():
    x = Variable(_arr(3), name='a')
    x.node.retain_data()
    Variable.__init__(x, _arr(2), name='b')
    assert x.name == 'b' and x.node.data is None and x.node.shape == (2,)
    assert x.node.get_variable_or_none() is x
    held = x.node
    Variable.__init__(x, _arr(4))
    assert x.node is not held and held.get_variable_or_none() is None
    assert x.node.get_variable_or_none() is x and x.shape == (4,)


def test_variable_node_constructor_watches_the_variable_weakly():
    x = Variable(_arr(3))
    node = chainerlite.variable.VariableNode(x, 'watch')
    assert node.name == 'watch' and node.shape == (3,)
    assert node.get_variable_or_none() is x and node.get_variable() is x
    assert x.node is not node
    del x
    gc.collect()
    assert node.get_variable_or_none() is None
    with pytest.raises(RuntimeError):
        node.retain_data()


def test_variable_node_constructor_rejects_grad():
    with pytest.raises(ValueError, match='grad'):
        chainerlite.variable.VariableNode(Variable(), '', grad=None)
    with pytest.raises(TypeError):
        chainerlite.variable.VariableNode(None, '')


def test_constructor_defaults():
    v = Variable()
    assert v.array is None
    assert v.data is None
    assert v.grad is None
    assert v.name is None
    assert v.requires_grad is True
    assert v.creator is None


def test_constructor_with_ndarray_name_grad_requires_grad():
    a = _arr(2, 3)
    g = _arr(2, 3, seed=1)
    v = Variable(a, name='x', grad=g, requires_grad=False)
    assert v.array is a
    assert v.name == 'x'
    assert v.grad is g
    assert v.requires_grad is False


@pytest.mark.parametrize('bad', [[1.0, 2.0], 1.0, 3, numpy.float32(1.0), (1, 2)])
def test_constructor_rejects_non_arrays(bad):
    with pytest.raises(TypeError):
        Variable(bad)


def test_constructor_grad_shape_mismatch_raises():
    with pytest.raises(ValueError):
        Variable(_arr(2, 3), grad=_arr(3, 2))


def test_name_setter():
    v = Variable(_arr(2))
    v.name = 'w'
    assert v.name == 'w'
    assert v.node.name == 'w'


# ------------------------------------------------------------- data / array


def test_array_and_data_are_aliases():
    v = Variable(_arr(2, 3))
    b = _arr(4, dtype=numpy.float64)
    v.array = b
    assert v.data is b
    assert v.shape == (4,)
    assert v.dtype == numpy.float64
    c = _arr(5)
    v.data = c
    assert v.array is c
    assert v.node.shape == (5,)
    assert v.node.dtype == numpy.float32


def test_array_setter_rejects_list():
    v = Variable(_arr(2))
    with pytest.raises(TypeError):
        v.array = [1.0, 2.0]


# ------------------------------------------------------------------ grad


def test_grad_set_get():
    v = Variable(_arr(2, 3))
    g = _arr(2, 3, seed=2)
    v.grad = g
    assert v.grad is g
    gv = v.grad_var
    assert isinstance(gv, Variable)
    assert gv.array is g
    v.grad = None
    assert v.grad is None
    assert v.grad_var is None


def test_grad_var_set_get():
    v = Variable(_arr(2, 3))
    gv = Variable(_arr(2, 3, seed=3))
    v.grad_var = gv
    assert v.grad_var is gv
    assert v.grad is gv.array
    v.grad_var = None
    assert v.grad is None


def test_grad_dtype_mismatch_raises_type_error():
    v = Variable(_arr(2, 3))
    with pytest.raises(TypeError):
        v.grad = _arr(2, 3, dtype=numpy.float64)
    with pytest.raises(TypeError):
        v.grad_var = Variable(_arr(2, 3, dtype=numpy.float64))


def test_grad_shape_mismatch_raises_value_error():
    v = Variable(_arr(2, 3))
    with pytest.raises(ValueError):
        v.grad = _arr(3, 2)
    with pytest.raises(ValueError):
        v.grad_var = Variable(_arr(6))


def test_grad_type_mismatch_raises_type_error():
    v = Variable(_arr(2))
    with pytest.raises(TypeError):
        v.grad = [1.0, 1.0]
    with pytest.raises((TypeError, AttributeError)):
        v.grad_var = _arr(2)


# ------------------------------------------------------- shape attributes


def test_shape_ndim_size_dtype_len():
    v = Variable(_arr(2, 3, 4, dtype=numpy.float64))
    assert v.shape == (2, 3, 4)
    assert v.ndim == 3
    assert v.size == 24
    assert v.dtype == numpy.float64
    assert len(v) == 2


def test_len_of_0dim_raises_type_error():
    v = Variable(numpy.array(1.0, numpy.float32))
    with pytest.raises(TypeError):
        len(v)


def test_T():
    a = _arr(2, 3, 4)
    v = Variable(a)
    t = v.T
    assert isinstance(t, Variable)
    numpy.testing.assert_array_equal(t.array, a.T)


@pytest.mark.parametrize('args', [((3, 2),), (3, 2), ([3, 2],)])
def test_reshape_forms(args):
    a = _arr(2, 3)
    v = Variable(a)
    y = v.reshape(*args)
    assert y.shape == (3, 2)
    numpy.testing.assert_array_equal(y.array, a.reshape(3, 2))
    gy = y.grad = _arr(3, 2, seed=4)
    y.backward()
    numpy.testing.assert_array_equal(v.grad, gy.reshape(2, 3))


@pytest.mark.parametrize(
    'args, axes',
    [
        ((), None),
        ((None,), None),
        ((1, 0, 2), (1, 0, 2)),
        (((2, 0, 1),), (2, 0, 1)),
        (([0, 2, 1],), (0, 2, 1)),
    ],
)
def test_transpose_forms(args, axes):
    a = _arr(2, 3, 4)
    v = Variable(a)
    y = v.transpose(*args)
    numpy.testing.assert_array_equal(y.array, a.transpose(axes))


def test_transpose_backward():
    a = _arr(2, 3, 4)
    v = Variable(a)
    y = v.transpose(1, 2, 0)
    gy = _arr(*y.shape, seed=5)
    y.grad = gy
    y.backward()
    numpy.testing.assert_array_equal(v.grad, gy.transpose(2, 0, 1))


def test_label():
    assert Variable(_arr(2, 3)).label == '(2, 3), float32'
    assert Variable(numpy.array(1.0)).label == 'float64'


# ----------------------------------------------------------- repr / str


def test_repr_and_str():
    v = Variable(numpy.array([1.0, 2.0], numpy.float32))
    assert repr(v) == 'variable([1., 2.])'
    assert str(v) == 'variable([1. 2.])'
    v.name = 'x'
    assert repr(v) == 'variable x([1., 2.])'
    assert str(v) == 'variable x([1. 2.])'


def test_repr_none():
    assert repr(Variable()) == 'variable(None)'
    assert str(Variable()) == 'variable(None)'
    assert repr(Variable(name='x')) == 'variable x(None)'


@pytest.mark.parametrize('shape', [(0, 2), (2, 0), (3, 0, 1)])
def test_repr_of_an_empty_array_shows_its_shape(shape):
    v = Variable(numpy.zeros(shape, numpy.float16))
    assert repr(v) == 'variable([], shape=%r)' % (shape,)
    assert str(v) == 'variable([])'
    assert repr(chainerlite.Parameter(numpy.zeros(shape))) == repr(v)


def test_repr_of_an_empty_vector_has_no_shape():
    assert repr(Variable(numpy.zeros((0,), numpy.float32))) == 'variable([])'


def test_empty_name_is_printed_as_no_name():
    v = Variable(numpy.array([1.0, 2.0]), name='')
    assert repr(v) == 'variable([1., 2.])' and str(v) == 'variable([1. 2.])'
    assert v.summary() == '<variable at 0x%x>' % id(v)


def test_summary_is_the_name_or_the_address():
    v = Variable(_arr(2, 3), name='w')
    assert v.summary() == '<variable w>'
    v.name = None
    assert v.summary() == '<variable at 0x%x>' % id(v)


def test_repr_multiline_is_aligned():
    v = Variable(numpy.array([[1.0, 2.0], [3.0, 4.0]], numpy.float32))
    assert repr(v) == 'variable([[1., 2.],\n          [3., 4.]])'


# --------------------------------------------------------------- operators

_UNARY_SCALAR_OPS = [
    ('add', lambda x, c: x + c, lambda a, c: numpy.ones_like(a)),
    ('radd', lambda x, c: c + x, lambda a, c: numpy.ones_like(a)),
    ('sub', lambda x, c: x - c, lambda a, c: numpy.ones_like(a)),
    ('rsub', lambda x, c: c - x, lambda a, c: -numpy.ones_like(a)),
    ('mul', lambda x, c: x * c, lambda a, c: numpy.full_like(a, c)),
    ('rmul', lambda x, c: c * x, lambda a, c: numpy.full_like(a, c)),
    ('div', lambda x, c: x / c, lambda a, c: numpy.full_like(a, 1.0 / c)),
    ('rdiv', lambda x, c: c / x, lambda a, c: -c / a**2),
    ('pow', lambda x, c: x**c, lambda a, c: c * a ** (c - 1)),
    ('rpow', lambda x, c: c**x, lambda a, c: numpy.log(c) * c**a),
]


@pytest.mark.parametrize(
    'name, op, dop', _UNARY_SCALAR_OPS, ids=[o[0] for o in _UNARY_SCALAR_OPS]
)
@pytest.mark.parametrize('c', [2.0, 3, numpy.float64(2.5)])
def test_ops_with_scalar(name, op, dop, c):
    a = _arr(2, 3, dtype=numpy.float64)
    x = Variable(a)
    y = op(x, c)
    assert isinstance(y, Variable)
    testing.assert_allclose(y.array, op(a, c))
    gy = _arr(2, 3, dtype=numpy.float64, seed=7)
    y.grad = gy
    y.backward()
    testing.assert_allclose(x.grad, gy * dop(a, c))


_BINARY_OPS = [
    ('add', lambda x, y: x + y, lambda a, b, g: (g, g)),
    ('sub', lambda x, y: x - y, lambda a, b, g: (g, -g)),
    ('mul', lambda x, y: x * y, lambda a, b, g: (g * b, g * a)),
    ('div', lambda x, y: x / y, lambda a, b, g: (g / b, -g * a / b**2)),
    (
        'pow',
        lambda x, y: x**y,
        lambda a, b, g: (g * b * a ** (b - 1), g * numpy.log(a) * a**b),
    ),
]


@pytest.mark.parametrize('name, op, dop', _BINARY_OPS, ids=[o[0] for o in _BINARY_OPS])
def test_ops_between_variables(name, op, dop):
    a = _arr(2, 3, dtype=numpy.float64, seed=1)
    b = _arr(2, 3, dtype=numpy.float64, seed=2)
    x, w = Variable(a), Variable(b)
    y = op(x, w)
    testing.assert_allclose(y.array, op(a, b))
    g = _arr(2, 3, dtype=numpy.float64, seed=3)
    y.grad = g
    y.backward()
    ga, gb = dop(a, b, g)
    testing.assert_allclose(x.grad, ga)
    testing.assert_allclose(w.grad, gb)


@pytest.mark.parametrize('name, op, dop', _BINARY_OPS, ids=[o[0] for o in _BINARY_OPS])
def test_ops_with_ndarray_both_sides(name, op, dop):
    a = _arr(2, 3, dtype=numpy.float64, seed=1)
    b = _arr(2, 3, dtype=numpy.float64, seed=2)
    g = _arr(2, 3, dtype=numpy.float64, seed=3)
    ga, gb = dop(a, b, g)

    x = Variable(a)
    y = op(x, b)
    assert isinstance(y, Variable)
    testing.assert_allclose(y.array, op(a, b))
    y.grad = g
    y.backward()
    testing.assert_allclose(x.grad, ga)

    w = Variable(b)
    z = op(a, w)  # ndarray on the left: reflected operator of Variable
    assert isinstance(z, Variable)
    testing.assert_allclose(z.array, op(a, b))
    z.grad = g
    z.backward()
    testing.assert_allclose(w.grad, gb)


@pytest.mark.parametrize('name, op, dop', _BINARY_OPS, ids=[o[0] for o in _BINARY_OPS])
def test_broadcasting_grads_are_summed_back(name, op, dop):
    a = _arr(2, 3, dtype=numpy.float64, seed=1)
    b = _arr(3, dtype=numpy.float64, seed=2)
    x, w = Variable(a), Variable(b)
    y = op(x, w)
    assert y.shape == (2, 3)
    testing.assert_allclose(y.array, op(a, b))
    g = _arr(2, 3, dtype=numpy.float64, seed=3)
    y.grad = g
    y.backward()
    ga, gb = dop(a, numpy.broadcast_to(b, (2, 3)), g)
    assert x.grad.shape == (2, 3)
    assert w.grad.shape == (3,)
    testing.assert_allclose(x.grad, ga)
    testing.assert_allclose(w.grad, gb.sum(axis=0))


def test_broadcasting_keepdim_axis():
    a = _arr(2, 3, dtype=numpy.float64)
    b = _arr(2, 1, dtype=numpy.float64, seed=1)
    x, w = Variable(a), Variable(b)
    y = x * w
    g = numpy.ones((2, 3))
    y.grad = g
    y.backward()
    assert w.grad.shape == (2, 1)
    testing.assert_allclose(w.grad, a.sum(axis=1, keepdims=True))


def test_neg():
    a = _arr(2, 3)
    x = Variable(a)
    y = -x
    numpy.testing.assert_array_equal(y.array, -a)
    y.grad = numpy.ones_like(a)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, -numpy.ones_like(a))


def test_abs():
    a = numpy.array([-2.0, 1.0, -0.5], numpy.float32)
    x = Variable(a)
    y = abs(x)
    numpy.testing.assert_array_equal(y.array, numpy.abs(a))
    y.grad = numpy.ones_like(a)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, numpy.sign(a))


def test_matmul_operator():
    a = _arr(2, 3, dtype=numpy.float64)
    b = _arr(3, 4, dtype=numpy.float64, seed=1)
    x, w = Variable(a), Variable(b)
    y = x @ w
    testing.assert_allclose(y.array, a @ b)
    g = _arr(2, 4, dtype=numpy.float64, seed=2)
    y.grad = g
    y.backward()
    testing.assert_allclose(x.grad, g @ b.T)
    testing.assert_allclose(w.grad, a.T @ g)


def test_rmatmul_with_ndarray():
    a = _arr(2, 3, dtype=numpy.float64)
    b = _arr(3, 4, dtype=numpy.float64, seed=1)
    w = Variable(b)
    y = a @ w
    assert isinstance(y, Variable)
    testing.assert_allclose(y.array, a @ b)


def test_getitem():
    a = _arr(3, 4)
    x = Variable(a)
    y = x[1:, ::2]
    numpy.testing.assert_array_equal(y.array, a[1:, ::2])
    y.grad = numpy.ones_like(y.array)
    y.backward()
    expected = numpy.zeros_like(a)
    expected[1:, ::2] = 1
    numpy.testing.assert_array_equal(x.grad, expected)


def test_getitem_int_gives_lower_rank():
    a = _arr(3, 4)
    y = Variable(a)[2]
    assert y.shape == (4,)
    numpy.testing.assert_array_equal(y.array, a[2])


@pytest.mark.parametrize(
    'op',
    [
        lambda x, y: x == y,
        lambda x, y: x != y,
        lambda x, y: x < y,
        lambda x, y: x <= y,
        lambda x, y: x > y,
        lambda x, y: x >= y,
    ],
)
def test_comparison_raises_type_error(op):
    # TypeError, as Chainer 7.8.1 raises
    x = Variable(_arr(2))
    y = Variable(_arr(2))
    with pytest.raises(TypeError, match='operator'):
        op(x, y)


def test_bool_raises_type_error():
    with pytest.raises(TypeError, match='truth value'):
        bool(Variable(_arr(1)))


def test_variable_is_unhashable_as_in_chainer():
    # its == raises, so, as Chainer's, it has no hash; key by node or id
    x = Variable(_arr(2))
    with pytest.raises(TypeError, match='unhashable'):
        hash(x)
    assert {x.node: 1}[x.node] == 1


# ------------------------------------------------------- grad management


def test_cleargrad():
    x = Variable(_arr(2), grad=_arr(2))
    x.cleargrad()
    assert x.grad is None


def test_zerograd_warns_and_fills_zeros():
    x = Variable(_arr(2, 3))
    with pytest.warns(DeprecationWarning):
        x.zerograd()
    numpy.testing.assert_array_equal(x.grad, numpy.zeros((2, 3), numpy.float32))
    assert x.grad.dtype == numpy.float32
    x.grad[...] = 5
    g = x.grad
    with pytest.warns(DeprecationWarning):
        x.zerograd()
    numpy.testing.assert_array_equal(x.grad, numpy.zeros((2, 3)))
    assert x.grad is g  # filled in place


def test_addgrad():
    x = Variable(_arr(2), grad=numpy.array([1.0, 2.0], numpy.float32))
    y = Variable(_arr(2), grad=numpy.array([10.0, 20.0], numpy.float32))
    x.addgrad(y)
    numpy.testing.assert_array_equal(x.grad, [11.0, 22.0])
    numpy.testing.assert_array_equal(y.grad, [10.0, 20.0])


def test_addgrad_of_0d_gradients_keeps_an_array():
    # NumPy adds two 0-d arrays into a scalar, which a gradient cannot be
    # (Link.addgrads of a PReLU, whose W is 0-d, failed)
    x = Variable(numpy.zeros((), numpy.float32), grad=numpy.ones((), numpy.float32))
    y = Variable(numpy.zeros((), numpy.float32), grad=numpy.full((), 2, numpy.float32))
    x.addgrad(y)
    assert type(x.grad) is numpy.ndarray and x.grad.shape == ()
    assert x.grad == 3.0 and x.grad.dtype == numpy.float32


def test_backward_refuses_a_held_grad_of_another_dtype():
    # a leaf's grad left from before its array became float16: Chainer's
    # `+` refuses to add it to the new float16 gradient; NumPy promoted the
    # sum and the leaf's grad silently became float32
    p = chainerlite.Parameter(numpy.zeros(2, numpy.float32))
    p.grad = numpy.ones(2, numpy.float32)
    p.array = numpy.zeros(2, numpy.float16)
    with pytest.raises(TypeError, match='grad that a variable holds') as info:
        chainerlite.functions.sum(p * 2).backward()
    assert isinstance(info.value, chainerlite.utils.type_check.InvalidType)
    assert p.grad.dtype == numpy.float32 and (p.grad == 1).all()  # kept
    p.cleargrad()
    chainerlite.functions.sum(p * 2).backward()
    assert p.grad.dtype == numpy.float16


def test_addgrad_to_empty_grad_copies():
    x = Variable(_arr(2))
    y = Variable(_arr(2), grad=numpy.array([1.0, 2.0], numpy.float32))
    x.addgrad(y)
    numpy.testing.assert_array_equal(x.grad, [1.0, 2.0])
    y.grad[...] = 0
    numpy.testing.assert_array_equal(x.grad, [1.0, 2.0])


@pytest.mark.parametrize(
    'shape, dtype, error',
    [
        ((3,), numpy.float32, ValueError),
        ((2,), numpy.float64, TypeError),
        ((2,), numpy.float16, TypeError),
        ((2,), numpy.int32, TypeError),
    ],
)
def test_addgrad_of_another_shape_or_dtype_is_invalid_type(shape, dtype, error):
    # Chainer 7.8.1 adds with its `+` function, whose type check refuses
    # these; chainerlite's InvalidType is also NumPy's type of error
    g = numpy.array([1.0, 2.0], numpy.float32)
    x = Variable(_arr(2), grad=g.copy())
    y = Variable(numpy.zeros(shape, dtype), grad=numpy.ones(shape, dtype))
    with pytest.raises(error, match='Variable.addgrad') as info:
        x.addgrad(y)
    assert isinstance(info.value, chainerlite.utils.type_check.InvalidType)
    numpy.testing.assert_array_equal(x.grad, g)  # left as it was


def test_addgrad_broadcasts_a_gradient_that_fits():
    x = Variable(_arr(2), grad=numpy.array([1.0, 2.0], numpy.float32))
    x.addgrad(Variable(_arr(1), grad=numpy.array([5.0], numpy.float32)))
    numpy.testing.assert_array_equal(x.grad, [6.0, 7.0])


def test_set_creator_node_takes_an_old_style_function():
    class Identity(chainerlite.Function):
        def forward(self, inputs):
            return inputs

    f = Identity()
    for setter in ('set_creator', 'set_creator_node'):
        x = Variable(_arr(2))
        getattr(x, setter)(f)
        assert x.creator_node is f.node and x.creator is f and x.rank == 1


@pytest.mark.parametrize('setter', ['set_creator', 'set_creator_node'])
def test_set_creator_refuses_what_is_not_a_node(setter):
    x = Variable(_arr(2))
    # nothing with a rank: Chainer 7.8.1 fails reading it (AttributeError)
    for obj in (3, chainerlite.FunctionHook(), 'node'):
        with pytest.raises(AttributeError, match='must be a FunctionNode') as info:
            getattr(x, setter)(obj)
        assert isinstance(info.value, TypeError)
    # a rank that is no number: Chainer's TypeError; a Variable (which it
    # takes, with a rank that means nothing) too
    for obj in (type('R', (), {'rank': 'a'})(), Variable(_arr(2))):
        with pytest.raises(TypeError, match='must be a FunctionNode'):
            getattr(x, setter)(obj)
    assert x.creator is None and x.rank == 0


def test_copydata_in_place():
    a = numpy.zeros(3, numpy.float32)
    x = Variable(a)
    y = Variable(numpy.array([1.0, 2.0, 3.0], numpy.float32))
    x.copydata(y)
    assert x.array is a
    numpy.testing.assert_array_equal(a, [1.0, 2.0, 3.0])


# ------------------------------------------------------------------ graph


def test_creator_node_rank():
    x = Variable(_arr(2))
    assert x.creator is None
    assert x.creator_node is None
    assert x.rank == 0
    y = x * 2
    z = y + 1
    assert y.creator is not None
    assert y.creator is y.creator_node
    assert y.node.creator_node is y.creator_node
    assert isinstance(y.creator_node, chainerlite.FunctionNode)
    assert isinstance(y.node, chainerlite.variable.VariableNode)
    assert y.creator_node.inputs[0] is x.node
    assert y.rank == 1
    assert z.rank == 2
    assert z.creator_node.rank == 1


def test_retain_data():
    x = Variable(_arr(2))
    assert x.node.data is None
    x.retain_data()
    assert x.node.data is x.array


def test_unchain():
    x = Variable(_arr(2))
    y = x * 2
    z = y * 3
    y.unchain()
    assert y.creator is None
    assert y.creator_node is None
    z.grad = numpy.ones(2, numpy.float32)
    z.backward()
    assert x.grad is None


def test_unchain_backward():
    x = Variable(_arr(2))
    y = x * 2
    f = y.creator_node
    z = y * 3
    g = z.creator_node
    z.unchain_backward()
    assert y.creator is None
    assert z.creator is None
    assert f.inputs is None
    assert g.inputs is None
    numpy.testing.assert_array_equal(z.array, x.array * 6)


# ---------------------------------------------------------------- backward


def test_backward_on_scalar_seeds_one_and_takes_it():
    # as in Chainer, the pass takes the seed from the variable; it is
    # kept there only under retain_grad
    a = _arr(3)
    x = Variable(a)
    y = F.sum(x * x)
    y.backward()
    assert y.grad is None
    testing.assert_allclose(x.grad, 2 * a)
    y = F.sum(x * x)
    y.backward(retain_grad=True)
    numpy.testing.assert_array_equal(y.grad, numpy.ones((), numpy.float32))
    testing.assert_allclose(x.grad, 4 * a)


def test_backward_takes_a_given_grad_unless_retained():
    x = Variable(_arr(2))
    for retain in (False, True):
        y = x * 3
        y.grad = numpy.full(2, 2, numpy.float32)
        y.backward(retain_grad=retain)
        assert (y.grad is not None) == retain
    testing.assert_allclose(x.grad, numpy.full(2, 12, numpy.float32))


def test_backward_of_a_variable_needing_no_grad_runs_no_pass():
    # nothing of its graph requires a gradient: no error for a non-scalar
    # without grad, no hook called, and no grad left, as in Chainer
    calls = []

    class Hook(chainerlite.FunctionHook):
        def backward_preprocess(self, function, in_data, out_grad):
            calls.append(function.label)

    a = _arr(2, 3)
    for y in (F.exp(a) * 2, F.sum(F.exp(a))):
        with Hook():
            y.backward(retain_grad=True)
        assert y.grad is None and not y.requires_grad
    assert calls == []


def test_backward_of_non_scalar_without_grad_raises():
    x = Variable(_arr(2, 3))
    y = x * 2
    with pytest.raises(RuntimeError, match=r'6 elements.*Set its grad.*scalar'):
        y.backward()
    assert x.grad is None and y.grad is None
    y.grad = numpy.ones((2, 3), numpy.float32)
    y.backward()
    testing.assert_allclose(x.grad, numpy.full((2, 3), 2, numpy.float32))


def test_backward_of_one_element_non_scalar_warns_and_seeds_ones():
    x = Variable(_arr(1, 1))
    y = x * 3
    with pytest.warns(DeprecationWarning, match='0-dimensional'):
        y.backward(retain_grad=True)
    numpy.testing.assert_array_equal(y.grad, numpy.ones((1, 1), numpy.float32))
    testing.assert_allclose(x.grad, numpy.full((1, 1), 3, numpy.float32))


def test_backward_on_leaf_seeds_its_own_grad():
    # a one-element leaf is its own loss: Chainer leaves it the seed
    x = Variable(numpy.array(2.0, numpy.float32))
    x.backward(loss_scale=3.0)
    numpy.testing.assert_array_equal(x.grad, numpy.array(3.0, numpy.float32))
    v = Variable(_arr(2))
    v.backward()  # nothing to seed: no error, no grad
    assert v.grad is None


def test_intermediate_grads_freed_by_default():
    x = Variable(_arr(3))
    h = x * 2
    y = F.sum(h * h)
    y.backward()
    assert h.grad is None
    assert x.grad is not None


def test_retain_grad_keeps_intermediate_grads():
    a = _arr(3)
    x = Variable(a)
    h = x * 2
    y = F.sum(h * h)
    y.backward(retain_grad=True)
    testing.assert_allclose(h.grad, 2 * (2 * a))
    testing.assert_allclose(x.grad, 8 * a)


def test_loss_scale_scales_grads():
    a = _arr(3)
    x = Variable(a)
    y = F.sum(x * 3)
    y.backward(loss_scale=8.0)
    testing.assert_allclose(x.grad, numpy.full(3, 24.0))


def test_leaf_grads_accumulate_across_backward_calls():
    a = _arr(3)
    x = Variable(a)
    F.sum(x * 2).backward()
    F.sum(x * 3).backward()
    testing.assert_allclose(x.grad, numpy.full(3, 5.0))


def test_leaf_grad_accumulates_into_preset_grad():
    x = Variable(_arr(3), grad=numpy.ones(3, numpy.float32))
    F.sum(x * 2).backward()
    testing.assert_allclose(x.grad, numpy.full(3, 3.0))


def test_backward_twice_on_same_graph_accumulates():
    a = _arr(3)
    x = Variable(a)
    y = F.sum(x * x)
    y.backward()
    y.backward()
    testing.assert_allclose(x.grad, 4 * a)


def test_requires_grad_false_leaf_gets_no_grad():
    x = Variable(_arr(3), requires_grad=False)
    w = Variable(_arr(3, seed=1))
    F.sum(x * w).backward()
    assert x.grad is None
    testing.assert_allclose(w.grad, x.array)


def test_output_of_requires_grad_false_inputs():
    x = Variable(_arr(3), requires_grad=False)
    y = x * 2
    assert y.requires_grad is False


# ---------------------------------------------------- copy / pickle / weakref


def _make_var():
    v = Variable(
        numpy.array([1.0, 2.0], numpy.float32),
        name='v',
        grad=numpy.array([3.0, 4.0], numpy.float32),
    )
    v.extra = {'k': 1}
    return v


def _check_same_content(v, w):
    assert type(w) is type(v)
    numpy.testing.assert_array_equal(w.array, v.array)
    assert w.array.dtype == v.array.dtype
    numpy.testing.assert_array_equal(w.grad, v.grad)
    assert w.name == 'v'
    assert w.extra == {'k': 1}
    assert w.requires_grad == v.requires_grad


def test_copy():
    v = _make_var()
    w = copy.copy(v)
    _check_same_content(v, w)
    assert w is not v
    assert w.node is not v.node


def test_deepcopy_is_independent():
    v = _make_var()
    w = copy.deepcopy(v)
    _check_same_content(v, w)
    assert w.array is not v.array
    w.array[0] = 100
    w.grad[0] = 100
    w.extra['k'] = 2
    assert v.array[0] == 1
    assert v.grad[0] == 3
    assert v.extra == {'k': 1}


def test_pickle_round_trip():
    v = _make_var()
    w = pickle.loads(pickle.dumps(v))
    _check_same_content(v, w)


def test_pickle_requires_grad_false():
    v = Variable(_arr(2), requires_grad=False)
    w = pickle.loads(pickle.dumps(v))
    assert w.requires_grad is False


def test_pickle_intermediate_variable_drops_graph():
    x = Variable(_arr(2))
    y = x * 2
    w = pickle.loads(pickle.dumps(y))
    numpy.testing.assert_array_equal(w.array, y.array)
    assert w.creator is None


def test_weakref_to_variable_and_node():
    v = Variable(_arr(2))
    rv = weakref.ref(v)
    rn = weakref.ref(v.node)
    assert rv() is v
    assert rn() is v.node
    del v
    gc.collect()
    assert rv() is None
    assert rn() is None


# ------------------------------------------------------------------ dtypes


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float64])
@pytest.mark.parametrize(
    'op',
    [
        lambda x: x * 1.5,
        lambda x: 1.5 * x,
        lambda x: x + 1.5,
        lambda x: 1.5 - x,
        lambda x: x - 1.5,
        lambda x: x / 1.5,
        lambda x: 1.5 / x,
        lambda x: x**1.5,
        lambda x: 1.5**x,
        lambda x: -x,
        lambda x: abs(x),
    ],
)
def test_dtype_preserved_with_python_scalar(dtype, op):
    x = Variable(_arr(3, dtype=dtype))
    y = op(x)
    assert y.dtype == dtype
    y.grad = numpy.ones(3, dtype)
    y.backward()
    assert x.grad.dtype == dtype


_0DIM_OPS = [
    lambda x: x * 2.0,
    lambda x: x + 1.0,
    lambda x: 1.0 - x,
    lambda x: -x,
    lambda x: x / 2.0,
    lambda x: 2.0 / x,
    lambda x: x**2,
    lambda x: abs(x),
    lambda x: x * x,
    lambda x: x + x,
    lambda x: x - x,
    lambda x: x / x,
    lambda x: F.sum(x),
    lambda x: F.sum(x * 2.0) * 3.0,
]


@pytest.mark.parametrize('op', _0DIM_OPS)
def test_0dim_results_are_arrays(op):
    x = Variable(numpy.array(2.0, numpy.float32))
    y = op(x)
    assert isinstance(y.array, numpy.ndarray)
    assert y.shape == ()


@pytest.mark.parametrize('op', _0DIM_OPS)
def test_0dim_grads_are_arrays(op):
    x = Variable(numpy.array(2.0, numpy.float32))
    y = op(x)
    y.backward(retain_grad=True)
    assert isinstance(y.grad, numpy.ndarray)
    assert isinstance(x.grad, numpy.ndarray)
    assert x.grad.shape == ()


def test_0dim_intermediate_grads_are_arrays():
    x = Variable(_arr(3))
    s = F.sum(x)
    y = s * 3.0
    y.backward(retain_grad=True)
    assert isinstance(s.grad, numpy.ndarray)
    testing.assert_allclose(x.grad, numpy.full(3, 3.0))


def test_constructor_name_is_keyword_only():
    with pytest.raises(TypeError):
        Variable(_arr(2), 'x')


def test_mean_method_is_the_weighted_average():
    x = chainerlite.Variable(numpy.arange(6, dtype=numpy.float32).reshape(2, 3))
    numpy.testing.assert_allclose(x.mean().array, 2.5)
    numpy.testing.assert_allclose(x.mean(axis=0).array, [1.5, 2.5, 3.5])
    w = numpy.array([1.0, 0.0, 3.0], numpy.float32)
    y = x.mean(axis=1, weights=w, keepdims=True)
    numpy.testing.assert_allclose(y.array, [[1.5], [4.5]])
    y.grad = numpy.ones((2, 1), numpy.float32)
    y.backward()
    numpy.testing.assert_allclose(x.grad, [[0.25, 0.0, 0.75]] * 2)


def test_grad_setter_makes_a_differentiable_grad_var():
    # As in Chainer, the Variable made around an assigned grad requires grad.
    y = chainerlite.Variable(numpy.ones(3, numpy.float32)) * 2
    y.grad = numpy.ones(3, numpy.float32)
    assert y.grad_var.requires_grad


@pytest.mark.parametrize(
    'op',
    [
        lambda v, a: v + a,
        lambda v, a: a + v,
        lambda v, a: v - a,
        lambda v, a: a - v,
        lambda v, a: v * a,
        lambda v, a: a * v,
        lambda v, a: v / a,
        lambda v, a: a / v,
        lambda v, a: v**a,
        lambda v, a: a**v,
    ],
)
@pytest.mark.parametrize('dtype', [numpy.float64, numpy.float16, numpy.int32])
def test_array_operand_takes_the_variable_dtype(op, dtype):
    v = chainerlite.Variable(numpy.array([1.5, 2.0, 0.5], numpy.float32))
    a = numpy.array([2, 3, 1]).astype(dtype)
    y = op(v, a)
    assert y.dtype == numpy.float32
    expected = op(v.array.astype(numpy.float64), a.astype(numpy.float32))
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-6)
    y.grad = numpy.ones(3, numpy.float32)
    y.backward()
    assert v.grad.dtype == numpy.float32


def test_variable_operands_of_two_dtypes_still_raise():
    v = chainerlite.Variable(numpy.ones(3, numpy.float32))
    w = chainerlite.Variable(numpy.ones(3, numpy.float64))
    with pytest.raises(chainerlite.utils.type_check.InvalidType):
        v + w


# ------------------------------------------------- ChainerX, iDeep, layouts


def test_chainerx_conversions_as_without_chainerx():
    v = Variable(_arr(2))
    with pytest.raises(RuntimeError, match='to_chx: ChainerX'):
        v.to_chx()
    assert v.from_chx() is None and isinstance(v.array, numpy.ndarray)
    with pytest.raises(ValueError, match='chx_array'):
        v.chx_array


def test_to_intel64_raises_runtime_error_and_keeps_the_array():
    v = Variable(_arr(2))
    before = v.array
    with pytest.raises(RuntimeError):
        v.to_intel64()
    assert v.array is before


def test_as_layout():
    v = Variable(_arr(1, 2, 3, 4))
    assert v.as_layout(None) is v
    with pytest.raises(NotImplementedError, match='as_layout'):
        v.as_layout(chainerlite.memory_layouts.CUDNN_CHANNEL_LAST_X)


# ------------------------------------------------------- _check_grad_type


def test_check_grad_type_accepts_a_matching_gradient():
    from chainerlite.variable import _check_grad_type

    x = Variable(_arr(2, 3))
    y = x * 2.0
    assert _check_grad_type(None, x, False, _arr(2, 3)) is None
    # a node whose array is not retained still knows its dtype and shape
    assert y.node.data is None
    assert _check_grad_type(y.creator, y.node, True, _arr(2, 3)) is None
    # no array yet: any gradient
    assert _check_grad_type(None, Variable(), False, _arr(4)) is None


@pytest.mark.parametrize(
    'gx, error, words',
    [
        (numpy.zeros((2, 3), numpy.float64), TypeError, 'dtype float64'),
        (numpy.zeros((3, 2), numpy.float32), ValueError, 'shape (3, 2)'),
        (numpy.float32(1), TypeError, 'numpy.float32'),
        ([1.0, 2.0], TypeError, 'list'),
    ],
)
def test_check_grad_type_refuses_a_wrong_gradient(gx, error, words):
    from chainerlite.variable import _check_grad_type

    x = Variable(_arr(2, 3))
    with pytest.raises(error, match='_check_grad_type: .*' + re.escape(words)):
        _check_grad_type(None, x, False, gx)
    node = F.exp(x).creator
    with pytest.raises(error, match='exp.backward: '):
        _check_grad_type(node, x.node, True, gx)
    with pytest.raises(AssertionError):
        _check_grad_type(None, x, False, None)


@pytest.mark.parametrize('other_dtype', [numpy.float64, numpy.int32, numpy.float16])
def test_matmul_with_an_array_casts_it_to_the_variables_dtype(other_dtype):
    # as + - * / do with an array operand: the result keeps the variable's
    # dtype (an int32 array would otherwise be refused by MatMul's check)
    x = Variable(numpy.arange(4, dtype=numpy.float32).reshape(2, 2))
    a = numpy.array([[1, 2], [3, 4]], other_dtype)
    y, z = x @ a, a @ x
    assert y.dtype == z.dtype == numpy.float32
    numpy.testing.assert_array_equal(y.array, x.array @ a.astype(numpy.float32))
    numpy.testing.assert_array_equal(z.array, a.astype(numpy.float32) @ x.array)
    F.sum(y + z).backward()
    assert x.grad.dtype == numpy.float32


def test_setting_a_non_array_is_also_chainers_attribute_error():
    # Chainer's setters fail on an attribute of the value: AttributeError
    v = Variable(_arr(2))
    with pytest.raises(AttributeError, match='NumPy or CuPy array'):
        v.array = [1.0, 2.0]
    with pytest.raises(TypeError, match='grad_var must be a Variable'):
        v.grad_var = _arr(2)
    with pytest.raises(AttributeError):
        v.grad_var = _arr(2)


def test_an_unchained_variable_keeps_its_rank():
    x = Variable(_arr(2))
    y = (x * 2) * 3
    assert y.rank == 2
    y.unchain()
    assert y.creator is None and y.rank == 2  # as in Chainer
    z = y * 2
    assert z.rank == 3


def test_constructor_keywords_as_in_chainer():
    with pytest.raises(ValueError, match='volatile'):
        Variable(_arr(2), volatile=True)
    with pytest.raises(TypeError, match="unexpected keyword argument\\(s\\) 'foo'"):
        Variable(_arr(2), foo=1)
    assert Variable(_arr(2), layout=None).shape == (2,)
    with pytest.raises(NotImplementedError, match='layout'):
        Variable(_arr(2), layout='NHWC')


def test_copydata_into_a_variable_without_an_array():
    # Chainer 7.8.1 fails there with an AttributeError; chainerlite's error
    # is that and a TypeError, naming what is missing
    v = chainerlite.Variable(None)
    with pytest.raises(AttributeError, match='no array'):
        v.copydata(chainerlite.Variable(numpy.ones(2, numpy.float32)))
    with pytest.raises(TypeError):
        v.copydata(chainerlite.Variable(numpy.ones(2, numpy.float32)))
    assert v.array is None
