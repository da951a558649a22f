"""Arithmetic nodes behind the Variable operators, and their function forms.

The node classes are compiled in the core (``chainerlite._core.ops_math``);
the functions below are the ``F.*`` spellings of the operators.
"""

from __future__ import annotations

import typing

import chainerlite
from chainerlite._core import (  # NOQA
    Absolute,
    Add,
    AddConstant,
    Div,
    DivFromConstant,
    Mul,
    MulConstant,
    Neg,
    PowConstVar,
    PowVarConst,
    PowVarVar,
    Sub,
    SubFromConstant,
)
from chainerlite import function_node
from chainerlite import utils
from chainerlite.functions.array import sum_to
from chainerlite.functions.math._basic_math_grads import (  # NOQA
    AbsoluteGrad,
    DivFromConstantGrad,
    DivGrad,
    PowVarConstGrad,
    PowVarVarGrad,
)
from chainerlite.utils import type_check
from chainerlite.variable import Variable, as_variable
from chainerlite._core import handover

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray


def _lhs(a, b, name):
    # The left operand must be a Variable for the operator to dispatch here;
    # arrays become Variables that need no gradient.
    if isinstance(a, Variable):
        return a
    if isinstance(b, Variable) or not isinstance(a, (int, float)):
        return as_variable(a)
    raise TypeError('%s needs at least one Variable or array operand' % name)


def add(*xs):
    """Element-wise sum of any number of variables (with broadcasting).

    Args:
        *xs (Variable or ndarray): Operands; at least one is required.

    Returns:
        Variable: ``xs[0] + xs[1] + ...``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> F.add(np.array([1.0, 2.0]), np.array([3.0, 4.0]))
        variable([4., 6.])
    """
    if not xs:
        raise TypeError('add takes at least one argument')
    if len(xs) == 1:
        # a node all the same, as Chainer's (MultiAdd of one input): the
        # result is a new variable on the graph, not the input itself
        if not isinstance(xs[0], (Variable,) + chainerlite.get_array_types()):
            raise TypeError(
                'add: an operand must be a Variable or an array, got {}'.format(
                    type(xs[0]).__name__
                )
            )
        return MultiAdd().apply(xs)[0]
    if len(xs) == 2:
        return as_variable(xs[0]) + xs[1]
    return MultiAdd().apply(xs)[0]


class MultiAdd(function_node.FunctionNode):
    """Sum of any number of inputs of one dtype, broadcast together (the
    node of ``F.add`` with more than two operands)."""

    is_elementwise = True

    def check_type_forward(self, in_types):
        for i, in_type in enumerate(in_types):
            type_check._argname((in_type,), ('x{}'.format(i),))
            type_check.expect(in_types[0].dtype == in_type.dtype)

    def forward(self, xs):
        self.len = len(xs)  # Chainer's attribute: how many were added
        if len(xs) == 1:
            return xs
        y = xs[0] + xs[1]  # a new array, then added to in place
        for x in xs[2:]:
            if x.shape == y.shape:
                y += x
            else:
                y = x + y
        return (utils.force_array(y),)

    def backward(self, indexes, grad_outputs):
        (gy,) = grad_outputs
        return tuple(sum_to.sum_to(gy, self.inputs[i].shape) for i in indexes)


def sub(a: Variable | NdArray | float, rhs: Variable | NdArray | float):
    """Element-wise difference ``a - rhs`` (a scalar may be either operand)."""
    if not isinstance(a, Variable) and isinstance(rhs, Variable):
        return a - rhs
    return _lhs(a, rhs, 'sub') - rhs


def mul(a: Variable | NdArray | float, rhs: Variable | NdArray | float) -> Variable:
    """Element-wise product ``a * rhs`` (a scalar may be either operand)."""
    if not isinstance(a, Variable) and isinstance(rhs, Variable):
        return rhs * a
    return _lhs(a, rhs, 'mul') * rhs


def div(a: Variable | NdArray | float, rhs: Variable | NdArray | float):
    """Element-wise quotient ``a / rhs`` (a scalar may be either operand)."""
    if not isinstance(a, Variable) and isinstance(rhs, Variable):
        return a / rhs
    return _lhs(a, rhs, 'div') / rhs


def pow(a: Variable | NdArray | float, rhs: Variable | NdArray | float):
    """Element-wise power ``a ** rhs`` (a scalar may be either operand)."""
    if not isinstance(a, Variable) and isinstance(rhs, Variable):
        return a**rhs
    return _lhs(a, rhs, 'pow') ** rhs


def neg(x: Variable | NdArray) -> Variable:
    """Element-wise negation ``-x``."""
    return -as_variable(x)


# The operator methods of Variable under their names in Chainer's module:
# each one is ``self OP rhs`` (or ``rhs OP self`` for the r- forms).


def absolute(self):
    """``abs(self)``: element-wise absolute value of a Variable."""
    return abs(self)


def rsub(self, rhs):
    """``rhs - self``."""
    return self.__rsub__(rhs)


def rdiv(self, rhs):
    """``rhs / self``."""
    return self.__rtruediv__(rhs)


def floordiv(self, rhs):
    """``floor(self / rhs)`` (no gradient flows through the floor)."""
    from chainerlite.functions.math import floor

    return floor.floor(self / rhs)


def rfloordiv(self, rhs):
    """``floor(rhs / self)`` (no gradient flows through the floor)."""
    from chainerlite.functions.math import floor

    return floor.floor(rhs / self)


def rpow(self, rhs):
    """``rhs ** self``."""
    return self.__rpow__(rhs)


def matmul(self, rhs):
    """``self @ rhs``."""
    return self.__matmul__(rhs)


def rmatmul(self, rhs):
    """``rhs @ self``."""
    return self.__rmatmul__(rhs)


# The arithmetic operators of Variable, and what Variable's own class
# holds of them when chainerlite is imported (none: they are the core's).
_OPERATORS = (
    '__neg__ __abs__ __add__ __radd__ __sub__ __rsub__ __mul__ __rmul__ '
    '__truediv__ __rtruediv__ __floordiv__ __rfloordiv__ __pow__ __rpow__ '
    '__matmul__ __rmatmul__ __div__ __rdiv__'
).split()
_INSTALLED = {name: Variable.__dict__.get(name) for name in _OPERATORS}


def install_variable_arithmetics():
    """Gives :class:`~chainerlite.Variable` chainerlite's arithmetic
    operators (``-v``, ``abs(v)``, ``+``, ``-``, ``*``, ``/``, ``//``,
    ``**``, ``@`` and their reflected forms), undoing any replacement of
    them, as Chainer's import installs its own. Nothing changes where none
    was replaced."""
    for name, method in _INSTALLED.items():
        if Variable.__dict__.get(name) is method:
            continue
        if method is None:
            delattr(Variable, name)
        else:
            setattr(Variable, name, method)


# Variable's // operators, from the core
handover.provide(floordiv=floordiv, rfloordiv=rfloordiv)
