"""Built-in arithmetic nodes behind the Variable operators.

Each node follows the built-in contract (``node.BuiltinNode``): it declares
what it retains, computes its output from arrays, and writes its backward
once (``grads``) as the nodes of this module applied to the output gradients
(``apply_grad``): Variables where a graph is wanted, arrays in the
compute-only run. The operators of ``Variable`` call the functions at the
end of this module (``node.pyx`` cimports them).
"""
cimport cython

import numpy

from chainerlite._core.node cimport (
    RETAIN_X0, RETAIN_X1, RETAIN_Y, BuiltinNode, Variable, VariableNode,
    apply_builtin, apply_nested, array_module, as_variable_fast, ensure_array,
    is_array, is_float_dtype, new_variable)
from chainerlite._core.config cimport (
    ThreadState, get_state, set_local_backprop)
from chainerlite._core.handover cimport FUNCTIONS, provided
from chainerlite._core.facts cimport Contract
from chainerlite._kernels.ewise cimport add_arrays, mul_arrays, scale_array

from cpython.object cimport Py_TYPE
from cpython.ref cimport PyObject, Py_REFCNT

cdef extern from "Python.h":
    ctypedef struct _TypeWeakrefs "PyTypeObject":
        Py_ssize_t tp_weaklistoffset

cdef object _f16 = numpy.dtype(numpy.float16)
cdef object _f32 = numpy.dtype(numpy.float32)
cdef object _f64 = numpy.dtype(numpy.float64)
cdef object _generic = numpy.generic
cdef object _ndarray = numpy.ndarray


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


cdef object sum_to(x, tuple shape):
    """``F.sum_to(x, shape)`` for a backward (see apply_grad)."""
    if x.shape == shape:
        return x
    return apply_function(provided(FUNCTIONS).sum_to, x, shape)


cdef object apply_function(f, x, arg):
    """``f(x, arg)``, a function of ``chainerlite.functions`` reducing an
    array, within a backward: on a Variable it is applied; on an array
    ``f``'s node is applied without a graph, with or without hooks (so
    that the same node methods run, and the hooks see them)."""
    cdef ThreadState state
    if isinstance(x, Variable):
        return f(x, arg)
    state = get_state()
    cdef int prev = state.enable_backprop
    set_local_backprop(state, 0)
    try:
        return (<Variable>f(new_variable(x, False), arg))._data
    finally:
        set_local_backprop(state, prev)


cdef object apply_grad(BuiltinNode op, a, b=None):
    """Applies the fresh node ``op`` to ``a`` (and ``b``) in a backward:
    to Variables it is applied as any node (a graph where
    backprop is on); to arrays it runs compute-only, and the hooks that
    watch forward calls see it (apply_nested)."""
    if isinstance(a, Variable):
        return apply_builtin(op, <Variable>a,
                             None if b is None else as_variable_fast(b))
    return apply_nested(op, (a,) if b is None else (a, b))


cdef object apply_grad1(BuiltinNode op, tuple gys):
    """apply_grad of ``op`` to ``gys[0]``, the gradient of a node's one
    output: an array's 1-tuple ``gys`` is itself the input tuple that
    the forward hooks see (no tuple of it is made again)."""
    a = gys[0]
    if isinstance(a, Variable) or len(gys) != 1:
        return apply_grad(op, a)
    return apply_nested(op, gys)


cdef tuple retained_inputs(BuiltinNode node, gy):
    """The retained inputs of ``node`` as ``gy`` is: Variables or arrays."""
    if isinstance(gy, Variable):
        return node.get_retained_inputs()
    return tuple([node.input_data(i) for i in node._input_indexes_to_retain])


cdef object grad_mul(a, b):
    return apply_grad(Mul.__new__(Mul), a, b)


cdef object grad_div(a, b):
    return apply_grad(Div.__new__(Div), a, b)


cdef object grad_neg(a):
    return apply_grad(Neg.__new__(Neg), a)


cdef object _grad_const(type cls, a, value):
    cdef _Const node = cls.__new__(cls)
    node.value = value
    return apply_grad(node, a)


cdef object grad_mul_const(a, value):
    return _grad_const(MulConstant, a, value)


cdef class _Binary(BuiltinNode):
    """Element-wise binary node with broadcasting."""

    check_type_forward = Contract(count=2, same=((0, 1),), broadcast=True)

    cdef tuple _shapes(self):
        if self._inputs is None or len(self._inputs) != 2:
            raise RuntimeError('%s needs its two inputs for backward; it has '
                               '%s' % (self.label, self._inputs))
        return ((<VariableNode>self._inputs[0]).shape_tuple(),
                (<VariableNode>self._inputs[1]).shape_tuple())


cdef class _Unary(BuiltinNode):
    """Element-wise node of one variable (and maybe a constant)."""

    check_type_forward = Contract(count=1)


cdef dict _const_cache = {}


cdef object typed_const(value, x):
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
    return typed_const(value, x)


cdef object _same_dtype(y, x):
    # NumPy 1 computes a 0-d float array with a Python scalar in float64
    # (the powers keep Python scalars: NumPy special-cases them).
    if type(x) is not _ndarray:
        return y
    dt = x.dtype
    if not is_float_dtype(dt) or getattr(y, 'dtype', dt) is dt:
        return y
    return numpy.asarray(y, dt)


# Made per op (x * 2.0) and per backward of one (its grad node), with a
# field more than FunctionNode: a freelist of its own.
@cython.freelist(256)
cdef class _Const(_Unary):
    """Element-wise node of a variable and a scalar constant ``value``."""

    cdef readonly object value
    cdef object _c                 # value as used with the input's dtype

    def __init__(self, value):
        self.value = value

    cdef object _const(self, x):
        if self._c is None:
            self._c = typed_const(self.value, x)
        return self._c


# ----------------------------------------------------------------- add / sub

cdef class Add(_Binary):
    """Element-wise sum of two variables (``x + y``)."""

    is_elementwise = True  # as Chainer marks it

    @property
    def label(self):
        return '_ + _'

    cdef object compute(self, a, b, unused):
        # large arrays of one shape: the sum by the threads (ewise.pyx)
        y = add_arrays(a, b)
        return a + b if y is None else y

    cdef tuple grads(self, tuple indexes, tuple gys):
        gy = gys[0]
        s0, s1 = self._shapes()
        return tuple([sum_to(gy, s0 if i == 0 else s1) for i in indexes])


cdef Add _ADD = Add.__new__(Add)


cdef object grad_add(a, b):
    """``a + b`` of two gradients that meet at one variable in a backward
    pass, by the Add node, as Chainer sums them: hooks that watch forward
    calls see an Add (apply_grad); unwatched, Add's computation runs
    without making a node."""
    if unwatched(a):
        y = _ADD.compute(a, b, None)
        return y if type(y) is _ndarray else ensure_array(y)
    return apply_grad(Add.__new__(Add), a, b)


cdef class AddConstant(_Const):
    """Sum of a variable and a constant (``x + c``)."""

    is_elementwise = True  # as Chainer marks it

    @property
    def label(self):
        return '_ + %s' % _value_str(self.value)

    cdef object compute(self, x, unused1, unused2):
        return x + self._const(x)

    cdef tuple grads(self, tuple indexes, tuple gys):
        return gys[0],


cdef class Sub(_Binary):
    """Element-wise difference of two variables (``x - y``)."""

    is_elementwise = True  # as Chainer marks it

    @property
    def label(self):
        return '_ - _'

    cdef object compute(self, a, b, unused):
        return a - b

    cdef tuple grads(self, tuple indexes, tuple gys):
        gy = gys[0]
        s0, s1 = self._shapes()
        return tuple([sum_to(gy, s0) if i == 0
                      else sum_to(grad_neg(gy), s1) for i in indexes])


cdef class SubFromConstant(_Const):
    """Constant minus a variable (``c - x``)."""

    is_elementwise = True  # as Chainer marks it

    @property
    def label(self):
        return '%s - _' % _value_str(self.value)

    cdef object compute(self, x, unused1, unused2):
        return self._const(x) - x

    cdef tuple grads(self, tuple indexes, tuple gys):
        return grad_neg(gys[0]),


# ----------------------------------------------------------------- mul / div

cdef class Mul(_Binary):
    """Element-wise product of two variables (``x * y``)."""

    is_elementwise = True  # as Chainer marks it

    check_type_forward = Contract(count=2, kinds='f.', same=((0, 1),),
                                  broadcast=True)

    @property
    def label(self):
        return '_ * _'

    cdef object compute(self, a, b, unused):
        # large arrays of one shape: the product by the threads (ewise.pyx)
        y = mul_arrays(a, b)
        return a * b if y is None else y

    cdef int retained(self):
        return RETAIN_X0 | RETAIN_X1

    cdef tuple grads(self, tuple indexes, tuple gys):
        gy = gys[0]
        x0, x1 = retained_inputs(self, gy)
        s0, s1 = self._shapes()
        return tuple([sum_to(grad_mul(gy, x1), s0) if i == 0
                      else sum_to(grad_mul(gy, x0), s1)
                      for i in indexes])


# The grad node of a constant node's backward that nothing kept after its
# nested call (no reference, weak reference, attribute, hook or graph):
# the next one of its class is that node, as fresh (one allocation less
# per op under a hook that watches forward calls).
cdef _Const _spare = None


cdef _Const _spare_const(type cls):
    """A node of ``cls`` (a _Const subclass) in the state of a new one."""
    global _spare
    cdef _Const node = _spare
    if node is not None and type(node) is cls:
        _spare = None
        return node
    return cls.__new__(cls)


cdef int _keep_spare(_Const node) except -1:
    # ``node``: held by its caller alone, and left as new by its call
    global _spare
    if (Py_REFCNT(node) == 1 and node._inputs is None and node._outs == NULL
            and node._out1 == NULL and node._n_out == 0 and node._rank == 0
            and node._input_indexes_to_retain is None
            and node._output_indexes_to_retain is None
            and node._retained_output_data is None
            and node._local_hooks is None and node._extra is None
            and node._unchained_by == 0 and not node._released
            and not _has_weakrefs(node)):
        _spare = node
    return 0


cdef bint _has_weakrefs(obj):
    cdef Py_ssize_t offset = (<_TypeWeakrefs*>Py_TYPE(obj)).tp_weaklistoffset
    return offset > 0 and (<PyObject**>(<char*><PyObject*>obj + offset))[0] != NULL


cdef class MulConstant(_Const):
    """Product of a variable and a constant (``x * c``)."""

    is_elementwise = True  # as Chainer marks it

    @property
    def label(self):
        return '_ * %s' % _value_str(self.value)

    cdef object compute(self, x, unused1, unused2):
        c = self._const(x)
        y = scale_array(x, c)  # a large array: by the threads (ewise.pyx)
        return x * c if y is None else y

    cdef tuple grads(self, tuple indexes, tuple gys):
        # the grad node is this node again (same constant): unwatched, this
        # node computes it
        if unwatched(gys[0]):
            gx = self.compute(gys[0], None, None)
            return (gx if type(gx) is _ndarray else ensure_array(gx)),
        cdef _Const node = _spare_const(MulConstant)
        node.value = self.value
        node._c = self._c
        gx = apply_grad1(node, gys)
        _keep_spare(node)
        return gx,


cdef class Div(_Binary):
    """Element-wise quotient of two variables (``x / y``)."""

    is_elementwise = True  # as Chainer marks it

    check_type_forward = Contract(count=2, kinds='f.', same=((0, 1),),
                                  broadcast=True)

    @property
    def label(self):
        return '_ / _'

    cdef object compute(self, a, b, unused):
        return a / b

    cdef int retained(self):
        return RETAIN_X0 | RETAIN_X1

    cdef tuple grads(self, tuple indexes, tuple gys):
        x0, x1 = retained_inputs(self, gys[0])
        s0, s1 = self._shapes()
        gx0 = grad_div(gys[0], x1)
        return tuple([
            sum_to(gx0, s0) if i == 0 else
            sum_to(grad_div(grad_mul(grad_neg(gx0), x0), x1), s1)
            for i in indexes])


cdef class DivFromConstant(_Const):
    """Constant divided by a variable (``c / x``)."""

    is_elementwise = True  # as Chainer marks it

    @property
    def label(self):
        return '%s / _' % _value_str(self.value)

    cdef object compute(self, x, unused1, unused2):
        return self._const(x) / x

    cdef int retained(self):
        return RETAIN_X0

    cdef tuple grads(self, tuple indexes, tuple gys):
        x, = retained_inputs(self, gys[0])
        return grad_div(grad_mul_const(gys[0], -self.value),
                        grad_mul(x, x)),


# ------------------------------------------------------------------- powers

cdef class PowVarVar(_Binary):
    """Element-wise power of two variables (``x ** y``)."""

    is_elementwise = True  # as Chainer marks it

    check_type_forward = Contract(count=2, kinds='f.', same=((0, 1),),
                                  broadcast=True)

    @property
    def label(self):
        return '_ ** _'

    cdef object compute(self, a, b, unused):
        return a ** b

    cdef int retained(self):
        return RETAIN_X0 | RETAIN_X1 | RETAIN_Y

    def backward(self, indexes, grad_outputs):
        x0, x1 = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        gy = grad_outputs[0]
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(sum_to(gy * x1 * x0 ** (x1 - 1), x0.shape))
            else:
                log = provided(FUNCTIONS).log
                ret.append(sum_to(gy * y * log(x0), x1.shape))
        return tuple(ret)


cdef class PowVarConst(_Const):
    """Power of a variable by a constant (``x ** c``)."""

    is_elementwise = True  # as Chainer marks it

    @property
    def label(self):
        return '_ ** %s' % _value_str(self.value)

    cdef object compute(self, x, unused1, unused2):
        return _same_dtype(x ** self.value, x)

    cdef int retained(self):
        return RETAIN_X0

    cdef tuple grads(self, tuple indexes, tuple gys):
        x, = retained_inputs(self, gys[0])
        c = self.value
        return grad_mul(gys[0], grad_mul_const(_grad_const(PowVarConst, x, c - 1), c)),


cdef class PowConstVar(_Const):
    """Power of a constant by a variable (``c ** x``)."""

    is_elementwise = True  # as Chainer marks it

    @property
    def label(self):
        return '%s ** _' % _value_str(self.value)

    cdef object compute(self, x, unused1, unused2):
        return _same_dtype(self.value ** x, x)

    cdef int retained(self):
        return RETAIN_Y

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        base = float(self.value)
        if base <= 0:
            # the gradient is y * log(base): Chainer raises here as well
            raise ValueError('%s ** x has no gradient: log of a base <= 0'
                             % _value_str(self.value))
        return grad_outputs[0] * y * float(numpy.log(base)),


# -------------------------------------------------------------- neg / abs

cdef class Neg(_Unary):
    """Negation of a variable (``-x``)."""

    is_elementwise = True  # as Chainer marks it

    @property
    def label(self):
        return '__neg__'

    cdef object compute(self, x, unused1, unused2):
        return -x

    cdef tuple grads(self, tuple indexes, tuple gys):
        return grad_neg(gys[0]),


cdef class Absolute(_Unary):
    """Element-wise absolute value (``abs(x)``)."""

    is_elementwise = True  # as Chainer marks it

    @property
    def label(self):
        return '|_|'

    check_type_forward = Contract(count=1, kinds='f')

    cdef object compute(self, x, unused1, unused2):
        return abs(x)

    cdef int retained(self):
        return RETAIN_X0

    cdef tuple grads(self, tuple indexes, tuple gys):
        cdef AbsoluteGrad node = AbsoluteGrad.__new__(AbsoluteGrad)
        node.x = self.input_data(0)
        return apply_grad1(node, gys),


cdef class AbsoluteGrad(_Unary):
    """Gradient of ``abs``: the output gradient times the sign of the input
    ``x`` (an array); its own gradient is the same node's."""

    cdef readonly object x

    def __init__(self, x):
        self.x = x

    cdef object compute(self, gy, unused1, unused2):
        return gy * array_module(self.x).sign(self.x)

    cdef tuple grads(self, tuple indexes, tuple gys):
        cdef AbsoluteGrad node = AbsoluteGrad.__new__(AbsoluteGrad)
        node.x = self.x
        return apply_grad1(node, gys),


# ------------------------------------------- the operators of Variable

cdef Variable _as_input(x, like):
    # An array operand takes the dtype of the Variable it meets, as in
    # Chainer (``v + numpy.ones(3)`` keeps a float32 ``v`` float32).
    if isinstance(x, Variable):
        return <Variable>x
    data = (<Variable>like)._data if isinstance(like, Variable) else None
    if data is not None and x.dtype != data.dtype:
        x = x.astype(data.dtype)
    return new_variable(x, False)


cdef object _with_const(_Const node, value, lhs):
    node.value = value
    return apply_builtin(node, lhs)


cdef object add(lhs, rhs):
    if isinstance(rhs, Variable) or is_array(rhs):
        return apply_builtin(Add.__new__(Add), lhs, _as_input(rhs, lhs))
    if _is_scalar(rhs):
        return _with_const(AddConstant.__new__(AddConstant), _scalar(rhs), lhs)
    return NotImplemented


cdef object sub(lhs, rhs):
    if isinstance(rhs, Variable) or is_array(rhs):
        return apply_builtin(Sub.__new__(Sub), lhs, _as_input(rhs, lhs))
    if _is_scalar(rhs):
        return _with_const(AddConstant.__new__(AddConstant), -_scalar(rhs),
                           lhs)
    return NotImplemented


cdef object rsub(lhs, rhs):
    if is_array(rhs):
        return apply_builtin(Sub.__new__(Sub), _as_input(rhs, lhs), lhs)
    if _is_scalar(rhs):
        return _with_const(SubFromConstant.__new__(SubFromConstant),
                           _scalar(rhs), lhs)
    return NotImplemented


cdef object mul(lhs, rhs):
    if type(rhs) is float:
        return _with_const(MulConstant.__new__(MulConstant), rhs, lhs)
    if isinstance(rhs, Variable) or is_array(rhs):
        return apply_builtin(Mul.__new__(Mul), lhs, _as_input(rhs, lhs))
    if _is_scalar(rhs):
        return _with_const(MulConstant.__new__(MulConstant), _scalar(rhs),
                           lhs)
    return NotImplemented


cdef object div(lhs, rhs):
    if isinstance(rhs, Variable) or is_array(rhs):
        return apply_builtin(Div.__new__(Div), lhs, _as_input(rhs, lhs))
    if _is_scalar(rhs):
        return _with_const(MulConstant.__new__(MulConstant),
                           1.0 / _scalar(rhs), lhs)
    return NotImplemented


cdef object rdiv(lhs, rhs):
    if is_array(rhs):
        return apply_builtin(Div.__new__(Div), _as_input(rhs, lhs), lhs)
    if _is_scalar(rhs):
        return _with_const(DivFromConstant.__new__(DivFromConstant),
                           _scalar(rhs), lhs)
    return NotImplemented


cdef object pow_(lhs, rhs):
    if isinstance(rhs, Variable) or is_array(rhs):
        return apply_builtin(PowVarVar.__new__(PowVarVar), lhs, _as_input(rhs, lhs))
    if _is_scalar(rhs):
        return _with_const(PowVarConst.__new__(PowVarConst), _scalar(rhs),
                           lhs)
    return NotImplemented


cdef object rpow(lhs, rhs):
    if is_array(rhs):
        return apply_builtin(PowVarVar.__new__(PowVarVar), _as_input(rhs, lhs), lhs)
    if _is_scalar(rhs):
        return _with_const(PowConstVar.__new__(PowConstVar), _scalar(rhs),
                           lhs)
    return NotImplemented


cdef object neg(x):
    return apply_builtin(Neg.__new__(Neg), x)


cdef object abs_(x):
    return apply_builtin(Absolute.__new__(Absolute), x)
