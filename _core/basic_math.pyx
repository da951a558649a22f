"""Built-in arithmetic nodes behind the Variable operators.

Each node has a Python-level ``forward``/``backward`` (used with hooks and for
double backprop) and a compiled path used otherwise: the operator computes the
output array directly and the backward pass works on raw arrays.
"""
cimport cython

import numpy

from chainerlite._core.config cimport (
    ThreadState, debug_enabled, get_state, type_check_enabled)
from chainerlite._core.hooks cimport FWD_POST, FWD_PRE, entries_with_callbacks
from chainerlite._core.node cimport (
    FunctionNode, Variable, VariableNode, apply_fast, call_forward_hooks,
    ensure_array, helper, is_array, new_variable,
    set_operators)

cdef object _f16 = numpy.dtype(numpy.float16)
cdef object _f32 = numpy.dtype(numpy.float32)
cdef object _f64 = numpy.dtype(numpy.float64)
cdef object _generic = numpy.generic
cdef object _ndarray = numpy.ndarray
cdef tuple _RETAIN_1 = (0,)
cdef tuple _RETAIN_2 = (0, 1)


cdef inline bint _is_float(dt):
    return dt is _f32 or dt is _f64 or dt is _f16 or (
        dt is not None and dt.kind == 'f')


cdef object _value_str(value):
    if isinstance(value, Variable):
        value = (<Variable>value)._data
    if numpy.isscalar(value) and value < 0:
        return '(%s)' % value
    return str(value)


cdef object _scalar(x):
    # Python scalars stay weakly typed so the array's dtype is preserved.
    if isinstance(x, _generic):
        return x.item()
    return x


cdef inline bint _is_scalar(x):
    t = type(x)
    return t is float or t is int or t is bool or isinstance(x, _generic)


cdef object _sum_to_raw(x, tuple shape):
    if x.shape == shape:
        return x
    cdef Py_ssize_t lead = x.ndim - len(shape)
    lead_axes = tuple(range(lead))
    axes = tuple([i + lead for i, s in enumerate(shape)
                  if s == 1 and x.shape[i + lead] != 1])
    y = x.sum(lead_axes + axes, keepdims=True)
    if lead > 0:
        y = y.squeeze(lead_axes)
    return y


cdef object _sum_to_var(x, tuple shape):
    if x.shape == shape:
        return x
    return helper('chainerlite.functions.sum_to')(x, shape)


def _expect_same_dtype(type_check, in_types, bint float_only):
    type_check.expect(in_types.size() == 2)
    if float_only:
        type_check.expect(in_types[0].dtype.kind == 'f')
    type_check.expect(in_types[0].dtype == in_types[1].dtype)
    type_check.expect_broadcast_shapes(in_types[0].shape, in_types[1].shape)


cdef class _Binary(FunctionNode):
    """Element-wise binary node with broadcasting."""

    cdef bint _float_only(self):
        return False

    def check_type_forward(self, in_types):
        _expect_same_dtype(helper('chainerlite.utils.type_check'), in_types,
                           self._float_only())

    cdef object _compute(self, a, b):
        raise NotImplementedError

    cdef bint _quick_check(self, tuple in_data):
        # Same dtype (and a float one where required); shapes are left to
        # the full check, which runs when NumPy rejects them.
        if len(in_data) != 2:
            return False
        a, b = in_data
        da = getattr(a, 'dtype', None)
        return da is not None and da is getattr(b, 'dtype', None) and (
            not self._float_only() or _is_float(da)) and (
            a.shape == b.shape)

    def forward(self, inputs):
        a, b = inputs
        return ensure_array(self._compute(a, b)),

    cdef tuple _shapes(self):
        if self._inputs is None or len(self._inputs) != 2:
            raise RuntimeError('%s needs its two inputs for backward; it has '
                               '%s' % (self.label, self._inputs))
        return ((<VariableNode>self._inputs[0]).shape_tuple(),
                (<VariableNode>self._inputs[1]).shape_tuple())


cdef class _Unary(FunctionNode):
    """Element-wise node of one variable (and maybe a constant)."""

    def check_type_forward(self, in_types):
        helper('chainerlite.utils.type_check').expect(in_types.size() == 1)

    cdef object _compute(self, x):
        raise NotImplementedError

    cdef bint _quick_check(self, tuple in_data):
        return len(in_data) == 1

    def forward(self, inputs):
        return ensure_array(self._compute(inputs[0])),


cdef dict _const_cache = {}


cdef object _typed_const(value, x):
    """The scalar ``value`` as a 0-d array of ``x``'s float dtype.

    NumPy handles a Python scalar operand far more slowly than a 0-d array
    of the same dtype (weak-scalar promotion on every call); the result is
    the same, so float arrays get a cached read-only 0-d array instead.
    """
    if type(x) is not _ndarray:
        return value
    dt = x.dtype
    if not (dt is _f32 or dt is _f64 or dt is _f16):
        return value
    cache = _const_cache.get(dt)
    if cache is None:
        cache = _const_cache[dt] = {}
    c = cache.get(value)
    if c is None:
        if len(cache) >= 1024:
            cache.clear()
        c = numpy.array(value, dtype=dt)
        c.flags.writeable = False
        cache[value] = c
    return c


def scalar_like(value, x):
    """``value`` as a cached read-only 0-d array of ``x``'s float dtype.

    For raw-array code in library nodes: NumPy combines an array with a 0-d
    array of its own dtype faster than with a Python scalar (about 0.3 us
    per call on small arrays), with the same result. Other arrays (CuPy,
    integer dtypes) get ``value`` back unchanged.
    """
    return _typed_const(value, x)


cdef object _same_dtype(y, x):
    # NumPy 1 computes a 0-d float array with a Python scalar in float64
    # (the powers keep Python scalars: NumPy special-cases them).
    if type(x) is not _ndarray:
        return y
    dt = x.dtype
    if not _is_float(dt) or getattr(y, 'dtype', dt) is dt:
        return y
    return numpy.asarray(y, dt)


cdef class _Const(_Unary):
    """Element-wise node of a variable and a scalar constant ``value``."""

    cdef readonly object value
    cdef object _c                 # value as used with the input's dtype

    def __init__(self, value):
        self.value = value

    cdef object _const(self, x):
        if self._c is None:
            self._c = _typed_const(self.value, x)
        return self._c


# ----------------------------------------------------------------- add / sub

@cython.freelist(64)
cdef class Add(_Binary):
    """Element-wise sum of two variables (``x + y``)."""

    @property
    def label(self):
        return '_ + _'

    cdef object _compute(self, a, b):
        return a + b

    def backward(self, indexes, grad_outputs):
        gy = grad_outputs[0]
        s0, s1 = self._shapes()
        return tuple([_sum_to_var(gy, s0 if i == 0 else s1) for i in indexes])

    cdef tuple _backward_raw(self, tuple indexes, tuple gys):
        gy = gys[0]
        s0, s1 = self._shapes()
        return tuple([_sum_to_raw(gy, s0 if i == 0 else s1) for i in indexes])


@cython.freelist(64)
cdef class AddConstant(_Const):
    """Sum of a variable and a constant (``x + c``)."""

    @property
    def label(self):
        return '_ + %s' % _value_str(self.value)

    cdef object _compute(self, x):
        return x + self._const(x)

    def backward(self, indexes, grad_outputs):
        return grad_outputs[0],

    cdef object _backward_raw1(self, gy):
        return gy

    cdef tuple _backward_raw(self, tuple indexes, tuple gys):
        return gys[0],


@cython.freelist(64)
cdef class Sub(_Binary):
    """Element-wise difference of two variables (``x - y``)."""

    @property
    def label(self):
        return '_ - _'

    cdef object _compute(self, a, b):
        return a - b

    def backward(self, indexes, grad_outputs):
        gy = grad_outputs[0]
        s0, s1 = self._shapes()
        return tuple([_sum_to_var(gy, s0) if i == 0 else _sum_to_var(-gy, s1)
                      for i in indexes])

    cdef tuple _backward_raw(self, tuple indexes, tuple gys):
        gy = gys[0]
        s0, s1 = self._shapes()
        return tuple([_sum_to_raw(gy, s0) if i == 0 else _sum_to_raw(-gy, s1)
                      for i in indexes])


@cython.freelist(64)
cdef class SubFromConstant(_Const):
    """Constant minus a variable (``c - x``)."""

    @property
    def label(self):
        return '%s - _' % _value_str(self.value)

    cdef object _compute(self, x):
        return self._const(x) - x

    def backward(self, indexes, grad_outputs):
        return -grad_outputs[0],

    cdef object _backward_raw1(self, gy):
        return -gy

    cdef tuple _backward_raw(self, tuple indexes, tuple gys):
        return -gys[0],


# ----------------------------------------------------------------- mul / div

@cython.freelist(64)
cdef class Mul(_Binary):
    """Element-wise product of two variables (``x * y``)."""

    cdef bint _float_only(self):
        return True

    @property
    def label(self):
        return '_ * _'

    cdef object _compute(self, a, b):
        return a * b

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        return ensure_array(inputs[0] * inputs[1]),

    def backward(self, indexes, grad_outputs):
        x0, x1 = self.get_retained_inputs()
        gy = grad_outputs[0]
        return tuple([_sum_to_var(gy * x1, x0.shape) if i == 0
                      else _sum_to_var(gy * x0, x1.shape) for i in indexes])

    cdef tuple _backward_raw(self, tuple indexes, tuple gys):
        x0 = (<VariableNode>self._inputs[0])._data
        x1 = (<VariableNode>self._inputs[1])._data
        gy = gys[0]
        return tuple([_sum_to_raw(gy * x1, x0.shape) if i == 0
                      else _sum_to_raw(gy * x0, x1.shape) for i in indexes])


@cython.freelist(256)
cdef class MulConstant(_Const):
    """Product of a variable and a constant (``x * c``)."""

    @property
    def label(self):
        return '_ * %s' % _value_str(self.value)

    cdef object _compute(self, x):
        return x * self._const(x)

    def backward(self, indexes, grad_outputs):
        return grad_outputs[0] * self.value,

    cdef object _backward_raw1(self, gy):
        return gy * self._c

    cdef tuple _backward_raw(self, tuple indexes, tuple gys):
        return gys[0] * self._c,


@cython.freelist(64)
cdef class Div(_Binary):
    """Element-wise quotient of two variables (``x / y``)."""

    cdef bint _float_only(self):
        return True

    @property
    def label(self):
        return '_ / _'

    cdef object _compute(self, a, b):
        return a / b

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        return ensure_array(inputs[0] / inputs[1]),

    def backward(self, indexes, grad_outputs):
        x0, x1 = self.get_retained_inputs()
        gx0 = grad_outputs[0] / x1
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(_sum_to_var(gx0, x0.shape))
            else:
                ret.append(_sum_to_var(-gx0 * x0 / x1, x1.shape))
        return tuple(ret)

    cdef tuple _backward_raw(self, tuple indexes, tuple gys):
        x0 = (<VariableNode>self._inputs[0])._data
        x1 = (<VariableNode>self._inputs[1])._data
        gx0 = gys[0] / x1
        return tuple([_sum_to_raw(gx0, x0.shape) if i == 0
                      else _sum_to_raw(-gx0 * x0 / x1, x1.shape)
                      for i in indexes])


@cython.freelist(64)
cdef class DivFromConstant(_Const):
    """Constant divided by a variable (``c / x``)."""

    @property
    def label(self):
        return '%s / _' % _value_str(self.value)

    cdef object _compute(self, x):
        return self._const(x) / x

    def forward(self, inputs):
        self.retain_inputs((0,))
        return ensure_array(self._compute(inputs[0])),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return -self.value * grad_outputs[0] / (x * x),

    cdef tuple _backward_raw(self, tuple indexes, tuple gys):
        x = (<VariableNode>self._inputs[0])._data
        return -self._c * gys[0] / (x * x),


# ------------------------------------------------------------------- powers

cdef class PowVarVar(_Binary):
    """Element-wise power of two variables (``x ** y``)."""

    cdef bint _float_only(self):
        return True

    @property
    def label(self):
        return '_ ** _'

    cdef object _compute(self, a, b):
        return a ** b

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        self.retain_outputs((0,))
        return ensure_array(inputs[0] ** inputs[1]),

    def backward(self, indexes, grad_outputs):
        x0, x1 = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        gy = grad_outputs[0]
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(_sum_to_var(gy * x1 * x0 ** (x1 - 1), x0.shape))
            else:
                log = helper('chainerlite.functions.log')
                ret.append(_sum_to_var(gy * y * log(x0), x1.shape))
        return tuple(ret)


@cython.freelist(64)
cdef class PowVarConst(_Const):
    """Power of a variable by a constant (``x ** c``)."""

    @property
    def label(self):
        return '_ ** %s' % _value_str(self.value)

    cdef object _compute(self, x):
        return _same_dtype(x ** self.value, x)

    def forward(self, inputs):
        self.retain_inputs((0,))
        return ensure_array(self._compute(inputs[0])),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        c = self.value
        return grad_outputs[0] * (c * x ** (c - 1)),

    cdef tuple _backward_raw(self, tuple indexes, tuple gys):
        x = (<VariableNode>self._inputs[0])._data
        c = self.value
        gy = gys[0]
        return _same_dtype(ensure_array(gy * (c * x ** (c - 1))), gy),


cdef class PowConstVar(_Const):
    """Power of a constant by a variable (``c ** x``)."""

    @property
    def label(self):
        return '%s ** _' % _value_str(self.value)

    cdef object _compute(self, x):
        return _same_dtype(self.value ** x, x)

    def forward(self, inputs):
        self.retain_outputs((0,))
        return ensure_array(self._compute(inputs[0])),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return grad_outputs[0] * y * float(numpy.log(self.value)),


# -------------------------------------------------------------- neg / abs

@cython.freelist(64)
cdef class Neg(_Unary):
    """Negation of a variable (``-x``)."""

    @property
    def label(self):
        return '__neg__'

    cdef object _compute(self, x):
        return -x

    def backward(self, indexes, grad_outputs):
        return -grad_outputs[0],

    cdef object _backward_raw1(self, gy):
        return -gy

    cdef tuple _backward_raw(self, tuple indexes, tuple gys):
        return -gys[0],


cdef class Absolute(_Unary):
    """Element-wise absolute value (``abs(x)``)."""

    @property
    def label(self):
        return '|_|'

    def check_type_forward(self, in_types):
        type_check = helper('chainerlite.utils.type_check')
        type_check.expect(in_types.size() == 1, in_types[0].dtype.kind == 'f')

    cdef object _compute(self, x):
        return abs(x)

    cdef bint _quick_check(self, tuple in_data):
        return len(in_data) == 1 and _is_float(getattr(in_data[0], 'dtype', None))

    def forward(self, inputs):
        self.retain_inputs((0,))
        return ensure_array(abs(inputs[0])),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] * x.xp.sign(x.array),

    cdef tuple _backward_raw(self, tuple indexes, tuple gys):
        x = (<VariableNode>self._inputs[0])._data
        return gys[0] * _xp(x).sign(x),


cdef object _xp(x):
    return helper('chainerlite.backend.get_array_module')(x)


# ----------------------------------------------------------- dispatching

cdef int _retain(FunctionNode node, Variable x0, Variable x1) except -1:
    if node._inputs is None:
        return 0
    (<VariableNode>node._inputs[0])._data = x0._data
    node._input_indexes_to_retain = _RETAIN_1 if x1 is None else _RETAIN_2
    if x1 is not None:
        (<VariableNode>node._inputs[1])._data = x1._data
    return 0


cdef object _run_unary(_Unary node, Variable x, bint retain):
    cdef ThreadState state = get_state()
    cdef tuple entries = entries_with_callbacks(state)
    node._fast = True
    if debug_enabled(state):
        return node.apply((x,))[0]
    if entries is None:
        y = node._compute(x._data)
    else:
        in_data = (x._data,)
        call_forward_hooks(entries, FWD_PRE, node, in_data)
        y = ensure_array(node._compute(x._data))
        call_forward_hooks(entries, FWD_POST, node, in_data, (y,))
    out = apply_fast(state, node, x, None, y)
    if retain:
        _retain(node, x, None)
    return out


cdef object _run_binary(_Binary node, Variable a, Variable b, bint retain):
    cdef ThreadState state = get_state()
    cdef tuple entries = entries_with_callbacks(state)
    node._fast = True
    if debug_enabled(state):
        return node.apply((a, b))[0]
    in_data = (a._data, b._data)
    da = a._node._dtype
    if type_check_enabled(state) and (
            da is not b._node._dtype or (node._float_only() and not _is_float(da))):
        node._check_data_type_forward(in_data)
    if entries is not None:
        call_forward_hooks(entries, FWD_PRE, node, in_data)
    try:
        y = node._compute(a._data, b._data)
    except ValueError:
        if type_check_enabled(state):
            node._check_data_type_forward(in_data)
        raise
    if entries is not None:
        y = ensure_array(y)
        call_forward_hooks(entries, FWD_POST, node, in_data, (y,))
    out = apply_fast(state, node, a, b, y)
    if retain:
        _retain(node, a, b)
    return out


cdef Variable _as_input(x):
    if isinstance(x, Variable):
        return <Variable>x
    return new_variable(x, False)


cdef object _add(lhs, rhs):
    if isinstance(rhs, Variable) or is_array(rhs):
        return _run_binary(Add.__new__(Add), lhs, _as_input(rhs), False)
    if _is_scalar(rhs):
        return _run_unary(AddConstant(_scalar(rhs)), lhs, False)
    return NotImplemented


cdef object _sub(lhs, rhs):
    if isinstance(rhs, Variable) or is_array(rhs):
        return _run_binary(Sub.__new__(Sub), lhs, _as_input(rhs), False)
    if _is_scalar(rhs):
        return _run_unary(AddConstant(-_scalar(rhs)), lhs, False)
    return NotImplemented


cdef object _rsub(lhs, rhs):
    if is_array(rhs):
        return _run_binary(Sub.__new__(Sub), _as_input(rhs), lhs, False)
    if _is_scalar(rhs):
        return _run_unary(SubFromConstant(_scalar(rhs)), lhs, False)
    return NotImplemented


cdef object _mul(lhs, rhs):
    if type(rhs) is float:
        node = MulConstant.__new__(MulConstant)
        (<MulConstant>node).value = rhs
        return _run_unary(<_Unary>node, lhs, False)
    if isinstance(rhs, Variable) or is_array(rhs):
        return _run_binary(Mul.__new__(Mul), lhs, _as_input(rhs), True)
    if _is_scalar(rhs):
        node = MulConstant.__new__(MulConstant)
        (<MulConstant>node).value = _scalar(rhs)
        return _run_unary(<_Unary>node, lhs, False)
    return NotImplemented


cdef object _div(lhs, rhs):
    if isinstance(rhs, Variable) or is_array(rhs):
        return _run_binary(Div.__new__(Div), lhs, _as_input(rhs), True)
    if _is_scalar(rhs):
        return _run_unary(MulConstant(1.0 / _scalar(rhs)), lhs, False)
    return NotImplemented


cdef object _rdiv(lhs, rhs):
    if is_array(rhs):
        return _run_binary(Div.__new__(Div), _as_input(rhs), lhs, True)
    if _is_scalar(rhs):
        return _run_unary(DivFromConstant(_scalar(rhs)), lhs, True)
    return NotImplemented


cdef object _pow(lhs, rhs):
    if isinstance(rhs, Variable) or is_array(rhs):
        return PowVarVar().apply((lhs, _as_input(rhs)))[0]
    if _is_scalar(rhs):
        return _run_unary(PowVarConst(_scalar(rhs)), lhs, True)
    return NotImplemented


cdef object _rpow(lhs, rhs):
    if is_array(rhs):
        return PowVarVar().apply((_as_input(rhs), lhs))[0]
    if _is_scalar(rhs):
        return PowConstVar(_scalar(rhs)).apply((lhs,))[0]
    return NotImplemented


cdef object _neg(x):
    return _run_unary(Neg.__new__(Neg), x, False)


cdef object _abs(x):
    return Absolute().apply((x,))[0]


set_operators(_add, _sub, _rsub, _mul, _div, _rdiv, _pow, _rpow, _neg, _abs)
