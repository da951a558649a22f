import operator
import pickle

import numpy
import pytest

from chainerlite.utils import type_check as T


def _types(*arrays, name='in_types'):
    return T.get_types(tuple(arrays), name, False)


@pytest.fixture
def x():
    return _types(numpy.zeros((2, 3, 4), numpy.float32))[0]


def _failure(expr):
    with pytest.raises(T.InvalidType) as info:
        T.expect(expr)
    return info.value


def test_get_types_describes_arrays():
    types = _types(numpy.zeros((2, 3), numpy.float32), numpy.zeros((5,), numpy.int32))
    assert isinstance(types, T.TypeInfoTuple)
    assert types.name == 'in_types'
    assert [str(t) for t in types] == ['in_types[0]', 'in_types[1]']
    info = types[0].eval()
    assert info.shape == (2, 3)
    assert info.ndim == 2
    assert info.size == 6
    assert info.dtype == numpy.float32
    assert types[1].eval().dtype == numpy.int32
    assert T.eval(types.size()) == 2
    assert str(types.size()) == 'in_types.size'


def test_get_types_with_shapes_and_none():
    types = T.get_types((numpy.zeros(3), None), 'xs', True, shapes=((7, 1), None))
    assert types[0].eval().shape == (7, 1)
    assert types[1].eval().dtype is None
    assert types[1].eval().shape == ()
    with pytest.raises(TypeError):
        T.get_types((None,), 'xs', False)
    with pytest.raises(TypeError):
        T.get_types([numpy.zeros(1)], 'xs', False)


def test_expect_passes(x):
    T.expect(
        x.ndim == 3,
        x.shape[0] == 2,
        x.dtype == numpy.float32,
        x.dtype.kind == 'f',
        x.size == 24,
    )


def test_failure_message_and_attributes(x):
    error = _failure(x.ndim == 2)
    assert str(error) == 'Expect: in_types[0].ndim == 2\nActual: 3 != 2'
    assert error.expect == 'in_types[0].ndim == 2'
    assert error.actual == '3 != 2'


def test_expect_stops_at_first_failure(x):
    error = _failure_many(x.ndim == 3, x.shape[1] > 5, x.ndim == 0)
    assert error.expect == 'in_types[0].shape[1] > 5'
    assert error.actual == '3 <= 5'


def _failure_many(*exprs):
    with pytest.raises(T.InvalidType) as info:
        T.expect(*exprs)
    return info.value


@pytest.mark.parametrize(
    'build, text, inverse',
    [
        (lambda v: v.ndim == 4, 'in_types[0].ndim == 4', '3 != 4'),
        (lambda v: v.ndim != 3, 'in_types[0].ndim != 3', '3 == 3'),
        (lambda v: v.ndim < 3, 'in_types[0].ndim < 3', '3 >= 3'),
        (lambda v: v.ndim <= 2, 'in_types[0].ndim <= 2', '3 > 2'),
        (lambda v: v.ndim > 3, 'in_types[0].ndim > 3', '3 <= 3'),
        (lambda v: v.ndim >= 4, 'in_types[0].ndim >= 4', '3 < 4'),
    ],
)
def test_comparisons_report_inverse(x, build, text, inverse):
    error = _failure(build(x))
    assert error.expect == text
    assert error.actual == inverse


@pytest.mark.parametrize(
    'build, text, value',
    [
        (lambda v: v.ndim + 1, 'in_types[0].ndim + 1', 4),
        (lambda v: v.ndim - 1, 'in_types[0].ndim - 1', 2),
        (lambda v: v.ndim * 2, 'in_types[0].ndim * 2', 6),
        (lambda v: v.ndim / 2, 'in_types[0].ndim / 2', 1.5),
        (lambda v: v.ndim // 2, 'in_types[0].ndim // 2', 1),
        (lambda v: v.ndim % 2, 'in_types[0].ndim % 2', 1),
        (lambda v: v.ndim**2, 'in_types[0].ndim ** 2', 9),
        (lambda v: 1 + v.ndim, '1 + in_types[0].ndim', 4),
        (lambda v: 10 - v.ndim, '10 - in_types[0].ndim', 7),
        (lambda v: 2 * v.ndim, '2 * in_types[0].ndim', 6),
        (lambda v: 6 / v.ndim, '6 / in_types[0].ndim', 2.0),
        (lambda v: 7 // v.ndim, '7 // in_types[0].ndim', 2),
        (lambda v: 7 % v.ndim, '7 % in_types[0].ndim', 1),
        (lambda v: 2**v.ndim, '2 ** in_types[0].ndim', 8),
        (lambda v: -v.ndim, '-in_types[0].ndim', -3),
        (lambda v: +v.ndim, '+in_types[0].ndim', 3),
        (lambda v: ~v.ndim, '~in_types[0].ndim', -4),
        (lambda v: v.ndim & 1, 'in_types[0].ndim & 1', 1),
        (lambda v: v.ndim | 4, 'in_types[0].ndim | 4', 7),
        (lambda v: v.ndim ^ 1, 'in_types[0].ndim ^ 1', 2),
        (lambda v: v.ndim << 1, 'in_types[0].ndim << 1', 6),
        (lambda v: v.ndim >> 1, 'in_types[0].ndim >> 1', 1),
        (lambda v: v.shape, 'in_types[0].shape', (2, 3, 4)),
        (lambda v: v.shape[-1], 'in_types[0].shape[-1]', 4),
        (lambda v: v.shape[1:], 'in_types[0].shape[1:]', (3, 4)),
        (lambda v: v.shape[:2], 'in_types[0].shape[:2]', (2, 3)),
        (lambda v: v.shape[::2], 'in_types[0].shape[::2]', (2, 4)),
        (lambda v: v.shape[v.ndim - 1], 'in_types[0].shape[in_types[0].ndim - 1]', 4),
        (lambda v: v.dtype.kind, 'in_types[0].dtype.kind', 'f'),
        (lambda v: v.dtype.itemsize, 'in_types[0].dtype.itemsize', 4),
        (lambda v: v.size, 'in_types[0].size', 24),
        (lambda v: T.prod(v.shape[1:]), 'prod(in_types[0].shape[1:])', 12),
        (lambda v: v.shape.count(3), 'in_types[0].shape.count(3)', 1),
    ],
)
def test_expression_text_and_value(x, build, text, value):
    expr = build(x)
    assert isinstance(expr, T.Expr)
    assert str(expr) == text
    assert expr.eval() == value
    assert T.eval(expr) == value


@pytest.mark.parametrize(
    'build, text, value',
    [
        (lambda a: (a + 1) * 2, '(in_types[0].ndim + 1) * 2', 8),
        (lambda a: a + 1 * 2, 'in_types[0].ndim + 2', 5),
        (lambda a: a * (1 + a), 'in_types[0].ndim * (1 + in_types[0].ndim)', 12),
        (lambda a: a - (a - 1), 'in_types[0].ndim - (in_types[0].ndim - 1)', 1),
        (lambda a: (a - a) - 1, 'in_types[0].ndim - in_types[0].ndim - 1', -1),
        (lambda a: a / (a * 3), 'in_types[0].ndim / (in_types[0].ndim * 3)', 1 / 3),
        (lambda a: 2**a**2, '2 ** in_types[0].ndim ** 2', 512),
        (lambda a: (2**a) ** 2, '(2 ** in_types[0].ndim) ** 2', 64),
        (lambda a: -(a**2), '-in_types[0].ndim ** 2', -9),
        (lambda a: (-a) ** 2, '(-in_types[0].ndim) ** 2', 9),
        (lambda a: 2**-a, '2 ** (-in_types[0].ndim)', 0.125),
        (lambda a: -(a + 1), '-(in_types[0].ndim + 1)', -4),
        (lambda a: (a + 1) & 6, 'in_types[0].ndim + 1 & 6', 4),
        (lambda a: a + (a & 6), 'in_types[0].ndim + (in_types[0].ndim & 6)', 5),
        (lambda a: (a & 1) + 1, '(in_types[0].ndim & 1) + 1', 2),
    ],
)
def test_precedence_gives_parentheses_where_needed(x, build, text, value):
    expr = build(x.ndim)
    assert str(expr) == text
    assert expr.eval() == value


def test_printed_expressions_evaluate_like_python(x):
    # The printed text, with the variable substituted, means the same value.
    ndim = 3  # noqa: F841 (read by eval below)
    for expr in [
        (x.ndim + 1) * 2,
        -(x.ndim**2),
        2**x.ndim**2,
        (2**x.ndim) ** 2,
        x.ndim - (x.ndim - 1),
        2**-x.ndim,
    ]:
        text = str(expr).replace('in_types[0].ndim', 'ndim')
        assert eval(text) == expr.eval()


def test_nested_comparison_is_parenthesized(x):
    expr = (x.ndim == 3) == True  # NOQA: E712
    assert str(expr) == '(in_types[0].ndim == 3) == True'
    T.expect(expr)


def test_attribute_on_compound_expression(x):
    expr = (x.shape[0] + x.shape[1]).real
    assert str(expr) == '(in_types[0].shape[0] + in_types[0].shape[1]).real'
    assert expr.eval() == 5


def test_dtype_comparisons_print_as_chainer_does(x):
    # a dtype by its name, a NumPy scalar type as Python prints the class
    error = _failure(x.dtype == numpy.float64)
    assert error.expect == "in_types[0].dtype == <class 'numpy.float64'>"
    assert error.actual == "float32 != <class 'numpy.float64'>"
    error = _failure(x.dtype == numpy.dtype(numpy.int8))
    assert error.actual == 'float32 != int8'
    T.expect(numpy.float32 == x.dtype)
    # a string as str() shows it, unquoted, in both texts
    error = _failure(x.dtype.kind == 'i')
    assert error.expect == 'in_types[0].dtype.kind == i'
    assert error.actual == 'f != i'


def test_numpy_scalar_on_the_left(x):
    expr = numpy.int64(3) == x.ndim
    assert isinstance(expr, T.Testable)
    T.expect(expr)
    assert (numpy.int64(2) + x.ndim).eval() == 5


def test_tuple_key(x):
    y = T.Variable(numpy.arange(6).reshape(2, 3), 'y')
    expr = y[1, 1:]
    assert str(expr) == 'y[1, 1:]'
    numpy.testing.assert_array_equal(expr.eval(), [4, 5])
    assert str(y[0, ...]) == 'y[0, ...]'


def test_constant_and_variable():
    c = T.Constant(5)
    assert str(c) == '5'
    assert c.eval() == 5
    v = T.Variable(7, 'seven')
    assert str(v + c) == 'seven + 5'
    assert (v + c).eval() == 12
    assert str(T.Constant('a')) == "'a'"


def test_expression_has_no_truth_value(x):
    with pytest.raises(RuntimeError):
        bool(x.ndim == 3)
    with pytest.raises(RuntimeError):
        if x.ndim:
            pass


def test_expression_is_not_iterable(x):
    with pytest.raises(TypeError):
        list(x.shape)


def test_expression_is_not_hashable(x):
    with pytest.raises(TypeError):
        hash(x.ndim)


def test_dunder_attributes_are_not_expressions(x):
    with pytest.raises(AttributeError):
        x.__array_interface__


def test_expect_plain_booleans_and_bad_arguments():
    T.expect(True, numpy.bool_(True))
    with pytest.raises(T.InvalidType):
        T.expect(False)
    with pytest.raises(TypeError):
        T.expect(3)


def test_eval_passes_plain_values_through():
    assert T.eval(5) == 5


def test_invalid_type_is_picklable():
    error = T.InvalidType('a == b', '1 != 2')
    restored = pickle.loads(pickle.dumps(error))
    assert str(restored) == str(error)
    assert restored.expect == 'a == b'
    assert restored.actual == '1 != 2'


class _Node:
    label = 'MyFunction'


class _Unlabeled:
    pass


def test_function_check_context_names_the_function(x):
    with T.get_function_check_context(_Node()):
        error = _failure(x.ndim == 2)
    assert str(error) == (
        '\nInvalid operation is performed in: MyFunction (Forward)\n\n'
        'Expect: in_types[0].ndim == 2\nActual: 3 != 2'
    )
    assert error.expect == 'in_types[0].ndim == 2'
    # Outside the context the function is no longer named.
    assert 'Invalid operation' not in str(_failure(x.ndim == 2))


def test_function_check_context_falls_back_to_class_name_and_nests(x):
    with T.get_function_check_context(_Unlabeled()):
        with T.get_function_check_context(_Node()):
            inner = _failure(x.ndim == 2)
        outer = _failure(x.ndim == 2)
    assert 'MyFunction (Forward)' in str(inner)
    assert '_Unlabeled (Forward)' in str(outer)


def test_function_check_context_restores_on_error(x):
    with pytest.raises(T.InvalidType):
        with T.get_function_check_context(_Node()):
            T.expect(x.ndim == 2)
    assert 'Invalid operation' not in str(_failure(x.ndim == 2))


def test_argname():
    types = _types(numpy.zeros((2,)), numpy.zeros((3,)))
    T.argname(types, ('x', 'W'))
    x_type, w_type = types
    error = _failure(x_type.shape[0] == w_type.shape[0])
    assert error.expect == 'x.shape[0] == W.shape[0]'
    assert error.actual == '2 != 3'
    with pytest.raises(T.InvalidType) as e:
        T.argname(types, ('x',))
    assert (e.value.expect, e.value.actual) == ('1 argument(s)', '2 argument(s)')
    # Chainer's message, without the function being checked
    assert str(e.value) == 'Invalid number of arguments'
    assert T._argname is T.argname


def test_light_mode():
    data = (numpy.zeros((2, 3), numpy.float32),)
    types = T.get_light_types(data)
    assert types.size() == 1
    (x_type,) = types
    assert not T.in_light_mode()
    with T.light_mode:
        assert T.in_light_mode()
        T.expect(x_type.ndim == 2, x_type.dtype.kind == 'f')
        with pytest.raises(T.InvalidType):
            T.expect(x_type.ndim == 3)
        assert T.prod(x_type.shape) == 6
        assert T.eval(x_type.ndim) == 2
        assert T.make_variable(4, 'four') == 4
        T.argname(types, ('x',))  # names are not kept in light mode
        with pytest.raises(T.InvalidType):
            T.argname(types, ('x', 'y', 'z'))
        with T.light_mode:
            pass
        assert T.in_light_mode()
    assert not T.in_light_mode()
    assert isinstance(T.make_variable(4, 'four'), T.Variable)


def test_light_types_with_shapes():
    types = T.get_light_types((numpy.zeros(6, numpy.int8),), shapes=((2, 3),))
    assert types[0].shape == (2, 3)
    assert types[0].ndim == 2
    assert types[0].dtype == numpy.int8


def test_same_types():
    a = numpy.zeros(2)
    assert T.same_types(a, a)
    assert T.same_types()
    assert not T.same_types(a, [1.0])


@pytest.mark.parametrize('op', [operator.eq, operator.lt])
def test_comparison_with_two_expressions(x, op):
    expr = op(x.shape[0], x.shape[1])
    assert T.eval(expr) is op(2, 3)


def test_expression_classes_built_as_chainer():
    # Chainer 7.8.1's constructor orders, by keyword; printed and
    # evaluated as Chainer's (recorded there)
    a, b = T.Variable(1, 'a'), T.Variable(2, 'b')
    check = T.BoolBinaryOperator(lhs=a, rhs=b, exp='==', inv='!=', func=operator.eq)
    with pytest.raises(T.InvalidType) as info:
        check.expect()
    assert (info.value.expect, info.value.actual) == ('a == b', '1 != 2')
    plus = T.BinaryOperator(priority=4, lhs=a, rhs=2, exp='+', func=operator.add)
    assert (str(plus), plus.eval()) == ('a + 2', 3)
    neg = T.UnaryOperator(priority=6, term=a, exp='-', func=operator.neg)
    assert (str(neg), neg.eval()) == ('-a', -1)
    call = T.Call(obj=T.Variable(len, 'len'), args=(T.Variable([1], 'xs'),))
    assert (str(call), call.eval()) == ('len(xs)', 1)
    with T.get_function_check_context(f=type('Node', (), {'label': 'Mine'})()):
        with pytest.raises(T.InvalidType, match='Mine'):
            T.expect(a == b)


def test_light_mode_class_and_variable_from_array():
    assert isinstance(T.light_mode, T.LightMode)
    x = numpy.zeros((2, 3), numpy.float32)
    v = T._make_variable_from_array(x, 'x')
    assert str(v) == 'x' and v.eval().shape == (2, 3)
    T.expect(v.dtype == numpy.float32, v.ndim == 2)
    with T.LightMode():
        assert T.in_light_mode()
        assert T._make_variable_from_array(x, 'x') is x
    assert not T.in_light_mode()
    with pytest.raises(T.InvalidType, match=r'isinstance\(x, ndarray\)'):
        T._make_variable_from_array(numpy.float32(1), 'x')


def test_prod_of_a_list_of_expressions_evaluates_and_prints_them():
    (t,) = _types(numpy.ones((2, 3, 4)))
    expr = T.prod([t.shape[0], t.shape[2]])
    assert str(expr) == 'prod([in_types[0].shape[0], in_types[0].shape[2]])'
    assert T.eval(expr) == 8
    T.expect(expr == 8)
    with pytest.raises(T.InvalidType) as info:
        T.expect(T.prod((t.shape[1],)) == 4)
    assert info.value.expect == 'prod((in_types[0].shape[1],)) == 4'
    assert info.value.actual == '3 != 4'


def test_broadcast_failure_lists_the_shapes():
    a, b = _types(numpy.zeros((2, 3)), numpy.zeros((4,)))
    T.expect_broadcast_shapes(a.shape, (1, 3))
    with pytest.raises(T.InvalidType) as e:
        T.expect_broadcast_shapes(a.shape, b.shape)
    assert (e.value.expect, e.value.actual) == ('', '')
    assert str(e.value) == (
        'cannot broadcast inputs of the following shapes:\n'
        'in_types[0].shape = (2, 3)\n'
        'in_types[1].shape = (4,)'
    )


def test_text_of_attributes_subscripts_and_constants_as_chainer_prints():
    a = T.Variable(3, 'a')
    # an attribute named by something other than a string prints as getattr
    assert str(T.GetAttr(a, 1)) == 'getattr(a, 1)'
    assert str(T.GetAttr(a, T.Constant('real'))) == 'a.real'
    assert T.GetAttr(a, T.Constant('real')).eval() == 3
    assert str(T.GetAttr(a, T.Constant(2))) == 'getattr(a, 2)'
    # a key of one-item tuple prints as its item
    assert str(a[(1,)]) == 'a[1]' and str(a[:,]) == 'a[:]'
    # a constant prints as its repr, a dtype included
    assert str(T.Constant(numpy.dtype('f'))) == "dtype('float32')"


def test_nodes_keep_chainers_attributes():
    a = T.Variable(3, 'a')
    assert (a.value, a.name) == (3, 'a')
    attr = a.real
    assert (attr.obj, attr.name) == (a, 'real')
    item = a[1]
    assert (item.obj, item.key) == (a, 1)
    call = a(1, 2)
    assert (call.obj, call.args) == (a, (1, 2))
    add = a + 1
    assert (add.lhs, add.rhs, add.exp, add.right_associative) == (a, 1, '+', False)
    assert add.func(2, 3) == 5
    neg = -a
    assert (neg.term, neg.exp, neg.func(2)) == (a, '-', -2)
    eq = a == 1
    assert (eq.exp, eq.inv, eq.priority) == ('==', '!=', -1)
