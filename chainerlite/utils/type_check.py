"""Type checking DSL for the inputs of function nodes.

A function node declares what its inputs must look like in
``check_type_forward(in_types)``. ``in_types`` holds one symbolic
:class:`Variable` per input, whose value is a :class:`TypeInfo`. Arithmetic,
indexing, attribute access, calls and comparisons on these variables build an
expression tree (:class:`Expr`) instead of computing a value, so that
:func:`expect` can print both the expression that failed and the values it
saw::

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        x_type, = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim == 2,
        )

A failing condition raises :class:`InvalidType`, whose message reads like::

    Invalid operation is performed in: MyFunc (Forward)

    Expect: in_types[0].ndim == 2
    Actual: 3 != 2

In *light mode* (see :data:`light_mode`) the same check code runs on plain
arrays and plain Python values: comparisons give booleans, and a failure
raises :class:`InvalidType` without details. Callers use it for a cheap first
try and rerun the check in full mode only when it fails.
"""

import contextlib
import operator
import sys
import threading

import numpy

from chainerlite._core import facts as _facts
from chainerlite._core import handover
from chainerlite._core.config import in_light_mode as _in_light_mode
from chainerlite._core.config import set_light_mode as _set_light_mode

_thread_local = threading.local()


def in_light_mode():
    """Tells whether type checks of this thread run in light mode.

    Returns:
        bool: ``True`` inside ``with light_mode:``.

    """
    return _in_light_mode()


class LightMode:
    """Context manager that switches the current thread to light mode."""

    def __enter__(self):
        stack = getattr(_thread_local, 'light_mode_stack', None)
        if stack is None:
            stack = _thread_local.light_mode_stack = []
        stack.append(_set_light_mode(True))

    def __exit__(self, exc_type, exc_value, traceback):
        _set_light_mode(_thread_local.light_mode_stack.pop())


#: Context manager (``with type_check.light_mode: ...``) under which the
#: checks evaluate directly on arrays and raise :class:`InvalidType` without
#: building expressions.
light_mode = LightMode()


class TypeInfo:
    """Shape and dtype of one input, as seen by a type check.

    Args:
        shape (tuple of int): The shape of the array.
        dtype (numpy.dtype or None): Its dtype (``None`` for a missing
            input that was accepted).

    Attributes:
        shape (tuple of int): The shape.
        dtype (numpy.dtype): The dtype.
        ndim (int): The number of dimensions.

    """

    def __init__(self, shape, dtype):
        self.shape = tuple(shape)
        self.dtype = dtype
        self.ndim = len(self.shape)

    @property
    def size(self):
        """int: The number of elements."""
        return _prod_impl(self.shape)

    def __repr__(self):
        return 'TypeInfo(shape={!r}, dtype={})'.format(self.shape, _repr(self.dtype))


class TypeInfoTuple(tuple):
    """Tuple of the :class:`Variable` objects describing a set of arrays.

    ``name`` is the prefix of the variables' names (``'in_types'``).
    """

    name = 'types'

    def size(self):
        """Returns the number of elements as a type-check variable.

        Returns:
            Variable: Evaluates to ``len(self)`` and prints as
            ``<name>.size``.

        """
        return Variable(len(self), '{}.size'.format(self.name))


class LightTypeInfoTuple(tuple):
    """Tuple of raw arrays (or :class:`TypeInfo`) used in light mode."""

    def size(self):
        """Returns the number of elements.

        Returns:
            int: ``len(self)``.

        """
        return len(self)


def _get_type(name, index, array, accept_none, shape):
    var_name = '{}[{}]'.format(name, index)
    if array is None:
        if not accept_none:
            raise TypeError('{} is None'.format(var_name))
        return Variable(TypeInfo((), None), var_name)
    if not (hasattr(array, 'shape') and hasattr(array, 'dtype')):
        raise TypeError('{} is not an array: {}'.format(var_name, type(array).__name__))
    return Variable(TypeInfo(shape, array.dtype), var_name)


def get_types(data, name, accept_none, shapes=None):
    """Describes a tuple of arrays for a type check.

    Args:
        data (tuple of arrays): The arrays (NumPy or CuPy), or ``None``
            entries when ``accept_none`` is ``True``.
        name (str): Name of the tuple in messages (``'in_types'``). The
            elements are named ``name[0]``, ``name[1]``, ...
        accept_none (bool): Whether ``None`` entries are allowed; they are
            described with shape ``()`` and dtype ``None``.
        shapes (tuple of tuples or None): Shapes to use instead of the
            arrays' own shapes.

    Returns:
        TypeInfoTuple: One :class:`Variable` per array.

    """
    if not isinstance(data, tuple):
        raise TypeError('data must be a tuple, not {}'.format(type(data).__name__))
    if shapes is None:
        shapes = tuple(None if x is None else x.shape for x in data)
    info = TypeInfoTuple(
        _get_type(name, i, x, accept_none, shape)
        for i, (x, shape) in enumerate(zip(data, shapes))
    )
    info.name = name
    return info


def get_light_types(data, shapes=None):
    """Describes a tuple of arrays for a light-mode type check.

    Args:
        data (tuple of arrays): The arrays.
        shapes (tuple of tuples or None): Shapes to use instead of the
            arrays' own shapes.

    Returns:
        LightTypeInfoTuple: The arrays themselves, or :class:`TypeInfo`
        objects when ``shapes`` is given.

    """
    if not isinstance(data, tuple):
        raise TypeError('data must be a tuple, not {}'.format(type(data).__name__))
    if shapes is None:
        return LightTypeInfoTuple(data)
    return LightTypeInfoTuple(
        TypeInfo(shape, x.dtype) for x, shape in zip(data, shapes)
    )


def _repr(value):
    """Formats a value (or an expression) for messages."""
    if isinstance(value, Expr):
        return str(value)
    # a list or tuple (of expressions, as prod([a, b]) takes) item by item
    if isinstance(value, list):
        return '[{}]'.format(', '.join(_repr(v) for v in value))
    if isinstance(value, tuple):
        items = [_repr(v) for v in value]
        if len(items) == 1:
            return '({},)'.format(items[0])
        return '({})'.format(', '.join(items))
    if isinstance(value, slice):
        return _repr_slice(value)
    if value is Ellipsis:
        return '...'
    return repr(value)


def _repr_slice(key):
    if not isinstance(key, slice):
        return _repr(key)
    parts = ['' if v is None else _repr(v) for v in (key.start, key.stop)]
    text = ':'.join(parts)
    if key.step is not None:
        text += ':' + _repr(key.step)
    return text


def _eval(value):
    if isinstance(value, Expr):
        return value.eval()
    if isinstance(value, slice):
        return slice(_eval(value.start), _eval(value.stop), _eval(value.step))
    if isinstance(value, tuple):
        return tuple(_eval(v) for v in value)
    if isinstance(value, list):
        return [_eval(v) for v in value]
    return value


def _operand(value, priority, parenthesize_equal):
    """Formats an operand, with parentheses if it binds more loosely."""
    text = _repr(value)
    if isinstance(value, Expr) and (
        value.priority < priority or (parenthesize_equal and value.priority == priority)
    ):
        return '(' + text + ')'
    return text


_ATOM_PRIORITY = 8


class Expr:
    """Node of a type-check expression.

    Operators on an ``Expr`` return new ``Expr`` nodes instead of values:
    arithmetic and bitwise operators, comparisons (which give
    :class:`Testable` nodes for :func:`expect`), indexing, attribute access
    and calls. :meth:`eval` computes the value.

    Args:
        priority (int): Operator precedence used to decide where printed
            expressions need parentheses (higher binds tighter).

    """

    # NumPy must not treat an expression as an array operand: it defers to
    # the reflected operators below instead.
    __array_ufunc__ = None

    def __init__(self, priority):
        self.priority = priority

    def eval(self):
        """Computes the value of the expression.

        Returns:
            The value.

        """
        raise NotImplementedError

    def __bool__(self):
        raise RuntimeError(
            'A type-check expression has no truth value; use '
            'chainerlite.utils.type_check.eval() to compute it or '
            'type_check.expect() to check a condition.'
        )

    def __iter__(self):
        raise TypeError('type-check expressions are not iterable')

    def __getattr__(self, name):
        if name.startswith('__') and name.endswith('__'):
            raise AttributeError(name)
        return GetAttr(self, name)

    def __getitem__(self, key):
        return GetItem(self, key)

    def __call__(self, *args):
        return Call(self, args)

    def __neg__(self):
        return UnaryOperator(6, self, '-', operator.neg)

    def __pos__(self):
        return UnaryOperator(6, self, '+', operator.pos)

    def __invert__(self):
        return UnaryOperator(6, self, '~', operator.invert)


def _binary(symbol, priority, func, right_associative=False):
    def method(self, other):
        return BinaryOperator(priority, self, other, symbol, func, right_associative)

    def reflected(self, other):
        return BinaryOperator(priority, other, self, symbol, func, right_associative)

    return method, reflected


def _compare(symbol, inverse, func):
    def method(self, other):
        return BoolBinaryOperator(self, other, symbol, inverse, func)

    return method


for _name, _symbol, _priority, _func in (
    ('or', '|', 0, operator.or_),
    ('xor', '^', 1, operator.xor),
    ('and', '&', 2, operator.and_),
    ('lshift', '<<', 3, operator.lshift),
    ('rshift', '>>', 3, operator.rshift),
    ('add', '+', 4, operator.add),
    ('sub', '-', 4, operator.sub),
    ('mul', '*', 5, operator.mul),
    ('truediv', '/', 5, operator.truediv),
    ('floordiv', '//', 5, operator.floordiv),
    ('mod', '%', 5, operator.mod),
    ('pow', '**', 7, operator.pow),
):
    _method, _reflected = _binary(
        _symbol, _priority, _func, right_associative=_symbol == '**'
    )
    setattr(Expr, '__{}__'.format(_name), _method)
    setattr(Expr, '__r{}__'.format(_name), _reflected)

for _name, _symbol, _inverse, _func in (
    ('eq', '==', '!=', operator.eq),
    ('ne', '!=', '==', operator.ne),
    ('lt', '<', '>=', operator.lt),
    ('le', '<=', '>', operator.le),
    ('gt', '>', '<=', operator.gt),
    ('ge', '>=', '<', operator.ge),
):
    setattr(Expr, '__{}__'.format(_name), _compare(_symbol, _inverse, _func))

# Defining __eq__ makes instances unhashable, which is what we want: an
# expression is not a value.
Expr.__hash__ = None

del _name, _symbol, _priority, _func, _inverse, _method, _reflected


class Atom(Expr):
    """Expression that never needs parentheses."""

    def __init__(self):
        super().__init__(_ATOM_PRIORITY)


class Constant(Atom):
    """A literal value in an expression.

    Args:
        value: The value. It prints as its ``repr``.

    """

    def __init__(self, value):
        super().__init__()
        self.value = value

    def __str__(self):
        return _repr(self.value)

    def eval(self):
        return self.value


class Variable(Atom):
    """A named value in an expression.

    Args:
        value: The value (a :class:`TypeInfo` for an input).
        name (str): The name printed in messages.

    """

    def __init__(self, value, name):
        super().__init__()
        self.value = value
        self.name = name

    def __str__(self):
        return self.name

    def eval(self):
        return self.value


class GetAttr(Atom):
    """Attribute access ``obj.name`` in an expression."""

    def __init__(self, obj, name):
        super().__init__()
        self.obj = obj
        self.name = name

    def __str__(self):
        obj = _operand(self.obj, _ATOM_PRIORITY, False)
        name = self.name
        if isinstance(name, Constant):
            name = name.value
        if isinstance(name, str):
            return '{}.{}'.format(obj, name)
        # as Chainer prints a name that is not a string
        return 'getattr({}, {})'.format(obj, _repr(self.name))

    def eval(self):
        return getattr(_eval(self.obj), _eval(self.name))


class GetItem(Atom):
    """Indexing ``obj[key]`` in an expression (slices and tuples too)."""

    def __init__(self, obj, key):
        super().__init__()
        self.obj = obj
        self.key = key

    def __str__(self):
        if isinstance(self.key, tuple):
            # Chainer's text: the items only (x[1,] prints as x[1])
            key = ', '.join(_repr_slice(k) for k in self.key)
        else:
            key = _repr_slice(self.key)
        return '{}[{}]'.format(_operand(self.obj, _ATOM_PRIORITY, False), key)

    def eval(self):
        return _eval(self.obj)[_eval(self.key)]


class Call(Atom):
    """Call ``obj(*args)`` in an expression."""

    def __init__(self, obj, args):
        super().__init__()
        self.obj = obj
        self.args = tuple(args)

    def __str__(self):
        return '{}({})'.format(
            _operand(self.obj, _ATOM_PRIORITY, False),
            ', '.join(_repr(a) for a in self.args),
        )

    def eval(self):
        return _eval(self.obj)(*[_eval(a) for a in self.args])


class UnaryOperator(Expr):
    """Prefix operator (``-x``, ``+x``, ``~x``) in an expression."""

    def __init__(self, priority, term, exp, func):
        super().__init__(priority)
        self.term = term
        self.exp = exp
        self.func = func

    def __str__(self):
        return self.exp + _operand(self.term, self.priority, False)

    def eval(self):
        return self.func(_eval(self.term))


class BinaryOperator(Expr):
    """Infix operator in an expression.

    Args:
        priority (int): Precedence of the operator.
        lhs: Left operand (an :class:`Expr` or a plain value).
        rhs: Right operand.
        exp (str): The operator as printed (``'+'``).
        func (callable): Computes the operator on values.
        right_associative (bool): ``True`` for ``**``.

    """

    def __init__(self, priority, lhs, rhs, exp, func, right_associative=False):
        super().__init__(priority)
        self.lhs = lhs
        self.rhs = rhs
        self.exp = exp
        self.func = func
        self.right_associative = right_associative

    def __str__(self):
        left = _operand(self.lhs, self.priority, self.right_associative)
        right = _operand(self.rhs, self.priority, not self.right_associative)
        return '{} {} {}'.format(left, self.exp, right)

    def eval(self):
        return self.func(_eval(self.lhs), _eval(self.rhs))


class Testable:
    """Mixin for expressions that :func:`expect` can check."""

    def expect(self):
        """Raises :class:`InvalidType` unless the condition holds."""
        raise NotImplementedError


class BoolBinaryOperator(BinaryOperator, Testable):
    """Comparison in an expression; :meth:`expect` checks it.

    Args:
        lhs: Left operand.
        rhs: Right operand.
        exp (str): The comparison as printed (``'=='``).
        inv (str): The negated comparison, printed between the actual
            values when the check fails (``'!='``).
        func (callable): Computes the comparison on values.

    """

    def __init__(self, lhs, rhs, exp, inv, func):
        super().__init__(-1, lhs, rhs, exp, func)
        self.inv = inv

    def __str__(self):
        # Comparisons chain in Python, so nested ones always get
        # parentheses to keep the printed text meaning the same thing.
        left = _operand(self.lhs, self.priority, True)
        right = _operand(self.rhs, self.priority, True)
        return '{} {} {}'.format(left, self.exp, right)

    def expect(self):
        left = _eval(self.lhs)
        right = _eval(self.rhs)
        if not self.func(left, right):
            # Chainer's texts: operands and values as str() shows them (a
            # string unquoted, a dtype by its name)
            raise InvalidType(
                '{} {} {}'.format(self.lhs, self.exp, self.rhs),
                '{} {} {}'.format(left, self.inv, right),
            )


class InvalidType(Exception):
    """Raised when the inputs of a function do not pass its type check.

    Args:
        expect (str): The condition that was expected, as text.
        actual (str): The values that were seen, as text.
        msg (str or None): The full message; built from ``expect`` and
            ``actual`` (and the function being checked, if any) when
            ``None``.

    Attributes:
        expect (str): The condition that was expected.
        actual (str): The values that were seen.

    """

    def __init__(self, expect, actual, msg=None):
        if msg is None:
            msg = 'Expect: {}\nActual: {}'.format(expect, actual)
            function = getattr(_thread_local, 'current_function', None)
            if function is not None:
                msg = '\nInvalid operation is performed in: {} (Forward)\n\n{}'.format(
                    _label(function), msg
                )
        super().__init__(msg)
        # A base such as numpy's AxisError keeps its own arguments: one
        # message for every class of the family.
        self.args = (msg,)
        self.expect = expect
        self.actual = actual

    def __reduce__(self):
        return (type(self), (self.expect, self.actual, self.args[0]))


# The InvalidType family: where Chainer 7.8.1 fails on an input inside its
# own code (an IndexError from a shape lookup, numpy's AxisError, ...) and
# chainerlite's type check finds the input invalid, the check raises a
# class that is both InvalidType (its message names the function and the
# condition) and Chainer's type, so that code catching either catches it.
class InvalidTypeValueError(InvalidType, ValueError):
    """:class:`InvalidType` that is also a ``ValueError``."""


class InvalidTypeTypeError(InvalidType, TypeError):
    """:class:`InvalidType` that is also a ``TypeError``."""


class InvalidTypeIndexError(InvalidType, IndexError):
    """:class:`InvalidType` that is also an ``IndexError``."""


class InvalidTypeAxisError(InvalidType, numpy.exceptions.AxisError):
    """:class:`InvalidType` that is also NumPy's ``AxisError`` (so a
    ``ValueError`` and an ``IndexError``)."""

    def __str__(self):
        return self.args[0]


class InvalidTypeAssertionError(InvalidType, AssertionError):
    """:class:`InvalidType` that is also an ``AssertionError``."""


class InvalidTypeRuntimeError(InvalidType, RuntimeError):
    """:class:`InvalidType` that is also a ``RuntimeError`` (Chainer's type
    checks of a chained comparison raise it)."""


_FAMILY = {
    cls.__bases__[1]: cls
    for cls in (
        InvalidTypeValueError,
        InvalidTypeTypeError,
        InvalidTypeIndexError,
        InvalidTypeAxisError,
        InvalidTypeAssertionError,
        InvalidTypeRuntimeError,
    )
}


@contextlib.contextmanager
def invalid_as(error_type):
    """Raises the :class:`InvalidType` of the ``with`` block as the member of
    the InvalidType family that is also ``error_type`` (``ValueError``,
    ``TypeError``, ``IndexError``, ``numpy.AxisError``, ``AssertionError``
    or ``RuntimeError``): the type Chainer 7.8.1 raises on the same input.

    A chainerlite extension; the message stays the check's.
    """
    cls = _FAMILY[error_type]
    try:
        yield
    except InvalidType as e:
        if isinstance(e, cls):
            raise
        raise cls(e.expect, e.actual, e.args[0]) from None


def _label(function):
    label = getattr(function, 'label', None)
    if isinstance(label, str):
        return label
    return type(function).__name__


@contextlib.contextmanager
def get_function_check_context(f):
    """Names the function whose inputs are being checked.

    :class:`InvalidType` errors raised inside the ``with`` block mention
    ``f`` (its ``label``, else its class name).

    Args:
        f: The function node being checked.

    """
    previous = getattr(_thread_local, 'current_function', None)
    _thread_local.current_function = f
    try:
        yield
    finally:
        _thread_local.current_function = previous


def declare_kinds(**kinds):
    """Makes a ``check_type_forward`` that asks only for dtype kinds.

    A chainerlite extension: the one statement of such a contract. The
    check made accepts exactly the named inputs, in order, each of the
    dtype kind given (``x='f'``), and rejects anything else with the
    messages of :func:`argname` and :func:`expect`. Inputs that match skip
    the check (which costs about a microsecond per call): the core reads
    the same declaration. A subclass or a patch that replaces the check is
    checked in full.

    Args:
        **kinds: ``name=kind`` per input, in order; ``kind`` is one dtype
            kind character, e.g. ``'f'``.

    Returns:
        A ``check_type_forward`` method, to assign in the class body.

    .. admonition:: Example

        >>> from chainerlite import function_node
        >>> from chainerlite.utils import type_check
        >>> class Twice(function_node.FunctionNode):
        ...     check_type_forward = type_check.declare_kinds(x='f')
        ...     def forward(self, inputs):
        ...         return inputs[0] * 2,

    """
    if not kinds or not all(
        isinstance(k, str) and len(k) == 1 and k.isascii() for k in kinds.values()
    ):
        raise TypeError(
            'declare_kinds takes name=kind for one or more inputs, each kind '
            'one dtype kind character, not {!r}'.format(kinds)
        )
    return _facts.KindsCheck(tuple(kinds), ''.join(kinds.values()))


def expect(*bool_exprs):
    """Checks type-check conditions.

    Args:
        *bool_exprs: Comparisons built from type-check variables (or, in
            light mode and for convenience, plain booleans).

    Raises:
        InvalidType: If a condition does not hold. Outside light mode the
            message shows the condition and the values it compared.

    """
    if in_light_mode():
        if not all(bool_exprs):
            raise InvalidType('', '')
        return
    for expr in bool_exprs:
        if isinstance(expr, Testable):
            expr.expect()
        elif isinstance(expr, (bool, numpy.bool_)):
            if not expr:
                raise InvalidType('<a condition evaluated to False>', 'False')
        else:
            raise TypeError(
                'expect() takes comparisons of type-check variables, not {}'.format(
                    type(expr).__name__
                )
            )


def eval(exp):
    """Computes the value of an expression.

    Args:
        exp: An :class:`Expr`, or a plain value (returned as it is).

    Returns:
        The value.

    """
    if isinstance(exp, Expr):
        return exp.eval()
    return exp


def make_variable(value, name):
    """Wraps a value as a named type-check variable (as is in light mode).

    Args:
        value: The value.
        name (str): Name printed in messages.

    Returns:
        Variable or the value itself in light mode.

    """
    if in_light_mode():
        return value
    return Variable(value, name)


def _make_variable_from_array(array, name):
    # The type-check variable describing one array (the array itself in
    # light mode), as Chainer's helper of the same name.
    import chainerlite

    if not isinstance(array, chainerlite.get_array_types()):
        raise InvalidType(
            'isinstance({}, ndarray)'.format(name),
            'type({}) == {}'.format(name, type(array)),
        )
    if in_light_mode():
        return array
    return Variable(TypeInfo(array.shape, array.dtype), name)


def _prod_impl(xs):
    result = 1
    for x in xs:
        result *= x
    return result


_prod = Variable(_prod_impl, 'prod')


def prod(xs):
    """Product of the elements of ``xs``, usable in type checks.

    Args:
        xs: A shape (or a type-check expression of one).

    Returns:
        Call expression printing as ``prod(...)``; an ``int`` in light mode.

    """
    if in_light_mode():
        return _prod_impl(xs)
    return _prod(xs)


def argname(in_types, names):
    """Gives readable names to the inputs in type-check messages.

    Args:
        in_types (TypeInfoTuple): The types passed to
            ``check_type_forward``.
        names (tuple of str): One name per input, e.g. ``('x', 'W')``.

    Raises:
        InvalidType: If the function got another number of inputs than
            there are names (also in light mode), as in Chainer, with the
            message ``Invalid number of arguments``.

    """
    if len(in_types) != len(names):
        raise InvalidType(
            '{} argument(s)'.format(len(names)),
            '{} argument(s)'.format(len(in_types)),
            'Invalid number of arguments',
        )
    if in_light_mode():
        return
    for in_type, name in zip(in_types, names):
        if isinstance(in_type, Variable):
            in_type.name = name


_argname = argname


def same_types(*arrays):
    """Tells whether the arrays all live on the same kind of device.

    Args:
        *arrays: NumPy or CuPy arrays.

    Returns:
        bool: ``True`` if all are NumPy arrays or all are CuPy arrays.

    """
    if all(isinstance(x, numpy.ndarray) for x in arrays):
        return True
    return all(type(x).__module__.split('.')[0] == 'cupy' for x in arrays)


def expect_broadcast_shapes(*shape_types, **kwargs):
    """Checks that shapes can be broadcast together.

    Args:
        *shape_types: Shapes (type-check expressions such as
            ``in_types[0].shape``, or plain tuples).
        allow_none (bool): Accept and skip the check when a shape is None.

    Raises:
        InvalidType: If the shapes do not broadcast.

    """
    allow_none = kwargs.pop('allow_none', False)
    if kwargs:
        raise TypeError('unexpected keyword arguments: %s' % sorted(kwargs))
    shapes = [eval(s) for s in shape_types]
    if allow_none and any(s is None for s in shapes):
        return
    try:
        numpy.broadcast_shapes(*shapes)
    except ValueError:
        lines = ['cannot broadcast inputs of the following shapes:']
        lines += ['{} = {}'.format(t, s) for t, s in zip(shape_types, shapes)]
        raise InvalidType('', '', msg='\n'.join(lines)) from None


# The compiled nodes' check_type_forward and FunctionNode's light-mode first
# try use this module from the core.
handover.provide(type_check=sys.modules[__name__])
