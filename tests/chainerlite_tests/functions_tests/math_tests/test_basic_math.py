import numpy as np
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite.functions.math import basic_math


def _v(*values):
    return chainerlite.Variable(np.array(values))


@pytest.mark.parametrize(
    'fn, ref',
    [(F.sub, np.subtract), (F.mul, np.multiply), (F.div, np.divide), (F.pow, np.power)],
)
@pytest.mark.parametrize('order', ['vv', 'vs', 'sv', 'av', 'va'])
def test_binary_function_forms(fn, ref, order):
    a, b = np.array([1.5, 2.0]), np.array([3.0, 0.5])
    ops = {'v': chainerlite.Variable, 's': lambda x: float(x[0]), 'a': lambda x: x}
    lhs, rhs = ops[order[0]](a), ops[order[1]](b)
    y = fn(lhs, rhs)
    expected = ref(a[0] if order[0] == 's' else a, b[0] if order[1] == 's' else b)
    np.testing.assert_allclose(y.array, expected)


def test_add_many_and_neg():
    x, y, z = _v(1.0, 2.0), _v(3.0, 4.0), np.array([5.0, 6.0])
    s = F.add(x, y, z)
    np.testing.assert_allclose(s.array, [9.0, 12.0])
    F.sum(s * F.neg(x)).backward()
    np.testing.assert_allclose(y.grad, -x.array)
    with pytest.raises(TypeError):
        F.add()


def test_operators_create_the_chainer_classes():
    x, y = _v(1.0), _v(2.0)
    assert type((x + y).creator) is basic_math.Add
    assert type((x * 2.0).creator) is basic_math.MulConstant
    assert type((x * y).creator) is basic_math.Mul
    assert type((2.0 - x).creator) is basic_math.SubFromConstant
    assert type((2.0 / x).creator) is basic_math.DivFromConstant
    assert type((x**2).creator) is basic_math.PowVarConst
    assert type((2.0**x).creator) is basic_math.PowConstVar
    assert type((x**y).creator) is basic_math.PowVarVar
    assert type((-x).creator) is basic_math.Neg
    assert type(abs(x).creator) is basic_math.Absolute


def test_labels_show_constants():
    x = _v(1.0)
    assert (x * 2.5).creator.label == '_ * 2.5'
    assert (x + -1.0).creator.label == '_ + (-1.0)'
    assert (x + x).creator.label == '_ + _'


def test_mismatched_dtypes_raise_invalid_type():
    from chainerlite.utils.type_check import InvalidType

    a = chainerlite.Variable(np.ones(2, np.float32))
    b = chainerlite.Variable(np.ones(2, np.float64))
    with pytest.raises(InvalidType) as info:
        a * b
    assert 'Mul' in str(info.value) or '_ * _' in str(info.value)
    with pytest.raises(InvalidType):
        a + chainerlite.Variable(np.ones(3, np.float32))


def test_double_backward_of_operators():
    from chainerlite import gradient_check

    rng = np.random.RandomState(0)
    x = rng.uniform(0.5, 1.5, (3,))
    y = rng.uniform(0.5, 1.5, (3,))

    def f(a, b):
        return (a * b + a / b - b**2 + 2.0**a - 1.0 / b) * a

    gy = rng.uniform(-1, 1, (3,))
    ggx = rng.uniform(-1, 1, (3,))
    ggy = rng.uniform(-1, 1, (3,))
    gradient_check.check_backward(f, (x, y), gy)
    gradient_check.check_double_backward(f, (x, y), gy, (ggx, ggy))


def test_module_functions_take_chainer_names():
    # Chainer 7.8.1's basic_math.sub/mul/div/pow(self, rhs): the right
    # operand by keyword
    x = chainerlite.Variable(np.array([2.0, 3.0]))
    y = np.array([4.0, 2.0])
    for name, expected in (
        ('sub', [-2.0, 1.0]),
        ('mul', [8.0, 6.0]),
        ('div', [0.5, 1.5]),
        ('pow', [16.0, 9.0]),
    ):
        out = getattr(basic_math, name)(x, rhs=y)
        np.testing.assert_allclose(out.array, expected)
