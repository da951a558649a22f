"""Compiled sum, broadcast_to and reshape nodes.

Every loss is an F.sum, whose backward applies Reshape (with an axis) and
BroadcastTo, as in Chainer; written in Python their type checks and
NumPy's broadcast view cost more than the sum itself. Built-in nodes
(``node.BuiltinNode``) with their checks and views in C, and each backward
written once (``grads``) as grad nodes applied to Variables or arrays
alike. ``chainerlite.functions`` names these classes and functions.
"""
cimport cython
cimport numpy as cnp
from cpython.ref cimport Py_INCREF, PyObject, PyTypeObject

from chainerlite._core.config cimport (
    ThreadState, get_state, set_local_backprop)
from chainerlite._core.handover cimport FUNCTIONS, provided
from chainerlite._core.node cimport (
    BuiltinNode, Variable, apply_builtin, array_module, as_variable_fast,
    ensure_array, new_variable)
from chainerlite._core.ops_math cimport apply_grad
from chainerlite._core.facts cimport Contract
from chainerlite._kernels.colsum cimport column_sums
from chainerlite._kernels.copies cimport reshaped_copy

import numpy

cnp.import_array()

cdef extern from "numpy/arrayobject.h":
    PyTypeObject PyArray_Type
    # steals a reference to descr
    object PyArray_NewFromDescr(PyTypeObject* subtype, PyObject* descr,
                                int nd, cnp.npy_intp* dims,
                                cnp.npy_intp* strides, void* data, int flags,
                                PyObject* obj)

DEF MAX_DIMS = 32   # NPY_MAXDIMS of NumPy 1 (NumPy 2 allows more)

cdef object _ndarray = numpy.ndarray


cpdef object broadcast_view(x, tuple shape):
    """A read-only view of ``x`` broadcast to ``shape``, as
    ``xp.broadcast_to`` gives. A C-contiguous, non-empty NumPy array of
    plain numbers is viewed directly (stride zero on the axes it lacks or
    has of size one); any other array, or a shape it does not broadcast
    to, goes to ``xp.broadcast_to``."""
    cdef cnp.npy_intp dims[MAX_DIMS]
    cdef cnp.npy_intp strides[MAX_DIMS]
    cdef Py_ssize_t i, n, d, nd = len(shape), lead
    cdef cnp.ndarray a
    cdef int t
    if type(x) is not _ndarray or nd > MAX_DIMS:
        return array_module(x).broadcast_to(x, shape)
    a = <cnp.ndarray>x
    t = cnp.PyArray_TYPE(a)
    lead = nd - cnp.PyArray_NDIM(a)
    if (lead < 0 or cnp.PyArray_SIZE(a) == 0
            or not (t <= cnp.NPY_CLONGDOUBLE or t == cnp.NPY_FLOAT16)
            or not cnp.PyArray_IS_C_CONTIGUOUS(a)):
        return numpy.broadcast_to(x, shape)
    for i in range(nd):
        d = _dim(shape[i])
        if d < 0:  # negative, or no Py_ssize_t
            return numpy.broadcast_to(x, shape)  # its error
        dims[i] = d
        strides[i] = 0
        if i >= lead:
            n = cnp.PyArray_DIMS(a)[i - lead]
            if n != 1:
                if n != d:
                    return numpy.broadcast_to(x, shape)  # its error
                strides[i] = cnp.PyArray_STRIDES(a)[i - lead]
    descr = <PyObject*>cnp.PyArray_DESCR(a)
    Py_INCREF(<object>descr)
    view = PyArray_NewFromDescr(&PyArray_Type, descr, <int>nd, dims, strides,
                                cnp.PyArray_DATA(a), 0, NULL)
    cnp.set_array_base(<cnp.ndarray>view, x)
    return view


cdef Py_ssize_t _dim(d):
    # a size as a Py_ssize_t; -1 for one that is none
    try:
        return d
    except (OverflowError, TypeError):
        return -1


cdef object _apply_to(f, x, arg):
    """``f(x, arg)``, a function of ``chainerlite.functions``, in a
    backward: applied to a Variable as it is, and to an array (a pass
    without double backprop) as to a Variable with backprop off, so that
    the same node runs with or without hooks."""
    cdef ThreadState state
    cdef int prev
    if isinstance(x, Variable):
        return f(x, arg)
    state = get_state()
    prev = state.enable_backprop
    set_local_backprop(state, 0)
    try:
        return (<Variable>f(new_variable(x, False), arg))._data
    finally:
        set_local_backprop(state, prev)


# Made per F.sum (every loss) with fields: freelists of their own.
@cython.freelist(16)
cdef class BroadcastTo(BuiltinNode):
    """Broadcasting of an array to a given shape."""

    cdef readonly tuple _shape
    cdef readonly object _in_shape

    def __init__(self, shape):
        self._shape = tuple(shape)

    check_type_forward = Contract(('x',), to_shape='_shape')

    cdef object compute(self, x, unused1, unused2):
        self._in_shape = x.shape
        return broadcast_view(x, self._shape)

    cdef tuple grads(self, tuple indexes, tuple gys):
        return _apply_to(provided(FUNCTIONS).sum_to, gys[0], self._in_shape),


class ReshapeError(ValueError, AssertionError):
    """A shape with more than one unknown (negative) length: a ValueError,
    and the AssertionError of Chainer 7.8.1's check."""


@cython.freelist(16)
cdef class Reshape(BuiltinNode):
    """Reshaping of an array."""

    cdef readonly tuple shape
    cdef readonly object _in_shape

    def __init__(self, shape):
        self.shape = tuple(shape)
        # Any negative length is the unknown one (NumPy 1's rule, which
        # Chainer 7.8.1 follows and asserts there is one at most)
        cdef int unknown = 0
        cdef bint other = False
        for d in self.shape:
            if d < 0:
                unknown += 1
                other = other or d != -1
        if unknown > 1:
            raise ReshapeError(
                'reshape: shapes can only specify one unknown dimension, '
                'got {}'.format(self.shape))
        if other:
            self.shape = tuple([-1 if d < 0 else d for d in self.shape])

    check_type_forward = Contract(('x',), size='shape')

    cdef object compute(self, x, unused1, unused2):
        self._in_shape = x.shape
        # a large copy (not a view): by the threads (copies.pyx)
        y = reshaped_copy(x, self.shape)
        return x.reshape(self.shape) if y is None else y

    cdef tuple grads(self, tuple indexes, tuple gys):
        gy = gys[0]
        if gy.shape == self._in_shape:
            return gy,
        cdef Reshape node = Reshape.__new__(Reshape)
        node.shape = self._in_shape
        return apply_grad(node, gy),


cpdef broadcast_to(x, shape):
    """Applies BroadcastTo to a Variable or an array (see F.broadcast_to)."""
    cdef BroadcastTo node = BroadcastTo.__new__(BroadcastTo)
    node._shape = tuple(shape)
    return apply_builtin(node, as_variable_fast(x))


cpdef reshape(x, shape):
    """Applies Reshape to a Variable or an array (see F.reshape)."""
    return apply_builtin(Reshape(shape), as_variable_fast(x))


def normalize_axis(axis):
    """``axis`` of F.sum as None or a tuple of ints (TypeError, or
    ValueError for a repeated axis, otherwise)."""
    if axis is None:
        return None
    if isinstance(axis, int):
        return (axis,)
    if isinstance(axis, tuple) and all([isinstance(a, int) for a in axis]):
        if len(set(axis)) != len(axis):
            raise ValueError('duplicate value in axis: ({})'.format(
                ', '.join(map(str, axis))))
        return axis
    raise TypeError('None, int or tuple of int are required')


@cython.freelist(16)
cdef class Sum(BuiltinNode):
    """Sum of array elements over given axes."""

    cdef readonly object axis
    cdef readonly object keepdims
    cdef readonly object _in_shape

    def __init__(self, axis=None, keepdims=False):
        self.axis = normalize_axis(axis)
        self.keepdims = keepdims

    check_type_forward = Contract(('x',), kinds='f', axes='axis')

    cdef object compute(self, x, unused1, unused2):
        self._in_shape = x.shape
        # over the first axis of a large 2-d array: by the threads
        # (colsum.pyx)
        y = (column_sums(x) if not self.keepdims and self.axis == (0,)
             else None)
        if y is not None:
            return y
        y = ensure_array(x.sum(axis=self.axis, keepdims=self.keepdims))
        if y.dtype != x.dtype:
            y = y.astype(x.dtype)
        return y

    cdef tuple grads(self, tuple indexes, tuple gys):
        # Chainer's: the gradient, its summed axes put back with size one,
        # broadcast to the input's shape
        gy = gys[0]
        cdef tuple in_shape = self._in_shape
        cdef Py_ssize_t ndim = len(in_shape)
        cdef list shape
        cdef Reshape node
        if self.axis is not None and not self.keepdims:
            shape = list(gy.shape)
            for a in sorted([a % ndim for a in self.axis]):
                shape.insert(a, 1)
            if tuple(shape) != gy.shape:
                node = Reshape.__new__(Reshape)
                node.shape = tuple(shape)
                gy = apply_grad(node, gy)
        if gy.shape == in_shape:
            return gy,
        cdef BroadcastTo broadcast = BroadcastTo.__new__(BroadcastTo)
        broadcast._shape = in_shape
        return apply_grad(broadcast, gy),


cpdef sum(x, axis=None, keepdims=False):
    """Applies Sum to a Variable or an array (see F.sum)."""
    return apply_builtin(Sum(axis, keepdims), as_variable_fast(x))
