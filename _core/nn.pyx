"""Compiled ReLU and linear nodes, the most frequent layers of an MLP.

Like the arithmetic nodes, they compute on raw arrays both ways when no hook
needs them and no double backprop is requested; their Python-level
``backward`` builds differentiable grad nodes (defined next to the public
functions in ``chainerlite.functions``).
"""
cimport cython

from chainerlite._core.config cimport (
    ThreadState, debug_enabled, get_state, type_check_enabled)
from chainerlite._core.hooks cimport entries_with_callbacks
from chainerlite._core.node cimport (
    FunctionNode, Variable, VariableNode, apply_fast, as_variable_fast,
    ensure_array, helper, is_float_dtype)

import numpy

from chainerlite._core.basic_math import scalar_like

cdef object _ndarray = numpy.ndarray
cdef object _maximum = numpy.maximum
cdef tuple _RETAIN_0 = (0,)
cdef tuple _RETAIN_01 = (0, 1)


@cython.freelist(64)
cdef class ReLU(FunctionNode):
    """Rectified linear unit."""

    def check_type_forward(self, in_types):
        type_check = helper('chainerlite.utils.type_check')
        type_check._argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    cdef bint _quick_check(self, tuple in_data):
        return len(in_data) == 1 and is_float_dtype(
            getattr(in_data[0], 'dtype', None))

    def forward(self, inputs):
        x, = inputs
        self.retain_outputs(_RETAIN_0)
        return _relu(x),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        grad_node = helper('chainerlite.functions.activation.relu.ReLUGrad')
        return grad_node(y.array > 0).apply(grad_outputs)

    cdef object _backward_raw1(self, gy):
        cdef tuple retained = self._retained_output_data
        if retained is None or len(retained) != 1:
            raise RuntimeError('%s: the retained output needed by backward '
                               'is gone' % self.label)
        return gy * (retained[0] > 0)


cdef object _relu(x):
    if type(x) is _ndarray:
        # a 0-d zero of x's dtype: faster than a Python 0, and NumPy 1 keeps
        # a 0-d x's dtype with it
        return ensure_array(_maximum(x, scalar_like(0, x)))
    return helper('chainerlite.backend.get_array_module')(x).maximum(x, 0)


cpdef relu(x):
    """Applies ReLU through the compiled fast path when it can."""
    cdef Variable v = as_variable_fast(x)
    cdef ThreadState state = get_state()
    cdef ReLU node = ReLU.__new__(ReLU)
    node._fast = True
    if entries_with_callbacks(state) is not None or debug_enabled(state) or (
            type_check_enabled(state) and not is_float_dtype(v._node._dtype)):
        return node.apply((v,))[0]
    y = _relu(v._data)
    out = apply_fast(state, node, v, None, y)
    if node._inputs is not None:
        node._output_indexes_to_retain = _RETAIN_0
        node._retained_output_data = (out._data,)
        out._node._data = out._data
    return out


@cython.freelist(64)
cdef class LinearFunction(FunctionNode):
    """Linear function ``y = x W^T + b``."""

    def check_type_forward(self, in_types):
        type_check = helper('chainerlite.utils.type_check')
        n_in = in_types.size()
        type_check.expect(2 <= n_in, n_in <= 3)
        has_bias = type_check.eval(n_in) == 3
        type_check._argname(
            in_types, ('x', 'W', 'b') if has_bias else ('x', 'W'))
        x_type, w_type = in_types[0], in_types[1]
        type_check.expect(
            x_type.dtype.kind == 'f',
            w_type.dtype.kind == 'f',
            x_type.ndim == 2,
            w_type.ndim == 2,
            x_type.shape[1] == w_type.shape[1],
        )
        if has_bias:
            b_type = in_types[2]
            type_check.expect(
                b_type.dtype == x_type.dtype,
                b_type.ndim == 1,
                b_type.shape[0] == w_type.shape[0],
            )

    def forward(self, inputs):
        self.retain_inputs(_RETAIN_01)
        return _linear(inputs[0], inputs[1],
                       inputs[2] if len(inputs) == 3 else None),

    def backward(self, indexes, grad_outputs):
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        grad_data = helper(
            'chainerlite.functions.connection.linear.LinearGradData')
        grad_weight = helper(
            'chainerlite.functions.connection.linear.LinearGradWeight')
        grads = []
        if 0 in indexes:
            grads.append(grad_data().apply((W, gy))[0])
        if 1 in indexes:
            grads.append(grad_weight(W.dtype).apply((x, gy))[0])
        if 2 in indexes:
            grads.append(helper('chainerlite.functions.sum')(gy, axis=0))
        return tuple(grads)

    cdef tuple _backward_raw(self, tuple indexes, tuple gys):
        x = (<VariableNode>self._inputs[0])._data
        W = (<VariableNode>self._inputs[1])._data
        gy = gys[0]
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(_cast(gy.dot(W), x.dtype))
            elif i == 1:
                ret.append(_cast(gy.T.dot(x), W.dtype))
            else:
                ret.append(gy.sum(0))
        return tuple(ret)


cdef object _cast(y, dtype):
    return y if y.dtype is dtype else y.astype(dtype, copy=False)


cdef object _linear(x, W, b):
    y = _cast(x.dot(W.T), x.dtype)
    if b is not None:
        y += b
    return y


cdef bint _linear_types_ok(Variable x, Variable W, Variable b):
    cdef VariableNode xn = x._node, wn = W._node, bn
    if not (xn._ndim == 2 and wn._ndim == 2 and xn._dims[1] == wn._dims[1]
            and is_float_dtype(xn._dtype) and is_float_dtype(wn._dtype)):
        return False
    if b is None:
        return True
    bn = b._node
    return bn._ndim == 1 and bn._dims[0] == wn._dims[0] and (
        bn._dtype is xn._dtype or bn._dtype == xn._dtype)


cpdef bint is_2d(x):
    """Whether ``x`` (a Variable or an array) has two dimensions."""
    if isinstance(x, Variable):
        return (<Variable>x)._node._ndim == 2 and (<Variable>x)._data is not None
    return getattr(x, 'ndim', None) == 2


cpdef linear2d(x, W, b=None):
    """Applies the linear function to a 2-d ``x`` on the compiled path."""
    cdef Variable xv = as_variable_fast(x)
    cdef Variable wv = as_variable_fast(W)
    cdef Variable bv = None if b is None else as_variable_fast(b)
    cdef ThreadState state = get_state()
    cdef LinearFunction node = LinearFunction.__new__(LinearFunction)
    node._fast = True
    if entries_with_callbacks(state) is not None or debug_enabled(state) or (
            type_check_enabled(state) and not _linear_types_ok(xv, wv, bv)):
        inputs = (xv, wv) if bv is None else (xv, wv, bv)
        return node.apply(inputs)[0]
    y = _linear(xv._data, wv._data, None if bv is None else bv._data)
    out = apply_fast(state, node, xv, wv, y, bv)
    if node._inputs is not None:
        node._input_indexes_to_retain = _RETAIN_01
        xv._node._data = xv._data
        wv._node._data = wv._data
    return out
