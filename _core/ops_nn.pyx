"""Compiled ReLU, tanh and linear nodes, the most frequent layers of MLPs.

Built-in nodes (``node.BuiltinNode``) like the arithmetic ones: they compute
on raw arrays both ways when no hook needs them and no double backprop is
requested; their Python-level ``backward`` builds differentiable nodes
(the grad nodes are defined next to the public functions in
``chainerlite.functions``).
"""
from chainerlite._core.ops_math cimport typed_const
from chainerlite._core.relu_kernels cimport relu_array, relu_grad_array
from chainerlite._core.vec_math cimport tanh_array
from chainerlite._core.node cimport (
    RETAIN_X0, RETAIN_X1, RETAIN_Y, BuiltinNode, Variable, apply_builtin,
    array_module, as_variable_fast, is_float_dtype)
from chainerlite._core.handover cimport (
    ACTIVATION_KERNELS, FUNCTIONS, LINEAR_GRAD_DATA, LINEAR_GRAD_WEIGHT,
    RELU_GRAD, TYPE_CHECK, provided)

import numpy

cdef object _ndarray = numpy.ndarray
cdef object _maximum = numpy.maximum
cdef object _tanh = numpy.tanh

cdef extern from "numpy/ndarraytypes.h":
    ctypedef struct PyArrayObject:
        pass
    int PyArray_NDIM(PyArrayObject* arr)
    Py_ssize_t* PyArray_DIMS(PyArrayObject* arr)


cdef class _Activation(BuiltinNode):
    """Element-wise function of a float input; backward reads the output."""

    def check_type_forward(self, in_types):
        type_check = provided(TYPE_CHECK)
        type_check._argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    cdef bint quick_check(self, int n, x0, x1, x2):
        return n == 1 and is_float_dtype(getattr(x0, 'dtype', None))

    cdef int retained(self):
        return RETAIN_Y


cdef class ReLU(_Activation):
    """Rectified linear unit."""

    cdef object compute(self, x, unused1, unused2):
        if type(x) is _ndarray:
            y = relu_array(x)
            if y is not None:
                return y
            # a 0-d zero of x's dtype: faster than a Python 0, and NumPy 1
            # keeps a 0-d x's dtype with it
            return _maximum(x, typed_const(0, x))
        xp = array_module(x)
        if xp is not numpy:
            return provided(ACTIVATION_KERNELS).relu_fwd(x)
        return xp.maximum(x, 0)

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return provided(RELU_GRAD)(y.array > 0).apply(grad_outputs)

    cpdef object _backward_arrays(self, tuple indexes, tuple grad_outputs):
        y = self.retained_y()
        if type(y) is not _ndarray and array_module(y) is not numpy:
            return provided(ACTIVATION_KERNELS).relu_bwd(y, grad_outputs[0]),
        gx = relu_grad_array(y, grad_outputs[0])
        if gx is not None:
            return gx,
        return grad_outputs[0] * (y > 0),


cpdef relu(x):
    """Applies ReLU to a Variable or an array (see ``F.relu``)."""
    return apply_builtin(ReLU.__new__(ReLU), as_variable_fast(x))


cdef class Tanh(_Activation):
    """Elementwise hyperbolic tangent."""

    cdef object compute(self, x, unused1, unused2):
        if type(x) is _ndarray:
            y = tanh_array(x)
            return _tanh(x) if y is None else y
        xp = array_module(x)
        if xp is not numpy:
            return provided(ACTIVATION_KERNELS).tanh_fwd(x)
        return xp.tanh(x)

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return grad_outputs[0] * (1 - y * y),

    cpdef object _backward_arrays(self, tuple indexes, tuple grad_outputs):
        y = self.retained_y()
        if type(y) is not _ndarray and array_module(y) is not numpy:
            return provided(ACTIVATION_KERNELS).tanh_bwd(y, grad_outputs[0]),
        return grad_outputs[0] * (typed_const(1, y) - y * y),


cpdef tanh(x):
    """Applies tanh to a Variable or an array (see ``F.tanh``)."""
    return apply_builtin(Tanh.__new__(Tanh), as_variable_fast(x))


cdef class LinearFunction(BuiltinNode):
    """Linear function ``y = x W^T + b``."""

    def check_type_forward(self, in_types):
        type_check = provided(TYPE_CHECK)
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

    cdef bint quick_check(self, int n, x, W, b):
        if n != 2 and n != 3:
            return False
        if type(x) is not _ndarray or type(W) is not _ndarray:
            return False
        if not (PyArray_NDIM(<PyArrayObject*>x) == 2
                and PyArray_NDIM(<PyArrayObject*>W) == 2
                and PyArray_DIMS(<PyArrayObject*>x)[1]
                == PyArray_DIMS(<PyArrayObject*>W)[1]
                and is_float_dtype(x.dtype) and is_float_dtype(W.dtype)):
            return False
        if n == 2:
            return True
        return type(b) is _ndarray and PyArray_NDIM(<PyArrayObject*>b) == 1 \
            and PyArray_DIMS(<PyArrayObject*>b)[0] \
            == PyArray_DIMS(<PyArrayObject*>W)[0] and b.dtype == x.dtype

    cdef int retained(self):
        return RETAIN_X0 | RETAIN_X1

    cdef object compute(self, x, W, b):
        y = _cast(x.dot(W.T), x.dtype)
        if b is not None:
            y += b
        return y

    def backward(self, indexes, grad_outputs):
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        grads = []
        if 0 in indexes:
            grads.append(provided(LINEAR_GRAD_DATA)().apply((W, gy))[0])
        if 1 in indexes:
            grads.append(
                provided(LINEAR_GRAD_WEIGHT)(W.dtype).apply((x, gy))[0])
        if 2 in indexes:
            grads.append(provided(FUNCTIONS).sum(gy, axis=0))
        return tuple(grads)

    cpdef object _backward_arrays(self, tuple indexes, tuple grad_outputs):
        x = self.input_data(0)
        W = self.input_data(1)
        gy = grad_outputs[0]
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


cpdef bint is_2d(x):
    """Whether ``x`` (a Variable or an array) has two dimensions."""
    if isinstance(x, Variable):
        return (<Variable>x)._node._ndim == 2 and (<Variable>x)._data is not None
    return getattr(x, 'ndim', None) == 2


cpdef linear2d(x, W, b=None):
    """Applies the linear function to a 2-d ``x`` on the compiled path."""
    return apply_builtin(LinearFunction.__new__(LinearFunction),
                         as_variable_fast(x), as_variable_fast(W),
                         None if b is None else as_variable_fast(b))
