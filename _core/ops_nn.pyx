"""Compiled ReLU, tanh and linear nodes, the most frequent layers of MLPs.

Built-in nodes (``node.BuiltinNode``) like the arithmetic ones, with their
grad nodes: each backward is written once (``grads``) and applies grad
nodes of this module, on Variables where a graph is wanted and on arrays in
the compute-only run (``ops_math.apply_grad``).
"""
from chainerlite._core.ops_math cimport (
    apply_function, apply_grad, grad_mul, grad_mul_const, retained_inputs,
    typed_const, unwatched)
from chainerlite._kernels.colsum cimport column_sums
from chainerlite._kernels.onednn cimport follow_config, product
from chainerlite._kernels.relu cimport relu_array, relu_grad_array
from chainerlite._kernels.vec_math cimport tanh_array
from chainerlite._core.node cimport (
    RETAIN_X0, RETAIN_X1, RETAIN_Y, BuiltinNode, Variable, apply_builtin,
    array_module, as_variable_fast, ensure_array)
from chainerlite._core.handover cimport (
    ACTIVATION_KERNELS, FUNCTIONS, provided)

import numpy

from chainerlite._core.config import config as _config
from chainerlite._core.facts import KindsCheck
from chainerlite._core.facts cimport Contract

# oneDNN's products (F.linear here, F.matmul in the package) follow use_ideep
follow_config(_config)

cdef object _ndarray = numpy.ndarray
cdef object _maximum = numpy.maximum
cdef object _tanh = numpy.tanh


cdef class _Activation(BuiltinNode):
    """Element-wise function of a float input; backward reads the output."""

    check_type_forward = KindsCheck(('x',), 'f')

    cdef int retained(self):
        return RETAIN_Y


cdef class ReLU(_Activation):
    """Rectified linear unit."""

    is_elementwise = True  # as Chainer marks it

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

    cdef tuple grads(self, tuple indexes, tuple gys):
        return _relu_grad(self.retained_y(), gys[0]),


cdef object _relu_grad(y, gy):
    if unwatched(gy):
        return _relu_grad_array(y, gy)
    cdef ReLUGrad node = ReLUGrad.__new__(ReLUGrad)
    node.y = y
    return apply_grad(node, gy)


cdef class ReLUGrad(BuiltinNode):
    """Gradient of ReLU: the output gradient where the ReLU output ``y``
    (an array) is positive, zero elsewhere; its own gradient is the same
    node's."""

    cdef readonly object y

    def __init__(self, y):
        self.y = y

    check_type_forward = KindsCheck(('gy',), 'f')

    @property
    def label(self):
        # Chainer's name of ReLU's gradient node (relu.ReLUGrad2), which
        # hooks and profilers key by
        return 'ReLUGrad2'

    cdef object compute(self, gy, unused1, unused2):
        return _relu_grad_array(self.y, gy)

    cdef tuple grads(self, tuple indexes, tuple gys):
        return _relu_grad(self.y, gys[0]),


cdef object _relu_grad_array(y, gy):
    # ReLUGrad's computation (an array)
    if type(y) is not _ndarray and array_module(y) is not numpy:
        return provided(ACTIVATION_KERNELS).relu_bwd(y, gy)
    gx = relu_grad_array(y, gy)
    if gx is not None:
        return gx
    return ensure_array(gy * (y > 0))


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

    cdef tuple grads(self, tuple indexes, tuple gys):
        gy = gys[0]
        y = self.get_retained_outputs()[0] if isinstance(gy, Variable) \
            else self.retained_y()
        return apply_grad(TanhGrad.__new__(TanhGrad), y, gy),


cdef class TanhGrad(BuiltinNode):
    """Gradient of tanh from its output: ``gy * (1 - y * y)`` of the
    inputs ``(y, gy)``."""

    check_type_forward = Contract(('y', 'gy'), kinds='f.', same=((1, 0),))

    cdef int retained(self):
        return RETAIN_X0 | RETAIN_X1

    cdef object compute(self, y, gy, unused):
        if type(y) is not _ndarray and array_module(y) is not numpy:
            return provided(ACTIVATION_KERNELS).tanh_bwd(y, gy)
        return gy * (typed_const(1, y) - y * y)

    cdef tuple grads(self, tuple indexes, tuple gys):
        g = gys[0]
        y, gy = retained_inputs(self, g)
        yg = grad_mul(y, g)
        ret = []
        for i in indexes:
            if i == 0:  # -2 gy y g
                ret.append(grad_mul(grad_mul_const(gy, -2.0), yg))
            else:
                ret.append(apply_grad(TanhGrad.__new__(TanhGrad), y, g))
        return tuple(ret)


cpdef tanh(x):
    """Applies tanh to a Variable or an array (see ``F.tanh``)."""
    return apply_builtin(Tanh.__new__(Tanh), as_variable_fast(x))


cdef class LinearFunction(BuiltinNode):
    """Linear function ``y = x W^T + b``."""

    check_type_forward = Contract(
        ('x', 'W', 'b'), optional=1, kinds='ff.', same=((2, 0),),
        ndims=((0, 2), (1, 2), (2, 1)), dims=((0, 1, 1, 1), (2, 0, 1, 0)))

    cdef int retained(self):
        return RETAIN_X0 | RETAIN_X1

    cdef object compute(self, x, W, b):
        y = product(x, W, b, False, True)  # oneDNN's, where it is used
        if y is not None:
            return y
        y = _cast(x.dot(W.T), x.dtype)
        if b is not None:
            y += b
        return y

    cdef tuple grads(self, tuple indexes, tuple gys):
        gy = gys[0]
        # asked once: unwatched, each grad node's computation runs without
        # the node (and the bias sum is NumPy's, see apply_function)
        cdef bint direct = unwatched(gy)
        if direct:
            x, W = self.input_data(0), self.input_data(1)
        else:
            x, W = retained_inputs(self, gy)
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(_grad_data_array(W, gy) if direct
                           else _grad_data(W, gy))
            elif i == 1:
                w_dtype = self.input_data(1).dtype
                ret.append(_grad_weight_array(x, gy, w_dtype) if direct
                           else _grad_weight(x, gy, w_dtype))
            else:
                ret.append(_bias_grad(gy) if direct else apply_function(
                    provided(FUNCTIONS).sum, gy, 0))
        return tuple(ret)


cdef object _bias_grad(gy):
    # gy.sum(0), by the threads where gy is large (colsum.pyx)
    y = column_sums(gy)
    return gy.sum(0) if y is None else y


cdef object _grad_data(W, gy):
    if unwatched(gy):
        return _grad_data_array(W, gy)
    return apply_grad(LinearGradData.__new__(LinearGradData), W, gy)


cdef object _grad_weight(x, gy, w_dtype):
    if unwatched(gy):
        return _grad_weight_array(x, gy, w_dtype)
    cdef LinearGradWeight node = LinearGradWeight.__new__(LinearGradWeight)
    node.w_dtype = w_dtype
    return apply_grad(node, x, gy)


cdef object _linear(x, W):
    return apply_grad(LinearFunction.__new__(LinearFunction), x, W)


cdef class _LinearGrad(BuiltinNode):
    """A gradient of the linear function: a product of two 2-d arrays,
    both retained for its own gradients."""

    check_type_forward = Contract(count=2, kinds='ff',
                                  ndims=((0, 2), (1, 2)))

    cdef int retained(self):
        return RETAIN_X0 | RETAIN_X1


cdef class LinearGradData(_LinearGrad):
    """Gradient of the linear function for its input: ``gy W`` of the
    inputs ``(W, gy)``, in the dtype of ``gy``."""

    cdef object compute(self, W, gy, unused):
        return _grad_data_array(W, gy)

    cdef tuple grads(self, tuple indexes, tuple gys):
        ggx = gys[0]
        W, gy = retained_inputs(self, ggx)
        return tuple([
            _grad_weight(ggx, gy, self.input_data(0).dtype) if i == 0
            else _linear(ggx, W) for i in indexes])


cdef class LinearGradWeight(_LinearGrad):
    """Gradient of the linear function for its weight: ``gy^T x`` of the
    inputs ``(x, gy)``, in the weight's dtype ``w_dtype``."""

    cdef readonly object w_dtype

    def __init__(self, w_dtype):
        self.w_dtype = numpy.dtype(w_dtype)

    cdef object compute(self, x, gy, unused):
        return _grad_weight_array(x, gy, self.w_dtype)

    cdef tuple grads(self, tuple indexes, tuple gys):
        ggW = gys[0]
        x, gy = retained_inputs(self, ggW)
        return tuple([_grad_data(ggW, gy) if i == 0
                      else _linear(x, ggW) for i in indexes])


cdef object _grad_data_array(W, gy):
    # LinearGradData's computation
    y = product(gy, W, None, False, False)
    return _cast(gy.dot(W), gy.dtype) if y is None else y


cdef object _grad_weight_array(x, gy, w_dtype):
    # LinearGradWeight's computation
    y = product(gy, x, None, True, False)
    return _cast(gy.T.dot(x), w_dtype) if y is None else _cast(y, w_dtype)


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
