"""Graph objects: VariableNode, Variable and FunctionNode, plus ``apply``.

A FunctionNode holds its inputs (VariableNodes) strongly and its outputs as
borrowed pointers; each output VariableNode clears its pointer when it dies,
which gives weak-reference semantics without a weakref object per output.
A VariableNode points back the same way to the Variable that owns it (whose
node it is): the Variable clears the pointer when it dies or takes another
node, so the pointer is never left dangling.
"""
cimport cython
from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.object cimport PyObject_GenericGetDict, PyObject_GenericSetAttr
from cpython.pythread cimport PyThread_get_thread_ident
from cpython.ref cimport Py_INCREF, Py_REFCNT, PyObject
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM

import weakref

import numpy

from chainerlite._core.config cimport (
    ThreadState, backprop_enabled, debug_enabled, get_state,
    type_check_enabled)
from chainerlite._core.facts cimport (
    ACCUMULATES, CALL_REPLACED, COMPILED_GRADS, FORWARD, FWD_POST_OUT,
    OWN_ATTR_HOOKS, OWN_TYPE_CHECK, ClassFacts, class_facts, kinds_match,
    own_attr_hooks, register_nodes)
from chainerlite._core.hooks cimport (
    HookRegistry, active_entries, any_mask, dispatch, forward_entries)
from chainerlite._core cimport ops_math
from chainerlite._core.backprop cimport backprop
from chainerlite._core.handover cimport (
    BACKEND, DEBUG_SUMMARY, FLOORDIV, FUNCTION_HOOK, FUNCTIONS, RFLOORDIV,
    TYPE_CHECK, provided)

cdef extern from "numpy/ndarraytypes.h":
    ctypedef struct PyArrayObject:
        pass
    int PyArray_NDIM(PyArrayObject* arr)
    Py_ssize_t* PyArray_DIMS(PyArrayObject* arr)
    PyObject* PyArray_DESCR(PyArrayObject* arr)

from libc.string cimport memcmp, memcpy

DEF MAX_DIMS = 8

cdef object _ndarray = numpy.ndarray
cdef object _generic = numpy.generic
cdef object _asarray = numpy.asarray
cdef object _cupy = None             # set by backends.cuda when CuPy loads
cdef object _cupy_ndarray = None


def _set_cupy(cupy):
    """Lets the core recognise CuPy arrays (called once CuPy is imported)."""
    global _cupy, _cupy_ndarray
    _cupy = cupy
    _cupy_ndarray = cupy.ndarray


cdef bint is_array(object x):
    t = type(x)
    return t is _ndarray or (_cupy_ndarray is not None and t is _cupy_ndarray) \
        or isinstance(x, _ndarray) or (
            _cupy_ndarray is not None and isinstance(x, _cupy_ndarray))


cdef object _matmul_operand(Variable v, other):
    # an array operand of @ takes the variable's dtype, as those of the
    # arithmetic operators do (Chainer 7.8.1 casts them all)
    if is_array(other) and v._data is not None and other.dtype != v._data.dtype:
        return other.astype(v._data.dtype)
    return other


cdef object ensure_array(object y):
    if type(y) is _ndarray:
        return y
    if isinstance(y, _generic):
        return _asarray(y)
    return y


cdef object array_module(x):
    """``numpy`` or ``cupy``: the module of the array ``x``."""
    if _cupy_ndarray is not None and isinstance(x, _cupy_ndarray):
        return _cupy
    return numpy


def get_array_module(*args):
    """The array module, ``numpy`` or ``cupy``, that suits the arguments.

    Args:
        *args: Arrays, Variables (their arrays count) or other values.

    Returns:
        module: ``cupy`` when an argument is (or holds) a CuPy array, else
        ``numpy``.
    """
    if _cupy is None:
        return numpy
    for a in args:
        if isinstance(a, Variable):
            a = (<Variable>a)._data
        if a is None or type(a) is _ndarray or isinstance(
                a, (int, float, complex, _generic)):
            continue
        if isinstance(a, _cupy_ndarray):
            return _cupy
        if _cupy.get_array_module(a) is _cupy:   # e.g. a CuPy sparse matrix
            return _cupy
    return numpy


def force_array(x, dtype=None):
    """Makes sure that ``x`` is an array, not a NumPy scalar.

    NumPy operations on 0-dimensional arrays return NumPy scalars (for
    example ``numpy.float32``) instead of arrays. Functions must return
    arrays, so their results go through this helper. CuPy arrays, which are
    never scalars, are returned as they are (cast when ``dtype`` is given).

    Args:
        x (numpy.ndarray, cupy.ndarray or scalar): The value to convert.
        dtype: If not ``None``, the result is cast to this dtype.

    Returns:
        numpy.ndarray or cupy.ndarray: ``x`` as an array.
    """
    if dtype is None and type(x) is _ndarray:
        return x
    if isinstance(x, _generic) or numpy.isscalar(x):
        return _asarray(x) if dtype is None else _asarray(x, dtype=dtype)
    if dtype is None:
        return x
    return x.astype(dtype, copy=False)


cdef str _type_name(x):
    t = type(x)
    return '%s.%s' % (t.__module__, t.__name__)


# ---------------------------------------------------------------- VariableNode

cdef _check_addgrad(src, dst):
    # Chainer 7.8.1 adds the gradients with its `+` function, whose type
    # check refuses other dtypes and shapes that do not broadcast (the
    # InvalidType is also the TypeError or ValueError NumPy would raise)
    tc = provided(TYPE_CHECK)
    if src.dtype != dst.dtype:
        raise tc.InvalidTypeTypeError(
            'src.dtype == dst.dtype', '%s != %s' % (src.dtype, dst.dtype),
            'Variable.addgrad: the gradient added is of dtype %s, this '
            "variable's of %s" % (src.dtype, dst.dtype))
    try:
        numpy.broadcast_shapes(src.shape, dst.shape)
    except ValueError:
        raise tc.InvalidTypeValueError(
            'src.shape and dst.shape broadcast',
            '%s, %s' % (src.shape, dst.shape),
            'Variable.addgrad: cannot broadcast the gradient added, of '
            "shape %s, with this variable's, of shape %s"
            % (src.shape, dst.shape)) from None


cdef _not_a_creator(obj):
    # Chainer 7.8.1 reads obj.rank + 1: an AttributeError for an object
    # without rank (this is both), a TypeError for one whose rank is no
    # number; it takes anything else (chainerlite refuses it)
    from chainerlite._core.backprop import AttributeTypeError
    error = TypeError if hasattr(obj, 'rank') else AttributeTypeError
    raise error('creator_node must be a FunctionNode, an old-style Function '
                'or None, not %s' % _type_name(obj))


@cython.no_gc_clear
@cython.freelist(256)
cdef class VariableNode:
    """Node of the computational graph that stands for one Variable.

    It outlives its Variable when a function still needs it for backprop. It
    holds the creator strongly and the Variable weakly.

    Args:
        variable (Variable): The variable this node stands for.
        name (str): Name of the variable.
    """

    def __init__(self, Variable variable not None, name, **kwargs):
        if 'grad' in kwargs:
            raise ValueError('VariableNode() got the unexpected keyword '
                             'argument "grad": set the gradient on the '
                             'Variable instead')
        if kwargs:
            raise TypeError('VariableNode() got unexpected keyword arguments: '
                            '%s' % ', '.join(sorted(kwargs)))
        self._name = name
        self._requires_grad = variable._requires_grad
        self._set_data_info(variable._data)
        # The borrowed pointer is only for the Variable that owns this node
        # (its dealloc clears it); any other one is watched through a weak
        # reference.
        if variable._node is self:
            self._variable = <PyObject*>variable
            self._weak_variable = None
        else:
            self._variable = NULL
            self._weak_variable = weakref.ref(variable)

    def __getattribute__(self, name):
        if self._extra is None:
            return PyObject_GenericGetAttr(self, name)
        return _extra_find(self._extra, self, name)

    def __getattr__(self, name):
        return _extra_get(self._extra, self, name)

    def __setattr__(self, name, value):
        extra = _extra_set(self._extra, self, name, value)
        if extra is not None:  # a property setter may have made the dict
            self._extra = extra

    def __delattr__(self, name):
        _extra_del(self._extra, self, name)

    def __dealloc__(self):
        cdef FunctionNode c = self._creator
        cdef Py_ssize_t i
        if c is not None and c._outs != NULL:
            for i in range(c._n_out):
                if c._outs[i] == <PyObject*>self:
                    c._outs[i] = NULL

    cdef int _set_data_info(self, data) except -1:
        cdef int ndim
        self._shape = None
        if data is None:
            self._dtype = None
            self._ndim = 0
        elif type(data) is _ndarray:
            ndim = PyArray_NDIM(<PyArrayObject*>data)
            self._dtype = <object>PyArray_DESCR(<PyArrayObject*>data)
            self._ndim = ndim
            if ndim <= MAX_DIMS:
                memcpy(self._dims, PyArray_DIMS(<PyArrayObject*>data),
                       ndim * sizeof(Py_ssize_t))
            else:
                self._shape = data.shape
        else:
            self._dtype = data.dtype
            self._shape = tuple(data.shape)
            self._ndim = MAX_DIMS + 1
        return 0

    cdef tuple shape_tuple(self):
        cdef Py_ssize_t i
        if self._shape is None and self._dtype is not None and (
                self._ndim <= MAX_DIMS):
            self._shape = tuple([self._dims[i] for i in range(self._ndim)])
        return self._shape

    cdef _set_creator(self, FunctionNode creator):
        cdef FunctionNode old = self._creator
        cdef Py_ssize_t i
        if old is not None and old._outs != NULL:
            for i in range(old._n_out):
                if old._outs[i] == <PyObject*>self:
                    old._outs[i] = NULL
        self._creator = creator
        if creator is not None:  # unchained, a node keeps its rank (Chainer)
            self._rank = creator._rank + 1

    @property
    def creator(self):
        """Function that created this node (an old-style Function if any)."""
        c = self._creator
        if c is None:
            return None
        fn = getattr(c, '_function', None)
        return c if fn is None else fn

    @creator.setter
    def creator(self, func):
        self.set_creator(func)

    @property
    def creator_node(self):
        """FunctionNode that created this node, or None for a leaf."""
        return self._creator

    @creator_node.setter
    def creator_node(self, func):
        self.set_creator_node(func)

    def set_creator(self, creator):
        """Sets the creator (a FunctionNode or an old-style Function)."""
        self.set_creator_node(creator)

    def set_creator_node(self, creator_node):
        """Sets the FunctionNode (or old-style Function) that created this
        node."""
        if creator_node is not None and not isinstance(creator_node, FunctionNode):
            # an old-style Function stands for its node, as in Chainer
            node = getattr(creator_node, 'node', None)
            if not isinstance(node, FunctionNode):
                _not_a_creator(creator_node)
            creator_node = node
        self._set_creator(creator_node)

    @property
    def data(self):
        """Array retained by this node, or None if it is not retained."""
        return self._data

    @data.setter
    def data(self, d):
        self._set_data_info(d)
        self._data = d

    @property
    def grad(self):
        """Gradient array of the corresponding variable, if it is alive."""
        var = self.get_variable_or_none()
        return None if var is None else var.grad

    @property
    def grad_var(self):
        """Gradient Variable of the corresponding variable, if it is alive."""
        var = self.get_variable_or_none()
        return None if var is None else var.grad_var

    @property
    def dtype(self):
        return self._dtype

    @property
    def shape(self):
        return self.shape_tuple()

    @property
    def name(self):
        return self._name

    @name.setter
    def name(self, value):
        self._name = value

    @property
    def rank(self):
        return self._rank

    @property
    def requires_grad(self):
        return self._requires_grad

    @property
    def label(self):
        """Short text describing shape and dtype, used in graph dumps."""
        return _label(self.shape_tuple(), self._dtype)

    def get_variable(self):
        """Returns the Variable of this node, recreating it if it is gone.

        A recreated Variable shares this node, so gradients computed through
        it still reach the rest of the graph.
        """
        return get_variable(self)

    def get_variable_or_none(self):
        """Returns the Variable of this node, or None if it is gone."""
        return _variable_or_none(self)

    def retain_data(self):
        """Keeps a reference to the variable's array in this node."""
        var = _variable_or_none(self)
        if var is None:
            raise RuntimeError('cannot retain variable data: the variable '
                               'has been already released')
        self._data = (<Variable>var)._data

    def unchain(self):
        """Removes the reference to the creator (``creator_node = None``)."""
        self._set_creator(None)

    def __reduce__(self):
        raise TypeError('VariableNode cannot be pickled; pickle the Variable')


cdef str _label(tuple shape, dtype):
    if shape is None:
        return 'None'
    if len(shape) == 0:
        return str(dtype)
    return '(%s), %s' % (', '.join([str(s) for s in shape]), dtype)


cdef object _variable_or_none(VariableNode node):
    if node._variable != NULL:
        return <Variable>node._variable
    if node._weak_variable is not None:
        return node._weak_variable()
    return None


cdef Variable get_variable(VariableNode node):
    if node._variable != NULL:
        return <Variable>node._variable
    var = _variable_or_none(node)
    if var is not None:
        return var
    cdef Variable new = Variable.__new__(Variable)
    new._data = node._data
    new._requires_grad = node._requires_grad
    new._node = node
    node._variable = <PyObject*>new
    node._weak_variable = None
    return new


# ------------------------------------------------------------------- Variable

cdef Variable new_variable(data, bint requires_grad):
    cdef Variable var = Variable.__new__(Variable)
    cdef VariableNode node = var._node
    var._data = data
    var._requires_grad = requires_grad
    node._requires_grad = requires_grad
    node._set_data_info(data)
    return var


cdef Variable as_variable_fast(x):
    if isinstance(x, Variable):
        return <Variable>x
    if not is_array(x):
        raise TypeError('expected a Variable or an array, got %s'
                        % _type_name(x))
    return new_variable(_plain_array(x, 'Variable data'), False)


cdef int _other_variable_kwargs(dict kwargs) except -1:
    # Variable's keywords beyond its own, as Chainer 7.8.1 answers them
    if kwargs.get('layout', None) is not None:
        raise NotImplementedError(
            'Variable: memory layouts are not supported by chainerlite '
            '(layout=%r); only layout=None' % (kwargs['layout'],))
    if 'volatile' in kwargs:
        raise ValueError('volatile argument is not supported anymore. Use '
                         'chainerlite.using_config')
    unexpected = sorted(k for k in kwargs if k != 'layout')
    if unexpected:
        raise TypeError('__init__() got unexpected keyword argument(s) %s'
                        % ', '.join(["'%s'" % k for k in unexpected]))
    return 0


cdef object _plain_array(data, str what):
    """``data`` checked to be an array (or None), as a plain ndarray.

    NumPy subclasses change what operators mean (``*`` of ``numpy.matrix``
    is a matrix product), so they are viewed as ``numpy.ndarray``; a masked
    array is refused, as its mask would be silently ignored.
    """
    if data is None or type(data) is _ndarray:
        return data
    if not is_array(data):
        raise TypeError('%s must be a NumPy or CuPy array, or None; '
                        'got %s' % (what, _type_name(data)))
    if isinstance(data, _ndarray):
        if isinstance(data, numpy.ma.MaskedArray):
            raise TypeError('%s cannot be a masked array (%s): its mask '
                            'would be ignored; pass an ndarray'
                            % (what, _type_name(data)))
        return data.view(_ndarray)
    return data


@cython.no_gc_clear
@cython.freelist(256)
cdef class Variable:
    """Array with a gradient and a place in the computational graph.

    Args:
        data (numpy.ndarray or cupy.ndarray): Initial data array, or None.
        name (str): Name of the variable.
        grad (numpy.ndarray or cupy.ndarray): Initial gradient array.
        requires_grad (bool): Whether backprop computes this variable's
            gradient.
    """

    __array_priority__ = 200

    def __cinit__(self, *args, **kwargs):
        # Every Variable has its node from the start, also one made by
        # __new__ or by a subclass whose __init__ skips Variable.__init__:
        # it is then like ``Variable()``.
        cdef VariableNode node = VariableNode.__new__(VariableNode)
        node._variable = <PyObject*>self
        node._requires_grad = True
        self._node = node
        self._requires_grad = True

    def __init__(self, data=None, *, name=None, grad=None, requires_grad=True,
                 **kwargs):
        if kwargs:
            _other_variable_kwargs(kwargs)
        generic_attrs(self)
        data = _plain_array(data, 'Variable data')
        cdef VariableNode node = self._node
        if Py_REFCNT(node) > 2 or node._creator is not None:
            # __init__ runs again and others hold the node (a graph): it
            # stays valid for them but no longer reaches this Variable
            if node._variable == <PyObject*>self:
                node._variable = NULL
            node = VariableNode.__new__(VariableNode)
            node._variable = <PyObject*>self
            self._node = node
        else:
            # only this Variable holds it (the node made by __cinit__)
            node._variable = <PyObject*>self
            node._weak_variable = None
            node._data = None
            node._rank = 0
        node._name = name
        node._requires_grad = requires_grad
        node._set_data_info(data)
        self._data = data
        self._requires_grad = requires_grad
        self._grad_var = None
        if grad is not None:
            self.grad = grad

    def __getattribute__(self, name):
        if self._extra is None:
            return PyObject_GenericGetAttr(self, name)
        return _extra_find(self._extra, self, name)

    def __getattr__(self, name):
        return _extra_get(self._extra, self, name)

    def __setattr__(self, name, value):
        extra = _extra_set(self._extra, self, name, value)
        if extra is not None:  # a property setter may have made the dict
            self._extra = extra

    def __delattr__(self, name):
        _extra_del(self._extra, self, name)

    def __dealloc__(self):
        cdef VariableNode node = self._node
        if node is not None and node._variable == <PyObject*>self:
            node._variable = NULL

    # -- data -----------------------------------------------------------
    @property
    def raw_array(self):
        """The array as stored (the same as :attr:`array`: chainerlite keeps
        every array in the standard layout)."""
        return self._data

    @property
    def layout(self):
        """The memory layout of the array: always None (standard)."""
        return None

    def as_layout(self, layout):
        """Returns the variable with its array in ``layout``: the variable
        itself for the standard layout (None), the only one chainerlite
        keeps arrays in.

        Raises:
            NotImplementedError: For any other layout.
        """
        if layout is None:
            return self
        raise NotImplementedError(
            'Variable.as_layout: chainerlite keeps arrays in the standard '
            'layout (None) only, not %r' % (layout,))

    def debug_print(self):
        """Returns a multi-line summary: name, device, array type, shape,
        dtype, and the mean and standard deviation of the array and grad."""
        return provided(DEBUG_SUMMARY)(self)

    @property
    def array(self):
        """The underlying data array (NumPy or CuPy)."""
        return self._data

    @array.setter
    def array(self, d):
        self._set_array(d)

    @property
    def data(self):
        """The underlying data array; an alias of :attr:`array`."""
        return self._data

    @data.setter
    def data(self, d):
        self._set_array(d)

    def _set_array(self, d):
        try:
            d = _plain_array(d, 'Variable data')
        except TypeError as e:
            # also Chainer's error there (its setter fails on an attribute)
            from chainerlite._core.backprop import AttributeTypeError
            raise AttributeTypeError(str(e)) from None
        self._data = d
        self._node._set_data_info(d)
        if self._node._data is not None:
            self._node._data = d

    @property
    def grad(self):
        """Gradient array, or None if no gradient has been computed."""
        g = self._grad_var
        return None if g is None else (<Variable>g)._data

    @grad.setter
    def grad(self, g):
        if g is None:
            self._grad_var = None
            return
        g = _plain_array(g, 'Variable grad')
        self._check_grad(g)
        self._grad_var = new_variable(g, True)

    @property
    def grad_var(self):
        """Gradient as a Variable (it has a creator after double backprop)."""
        return self._grad_var

    @grad_var.setter
    def grad_var(self, g):
        if g is not None:
            if not isinstance(g, Variable):
                # also Chainer's error there (it reads g.array)
                from chainerlite._core.backprop import AttributeTypeError
                raise AttributeTypeError(
                    'grad_var must be a Variable or None, got %s'
                    % _type_name(g))
            self._check_grad((<Variable>g)._data)
        self._grad_var = g

    def _check_grad(self, g):
        if self._data is None:
            return
        if type(g) is not type(self._data):
            raise TypeError('Type of data and grad mismatch\ngrad: %s != data: %s'
                            % (_type_name(g), _type_name(self._data)))
        if g.dtype != self._data.dtype:
            raise TypeError('Dtype of data and grad mismatch\ngrad: %s != data: %s'
                            % (g.dtype, self._data.dtype))
        if g.shape != self._data.shape:
            raise ValueError('Shape of data and grad mismatch\ngrad: %s != data: %s'
                             % (g.shape, self._data.shape))

    @property
    def requires_grad(self):
        """Whether backprop computes the gradient of this variable."""
        return self._requires_grad

    @property
    def name(self):
        return self._node._name

    @name.setter
    def name(self, n):
        self._node._name = n

    @property
    def shape(self):
        return self._data.shape

    @property
    def ndim(self):
        return self._data.ndim

    @property
    def size(self):
        return self._data.size

    @property
    def dtype(self):
        return self._data.dtype

    @property
    def xp(self):
        """Array module (numpy or cupy) of the data."""
        if _cupy_ndarray is not None and isinstance(self._data, _cupy_ndarray):
            return _cupy
        return numpy

    @property
    def device(self):
        """Device of the data (a ``chainerlite.backend.Device``)."""
        return provided(BACKEND).get_device_from_array(self._data)

    @property
    def label(self):
        """Short text describing shape and dtype."""
        if self._data is None:
            return 'None'
        return _label(self._data.shape, self._data.dtype)

    def __len__(self):
        if self._data is None or self._data.ndim == 0:
            raise TypeError('len() of unsized object')
        return self._data.shape[0]

    def item(self):
        """Returns the single element as a Python scalar."""
        return self._data.item()

    # -- graph ------------------------------------------------------------
    @property
    def node(self):
        """The VariableNode of this variable."""
        return self._node

    @property
    def creator(self):
        """Function that created this variable (old-style Function if any)."""
        return self._node.creator

    @creator.setter
    def creator(self, func):
        self._node.set_creator(func)

    @property
    def creator_node(self):
        """FunctionNode that created this variable, or None."""
        return self._node._creator

    @creator_node.setter
    def creator_node(self, func):
        self._node.set_creator_node(func)

    @property
    def rank(self):
        return self._node._rank

    def set_creator(self, gen_func):
        """Marks ``gen_func`` as the creator of this variable."""
        self._node.set_creator(gen_func)

    def set_creator_node(self, fnode):
        """Marks ``fnode`` as the FunctionNode that created this variable."""
        self._node.set_creator_node(fnode)

    def retain_data(self):
        """Lets the node keep this variable's array for backprop."""
        self._node._data = self._data

    def unchain(self):
        """Deletes the reference to the creator of this variable."""
        self._node._set_creator(None)

    def unchain_backward(self):
        """Deletes references between variable and function nodes upstream.

        Walks the graph backward from this variable (without recursion) and
        unchains every function node reached, so memory held by the graph
        can be freed while this variable is still used.
        """
        cdef FunctionNode func
        cdef VariableNode x
        seen = set()
        stack = []
        creator = self._node._creator
        if creator is not None:
            stack.append(creator)
            seen.add(creator)
        while stack:
            func = stack.pop()
            if func._inputs is not None:
                for x in func._inputs:
                    c = x._creator
                    if c is not None and c not in seen:
                        seen.add(c)
                        stack.append(c)
            func.unchain()

    def cleargrad(self):
        """Clears the gradient (sets it to None)."""
        self._grad_var = None

    def zerograd(self):
        """Fills the gradient with zeros (deprecated; use cleargrad)."""
        import warnings
        warnings.warn('Variable.zerograd is deprecated. Use '
                      'Variable.cleargrad instead.', DeprecationWarning)
        if self._data is None:
            return
        g = self._grad_var
        if g is None:
            xp = self.xp
            self._grad_var = new_variable(xp.zeros_like(self._data), False)
        else:
            (<Variable>g)._data.fill(0)

    def addgrad(self, var):
        """Accumulates the gradient of ``var`` into this variable's one."""
        src = var.grad
        if src is None:
            return
        src = provided(BACKEND).move_array_like(src, self._data)
        mine = self.grad
        if mine is None:
            self.grad = src.copy()
            return
        _check_addgrad(src, mine)
        total = mine + src
        if type(total) is not _ndarray and isinstance(total, numpy.generic):
            # NumPy adds two 0-d arrays into a scalar
            total = numpy.asarray(total)
        self.grad = total

    def copydata(self, var):
        """Copies the array of ``var`` into this variable's array in place."""
        if self._data is None:
            # Chainer 7.8.1 fails on its None array (an AttributeError)
            from chainerlite._core.backprop import AttributeTypeError
            raise AttributeTypeError(
                'Variable.copydata: this variable has no array to copy into')
        src = provided(BACKEND).move_array_like(var.array, self._data)
        self.xp.copyto(self._data, src)

    def to_cpu(self):
        """Moves data and grad to host memory (NumPy)."""
        provided(BACKEND).variable_to_device(self, '@numpy')

    def to_gpu(self, device=None):
        """Moves data and grad to a GPU (CuPy)."""
        spec = '@cupy:%d' % (0 if device is None else int(device))
        provided(BACKEND).variable_to_device(self, spec)

    def to_device(self, device):
        """Moves data and grad to ``device`` (e.g. ``'@numpy'``, ``'@cupy:0'``)."""
        provided(BACKEND).variable_to_device(self, device)

    def to_intel64(self):
        """Moves data and grad to iDeep arrays; raises RuntimeError, since
        chainerlite has no iDeep array type (see ``backends.intel64``)."""
        provided(BACKEND).variable_to_device(self, '@intel64')

    # ChainerX: chainerlite behaves as a Chainer built without it.
    def to_chx(self):
        """Would move the arrays to ChainerX; raises RuntimeError, since
        ChainerX is not available."""
        raise RuntimeError('Variable.to_chx: ChainerX is not available in '
                           'chainerlite')

    def from_chx(self):
        """Moves the arrays from ChainerX: nothing to do, since no array
        is a ChainerX one here."""

    @property
    def chx_array(self):
        """The ChainerX array; raises ValueError, since no array is a
        ChainerX one here."""
        raise ValueError('Variable.chx_array: the array is not a ChainerX '
                         'array (ChainerX is not available in chainerlite)')

    def backward(self, retain_grad=False, enable_double_backprop=False,
                 loss_scale=None, *, retain_graph=None):
        """Runs error backpropagation from this variable.

        If the gradient of this variable is unset and it holds one element,
        it is initialised with one (times ``loss_scale``). Gradients of leaf
        variables are accumulated into their existing ``grad``. As in
        Chainer, the gradient this pass starts from is taken from this
        variable: afterwards its ``grad`` is None unless ``retain_grad`` is
        set (and some input of its graph requires a gradient); a leaf keeps
        it, and a variable that does not require a gradient starts no pass.

        Args:
            retain_grad (bool): Keep the gradients of intermediate variables.
                By default they are freed as soon as they are consumed.
            enable_double_backprop (bool): Build a graph of the backward
                computation so it can be differentiated again.
            loss_scale (float): Factor applied to the initial gradient.
            retain_graph (bool): Keep what the nodes retained for backward
                (the default, as in Chainer, unless
                ``chainerlite.config.retain_graph`` is False). With False,
                and without double backprop, each node releases its
                retained arrays as soon as its backward ran, so that the
                memory of the graph goes as the pass proceeds (PyTorch's
                default); a later backward through the graph raises
                RuntimeError.
        """
        if self._node._creator is None:
            # a leaf is its own gradient: seeded when it holds one element
            if (self._grad_var is None and self._data is not None
                    and self._data.size == 1):
                self._grad_var = new_variable(
                    _initial_grad(self._data, loss_scale), False)
            return
        if not self._requires_grad:
            # nothing in the graph wants a gradient: no pass, and the
            # gradient is taken as by a pass
            self._grad_var = None
            return
        if self._grad_var is None and self._data is not None:
            self._grad_var = new_variable(
                _initial_grad(self._data, loss_scale), False)
        grad = self._grad_var
        self._grad_var = None  # back only under retain_grad (the pass's rule)
        backprop([self], [grad], retain_grad, enable_double_backprop,
                 loss_scale, None, True, None, retain_graph)
        if (self._grad_var is not None and grad is not None
                and (<Variable>self._grad_var)._data is (<Variable>grad)._data):
            self._grad_var = grad  # the very Variable given, as in Chainer

    # -- shape helpers ------------------------------------------------------
    def reshape(self, *shape):
        """Returns a reshaped variable (see ``chainerlite.functions.reshape``)."""
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = shape[0]
        return provided(FUNCTIONS).reshape(
            self, tuple(shape))

    def transpose(self, *axes):
        """Returns a transposed variable (see ``chainerlite.functions.transpose``)."""
        if len(axes) == 0:
            axes = None
        elif len(axes) == 1 and (isinstance(axes[0], (tuple, list))
                                 or axes[0] is None):
            axes = axes[0]
        return provided(FUNCTIONS).transpose(
            self, axes)

    def mean(self, axis=None, *, weights=None, keepdims=False):
        """Returns the (weighted) mean (see ``chainerlite.functions.average``)."""
        return provided(FUNCTIONS).average(
            self, axis=axis, weights=weights, keepdims=keepdims)

    @property
    def T(self):
        """Transposed variable (all axes reversed)."""
        return provided(FUNCTIONS).transpose(
            self, None)

    def __getitem__(self, slices):
        return provided(FUNCTIONS).get_item(
            self, slices)

    # -- operators ------------------------------------------------------------
    def __add__(self, other):
        return ops_math.add(self, other)

    def __radd__(self, other):
        return ops_math.add(self, other)

    def __sub__(self, other):
        return ops_math.sub(self, other)

    def __rsub__(self, other):
        return ops_math.rsub(self, other)

    def __mul__(self, other):
        return ops_math.mul(self, other)

    def __rmul__(self, other):
        return ops_math.mul(self, other)

    def __truediv__(self, other):
        return ops_math.div(self, other)

    def __rtruediv__(self, other):
        return ops_math.rdiv(self, other)

    def __pow__(self, other, modulo):
        return ops_math.pow_(self, other)

    def __rpow__(self, other, modulo):
        return ops_math.rpow(self, other)

    def __neg__(self):
        return ops_math.neg(self)

    def __abs__(self):
        return ops_math.abs_(self)

    def __pos__(self):
        return self

    def __floordiv__(self, other):
        return provided(FLOORDIV)(self, other)

    def __rfloordiv__(self, other):
        return provided(RFLOORDIV)(self, other)

    def __matmul__(self, other):
        return provided(FUNCTIONS).matmul(self, _matmul_operand(self, other))

    def __rmatmul__(self, other):
        return provided(FUNCTIONS).matmul(_matmul_operand(self, other), self)

    # TypeError, as Chainer 7.8.1 raises (earlier Chainers raised
    # NotImplementedError)
    def __richcmp__(self, other, int op):
        raise TypeError(
            'Variables do not support the %s operator; compare their arrays'
            % _CMP_OPS[op])

    def __bool__(self):
        raise TypeError(
            'the truth value of a Variable is undefined; use its array')

    # unhashable, as Chainer's (its __eq__ raises): code keys dicts and
    # sets by a Variable's node or id
    __hash__ = None

    # -- printing / pickling ----------------------------------------------------
    def __repr__(self):
        prefix = 'variable %s' % self.name if self.name else 'variable'
        if self._data is None:
            return '%s(None)' % prefix
        if self._data.size == 0 and self._data.ndim != 1:
            # '[]' alone would not tell (0, 2) from (2, 0)
            return '%s([], shape=%r)' % (prefix, tuple(self._data.shape))
        body = numpy.array2string(_to_numpy(self._data), separator=', ',
                                  prefix=prefix + '(')
        return '%s(%s)' % (prefix, body)

    def __str__(self):
        prefix = 'variable %s' % self.name if self.name else 'variable'
        if self._data is None:
            return '%s(None)' % prefix
        body = numpy.array2string(_to_numpy(self._data), prefix=prefix + '(')
        return '%s(%s)' % (prefix, body)

    def summary(self):
        """Returns ``'<variable NAME>'``, or ``'<variable at 0x...>'`` (its
        address) for a variable without a name."""
        if self.name:
            return '<variable %s>' % self.name
        return '<variable at 0x%x>' % id(self)

    def __copy__(self):
        return self._copy_to(Variable.__new__(type(self)), False)

    def __deepcopy__(self, memo):
        import copy
        return self._copy_to(Variable.__new__(type(self)), True, memo)

    def _copy_to(self, Variable new not None, bint deep, memo=None):
        import copy
        dup = copy.deepcopy if deep else copy.copy
        data = None if self._data is None else (
            dup(self._data, memo) if deep else self._data)
        Variable.__init__(new, data, name=self.name,
                          requires_grad=self._requires_grad)
        if self._grad_var is not None:
            g = (<Variable>self._grad_var)._data
            new._grad_var = new_variable(g.copy() if deep else g, False)
        state = _idict(self, self._extra)
        if state:
            for k, v in (dup(state, memo) if deep else state).items():
                setattr(new, k, v)
        return new

    def __reduce__(self):
        return (_rebuild_variable,
                (type(self), self._data, self.name,
                 None if self._grad_var is None
                 else (<Variable>self._grad_var)._data,
                 self._requires_grad, _idict(self, self._extra) or None))


cdef object _initial_grad(data, loss_scale):
    # A loss holds one element; anything larger needs its gradient given.
    if data.size != 1:
        raise RuntimeError(
            'Variable.backward: the variable has %d elements (shape %s) and '
            'no grad. Set its grad (e.g. y.grad = xp.ones_like(y.array)) or '
            'reduce it to a scalar first (e.g. F.sum(y))'
            % (data.size, tuple(data.shape)))
    if data.ndim != 0:
        import warnings
        warnings.warn(
            'Treating a variable with only one element as a scalar in '
            'Variable.backward is deprecated: a scalar variable is a '
            '0-dimensional array (apply chainerlite.functions.squeeze to get '
            'one). If this variable has one element by accident, set its '
            'grad to zeros.', DeprecationWarning)
    seed = (numpy if type(data) is _ndarray
            else get_array_module(data)).ones_like(data)
    if loss_scale is not None:
        seed *= loss_scale
    return seed


def _rebuild_variable(cls, data, name, grad, requires_grad, state):
    cdef Variable var = Variable.__new__(cls)
    Variable.__init__(var, data, name=name, requires_grad=requires_grad)
    if grad is not None:
        var._grad_var = new_variable(grad, False)
    if state:
        for k, v in state.items():
            setattr(var, k, v)
    return var


# Instances of the compiled classes have no __dict__ (creating one per object
# would cost an allocation per op); attributes that Python code sets on them
# go to a dict created on first use instead. As in an instance dict, an entry
# there hides a method of the class (a method patched on the instance), but
# not a data descriptor (a property). VariableNode, Variable and FunctionNode
# each define the same four attribute methods over the helpers below: a
# common compiled base class would cost them their freelists (Cython then
# allocates through the base), 4-7% of a small op.
#
# The __getattr__ that this needs would make CPython route every attribute
# access of a Python subclass (function nodes written in Python, Parameter)
# through its slower __getattr__ hook, although such instances have a
# __dict__ of their own. So a Python subclass that overrides no attribute
# hook is switched to the generic attribute functions the first time one of
# its instances is applied or initialised.

cdef extern from *:
    """
    static int chl_type_needs_attr_check(PyObject *tp) {
        /* Only a type whose instances have a __dict__ and that still uses
           the compiled attribute functions can be switched. */
        PyTypeObject *t = (PyTypeObject *)tp;
        return t->tp_dictoffset != 0
            && (t->tp_getattro != PyObject_GenericGetAttr
                || t->tp_setattro != PyObject_GenericSetAttr);
    }
    static int chl_needs_attr_check(PyObject *o) {
        return chl_type_needs_attr_check((PyObject *)Py_TYPE(o));
    }
    static void chl_use_generic_attrs(PyObject *tp) {
        PyTypeObject *t = (PyTypeObject *)tp;
        t->tp_getattro = PyObject_GenericGetAttr;
        t->tp_setattro = PyObject_GenericSetAttr;
        PyType_Modified(t);
    }
    static int chl_generic_delattr(PyObject *o, PyObject *name) {
        /* object.__delattr__ without its check, made from Python, that
           no compiled class between overrides it: these classes do */
        return PyObject_GenericSetAttr(o, name, NULL);
    }
    static int chl_has_dict(PyObject *o) {
        return Py_TYPE(o)->tp_dictoffset != 0;
    }
    static int chl_is_getset(PyObject *o, PyObject *name) {
        /* whether the class attribute ``name`` of o's type is a compiled
           property */
        PyObject *d = _PyType_Lookup(Py_TYPE(o), name);
        return d != NULL && Py_TYPE(d) == &PyGetSetDescr_Type;
    }
    static int chl_is_data_descr(PyObject *o, PyObject *name) {
        /* whether the class attribute ``name`` of o's type takes sets */
        PyObject *d = _PyType_Lookup(Py_TYPE(o), name);
        return d != NULL && Py_TYPE(d)->tp_descr_set != NULL;
    }
    """
    bint chl_type_needs_attr_check(object tp)
    bint chl_needs_attr_check(object o)
    void chl_use_generic_attrs(object tp)
    bint chl_has_dict(object o)
    int chl_generic_delattr(object o, object name) except -1
    bint chl_is_data_descr(object o, object name)
    bint chl_is_getset(object o, object name)
    object PyObject_GenericGetAttr(object o, object name)


cdef inline int generic_attrs(object obj) except -1:
    # Compiled classes (no instance dict) and switched types return at the
    # first test, without touching a Python object.
    if not chl_needs_attr_check(obj):
        return 0
    cls = type(obj)
    if not class_facts(cls).flags & OWN_ATTR_HOOKS:
        _use_generic_attrs(cls)
    return 0


cdef tuple _OBJECT_SETTERS = tuple(
    [(name, object.__dict__[name]) for name in ('__setattr__', '__delattr__')])


cdef int _use_generic_attrs(type cls) except -1:
    chl_use_generic_attrs(cls)
    # object's __setattr__ and __delattr__ in the class's dict too, as the
    # functions it now uses (set without updating its slots): a subclass's
    # super().__setattr__ then calls object's, whose check passes over this
    # class, where it refuses the compiled class's ("can't apply this
    # __setattr__": a class between overrides it)
    for name, wrapper in _OBJECT_SETTERS:
        chl_set_type_attr(cls, name, wrapper)
    return 0


cdef int generic_class_attrs(type cls) except -1:
    # A Python subclass is switched as it is made too: a subclass of it that
    # defines __setattr__ over object.__setattr__ (as code written for
    # Chainer's plain classes does) would otherwise be refused by CPython
    # ("can't apply this __setattr__") until an instance of the class was
    # applied or initialised
    if chl_type_needs_attr_check(cls) and not own_attr_hooks(cls):
        _use_generic_attrs(cls)
    return 0


cdef int node_flags(FunctionNode f) except -1:
    """The facts flags of ``f``'s class as ``f``'s own attributes change
    them: a ``backward`` or ``backward_accumulate`` set on the node is what
    its backward runs, called through Python."""
    cdef int flags = class_facts(type(f)).flags
    d = f._extra
    if d is None:
        if not chl_has_dict(f):
            return flags        # a compiled node with no attribute of its own
        d = _idict(f, None)
    if d:
        if 'backward' in d:
            flags &= ~COMPILED_GRADS
        if 'backward_accumulate' in d:
            flags |= ACCUMULATES
    return flags


cdef object _extra_get(dict extra, obj, name):
    if extra is not None:
        try:
            return extra[name]
        except KeyError:
            pass
    raise AttributeError("'%s' object has no attribute '%s'"
                         % (type(obj).__name__, name))


cdef object _extra_find(dict extra, obj, name):
    # __getattribute__ of a compiled instance that has extra attributes
    if name in extra and not chl_is_data_descr(obj, name):
        return extra[name]
    return PyObject_GenericGetAttr(obj, name)


cdef dict _extra_set(dict extra, obj, name, value):
    try:
        PyObject_GenericSetAttr(obj, name, value)
        return extra
    except AttributeError:
        if chl_is_data_descr(obj, name):
            raise  # e.g. a read-only property
    if extra is None:
        extra = {}
    extra[name] = value
    return extra


cdef dict _extra_put(dict extra, name, value):
    if extra is None:
        extra = {}
    extra[name] = value
    return extra


cdef int _extra_del(dict extra, obj, name) except -1:
    if extra is not None and name in extra:
        del extra[name]
        return 0
    try:
        chl_generic_delattr(obj, name)
    except NotImplementedError:
        # what Cython raises for a compiled property without a deleter
        if not chl_is_getset(obj, name):
            raise
        raise AttributeError("property '%s' of '%s' object has no deleter"
                             % (name, type(obj).__name__)) from None
    except AttributeError:
        if chl_is_data_descr(obj, name):
            raise
        # (CPython's message names the compiled classes by module)
        raise AttributeError("'%s' object has no attribute '%s'"
                             % (type(obj).__name__, name)) from None
    return 0


cdef dict _idict(obj, dict extra):
    # Python subclasses have an instance dict; the compiled class has none.
    try:
        d = <dict>PyObject_GenericGetDict(obj, NULL)
    except AttributeError:
        d = {}
    if extra:
        d = dict(d)
        d.update(extra)
    return d


cdef object _to_numpy(a):
    if type(a) is _ndarray:
        return a
    return a.get() if hasattr(a, 'get') else numpy.asarray(a)


# --------------------------------------------------------------- FunctionNode

cdef tuple _CMP_OPS = ('<', '<=', '==', '!=', '>', '>=')


cdef class _DeadRef:
    """Stands for a weak reference whose referent is gone."""

    def __call__(self):
        return None


cdef object _dead_ref = _DeadRef()
cdef int _MAX_RANK = (1 << 30) - 1
cdef tuple _IDX0 = (0,)


class _FallbackType(object):
    # The type of the Fallback sentinel.
    def __repr__(self):
        return 'Fallback'


#: What ``FunctionNode.forward_chainerx`` returns to ask for the NumPy/CuPy
#: ``forward`` instead (ChainerX is never used by chainerlite).
Fallback = _FallbackType()


# Nodes are made and freed per op (the grad nodes of a backward too): a
# freelist serves FunctionNode and its compiled subclasses that add no field.
@cython.freelist(256)
cdef class FunctionNode:
    """Function node of the computational graph (Chainer's ``FunctionNode``).

    Subclasses implement :meth:`forward` (or ``forward_cpu``/``forward_gpu``)
    on raw arrays and :meth:`backward` on Variables, and are called through
    :meth:`apply`. Its inputs (of the latest apply) are held strongly and
    its outputs weakly.
    """

    def __getattribute__(self, name):
        if self._extra is None:
            return PyObject_GenericGetAttr(self, name)
        return _extra_find(self._extra, self, name)

    def __getattr__(self, name):
        return _extra_get(self._extra, self, name)

    def __setattr__(self, name, value):
        extra = _extra_set(self._extra, self, name, value)
        if extra is not None:  # a property setter may have made the dict
            self._extra = extra

    def __delattr__(self, name):
        _extra_del(self._extra, self, name)

    def __dealloc__(self):
        if self._outs != NULL and self._outs != &self._out1:
            PyMem_Free(self._outs)
        self._outs = NULL

    # -- debugging and Chainer's layout attributes ---------------------------
    @property
    def stack(self):
        """Where the node was applied (a ``traceback.StackSummary``), kept
        in debug mode only; otherwise None."""
        return None if self._extra is None else self._extra.get('stack')

    @stack.setter
    def stack(self, value):
        self._extra = _extra_put(self._extra, 'stack', value)

    @property
    def lazy_grad_sum(self):
        """Chainer's switch for summing gradients late; accepted, and
        gradients are always summed as they arrive (default False)."""
        return False if self._extra is None else self._extra.get(
            'lazy_grad_sum', False)

    @lazy_grad_sum.setter
    def lazy_grad_sum(self, value):
        self._extra = _extra_put(self._extra, 'lazy_grad_sum', value)

    # ChainerX: chainerlite behaves as a Chainer built without it, where
    # apply never calls forward_chainerx (no array is a ChainerX one).
    chainerx_device = None
    # whether forward is elementwise (Chainer's hint for ChainerX)
    is_elementwise = False

    def forward_chainerx(self, inputs):
        """Would compute the outputs from ChainerX arrays; returns
        ``Fallback`` (use :meth:`forward`). Never called here."""
        return Fallback

    @property
    def input_layouts(self):
        """Memory layouts of the inputs: None for each (chainerlite uses
        the standard layout only). Before the node is applied (or after
        unchain) there are none: AssertionError, as Chainer asserts."""
        if self._inputs is None:
            raise AssertionError('%s has no input layouts before it is '
                                 'applied' % self.label)
        return (None,) * len(self._inputs)

    @property
    def output_data(self):
        """The retained output arrays, one entry per output (None for one
        not retained); see :meth:`retain_outputs`. Prefer
        :meth:`get_retained_outputs`.

        Raises:
            RuntimeError: If no output array is retained.
        """
        if (self._output_indexes_to_retain is None
                or self._retained_output_data is None):
            raise RuntimeError('%s: retained output data is gone' % self.label)
        data = [None] * self._n_out
        for i, array in zip(self._output_indexes_to_retain,
                            self._retained_output_data):
            data[i] = array
        return tuple(data)

    @property
    def output_layouts(self):
        """Memory layouts of the outputs: None for each (AssertionError
        before the node is applied, as input_layouts)."""
        if self._inputs is None:
            raise AssertionError('%s has no output layouts before it is '
                                 'applied' % self.label)
        return (None,) * self._n_out

    # -- graph attributes ---------------------------------------------------
    @property
    def inputs(self):
        """Tuple of input VariableNodes (None before apply or after unchain)."""
        return self._inputs

    @inputs.setter
    def inputs(self, value):
        if value is not None:
            value = tuple(value)
            for x in value:
                if not isinstance(x, VariableNode):
                    raise TypeError('inputs must be VariableNodes, got %s'
                                    % _type_name(x))
        self._inputs = value

    @property
    def outputs(self):
        """Tuple of weak references to the output VariableNodes."""
        if self._outs == NULL:
            return None
        cdef Py_ssize_t i
        return tuple([
            _dead_ref if self._outs[i] == NULL
            else weakref.ref(<object>self._outs[i])
            for i in range(self._n_out)])

    @outputs.setter
    def outputs(self, refs):
        if refs is None:
            self._link_outputs(None)
            return
        nodes = []
        for r in refs:
            node = r() if callable(r) and not isinstance(r, VariableNode) else r
            if node is not None and (<VariableNode?>node)._creator is not self:
                raise ValueError('an output node of %s must have it as its '
                                 'creator' % self.label)
            nodes.append(node)
        self._link_outputs(tuple(nodes))

    cdef _link_outputs(self, tuple nodes):
        cdef Py_ssize_t i, n
        if self._outs != NULL and self._outs != &self._out1:
            PyMem_Free(self._outs)
        self._outs = NULL
        self._n_out = 0
        if nodes is None:
            return
        n = len(nodes)
        if n == 1:
            self._outs = &self._out1
        else:
            self._outs = <PyObject**>PyMem_Malloc(max(n, 1) * sizeof(PyObject*))
            if self._outs == NULL:
                raise MemoryError()
        for i in range(n):
            node = nodes[i]
            self._outs[i] = NULL if node is None else <PyObject*>node
        self._n_out = n

    @property
    def rank(self):
        """Topological order: the largest rank of the inputs."""
        return self._rank

    @rank.setter
    def rank(self, value):
        # outputs get rank + 1, and the backward heap keys need headroom
        if not 0 <= value <= _MAX_RANK:
            raise ValueError('rank of %s must be in [0, %d], got %r'
                             % (self.label, _MAX_RANK, value))
        self._rank = value

    @property
    def label(self):
        """Name of the function, used in hooks, reports and errors."""
        return type(self).__name__

    @property
    def _impl_name(self):
        return type(self).__name__

    @property
    def local_function_hooks(self):
        """Ordered dict of hooks registered on this node only."""
        if self._local_hooks is None:
            self._local_hooks = {}
        return self._local_hooks

    @property
    def _n_local_function_hooks(self):
        return 0 if self._local_hooks is None else len(self._local_hooks)

    def add_hook(self, hook, name=None):
        """Registers a function hook on this node only.

        Args:
            hook (FunctionHook): The hook.
            name (str): Name to register it under; ``hook.name`` by default.
        """
        if not isinstance(hook, provided(FUNCTION_HOOK)):
            raise TypeError('Hook must be of type FunctionHook, not %s'
                            % _type_name(hook))
        if name is None:
            name = hook.name
        hooks = self.local_function_hooks
        if name in hooks:
            raise KeyError('Hook %s already exists' % name)
        hooks[name] = hook
        try:
            hook.added(self)
        except BaseException:
            del hooks[name]
            raise

    def delete_hook(self, name):
        """Unregisters the local hook named ``name``."""
        hooks = self.local_function_hooks
        if name not in hooks:
            raise KeyError('Hook %s does not exist' % name)
        hook = hooks.pop(name)
        hook.deleted(self)

    def __call__(self, *args, **kwargs):
        # as Chainer 7.8.1: a FunctionNode is applied, never called
        if type(self).__module__.startswith('chainerlite.'):
            raise RuntimeError(
                "chainerlite's built-in function class (%s) derives from "
                'FunctionNode and was called as if it were a callable; use '
                'its snake_case function (or FunctionNode.apply()) instead.'
                % type(self).__name__)
        raise RuntimeError(
            'A function class object (%s) which is derived from '
            'chainer.FunctionNode has been called as if it were a callable. '
            'Use apply() method instead.' % type(self).__name__)

    # -- forward --------------------------------------------------------------
    def apply(self, inputs):
        """Applies the function to Variables (or arrays).

        Runs hooks and :meth:`forward`, wraps the outputs in Variables and,
        when backprop is enabled, links this node into the graph.

        Args:
            inputs (tuple of Variable or ndarray): Input values; arrays are
                wrapped as Variables that do not require gradients.

        Returns:
            tuple of Variable: The outputs.
        """
        if type(inputs) is not tuple and type(inputs) is not list and (
                isinstance(inputs, Variable) or is_array(inputs)):
            raise TypeError('%s.apply expects a tuple or list of inputs, '
                            'not a single %s; write apply((x,))'
                            % (self.label, _type_name(inputs)))
        return apply_node(self, tuple(inputs))

    def check_type_forward(self, in_types):
        """Checks input types (override with ``type_check.expect``)."""
        pass

    def check_layout_forward(self, inputs):
        """Checks the memory layouts of the input Variables: any layout but
        the standard one is a RuntimeError (chainerlite's Variables always
        have the standard layout, None)."""
        layouts = [getattr(x, 'layout', None) for x in inputs]
        if any(layout is not None for layout in layouts):
            raise RuntimeError(
                'Inputs with non-standard layouts were given to a function '
                'without explicit `check_layout_forward` implementation.\n'
                'Function: %s\nInput layouts: %s'
                % (self.label, ', '.join(str(layout) for layout in layouts)))

    def _check_data_type_forward(self, in_data):
        # Light mode first: conditions evaluate on the arrays themselves.
        # Only when one fails is the check rerun with expressions, to build
        # a message that names the function and the failing condition.
        cdef ThreadState state = get_state()
        cdef bint prev = state.light_mode
        tc = provided(TYPE_CHECK)
        state.light_mode = True
        try:
            self.check_type_forward(tc.LightTypeInfoTuple(in_data))
            return
        except tc.InvalidType:
            # rerun below for the message; any other error (an IndexError
            # from `shape[1]` of a 1-d array) reaches the caller, as in
            # Chainer 7.8.1
            pass
        finally:
            state.light_mode = prev
        in_types = tc.get_types(in_data, 'in_types', False)
        with tc.get_function_check_context(self):
            self.check_type_forward(in_types)

    cdef bint _quick_check(self, ClassFacts facts, tuple in_data):
        # A check_type_forward that is a declaration (type_check's
        # declare_kinds, a facts.Contract) is read here too: inputs that
        # surely satisfy it skip the check, anything else gets the check
        # and its message.
        cdef Py_ssize_t n = len(in_data)
        if n <= 3 and facts.contract is not None:
            return facts.contract.accepts(
                self, n, in_data[0] if n > 0 else None,
                in_data[1] if n > 1 else None, in_data[2] if n > 2 else None)
        return n <= 3 and kinds_match(
            facts.kinds, n, in_data[0] if n > 0 else None,
            in_data[1] if n > 1 else None, in_data[2] if n > 2 else None)

    def forward(self, inputs):
        """Computes outputs from input arrays; dispatches on the array type."""
        if len(inputs) > 0 and _cupy_ndarray is not None and isinstance(
                inputs[0], _cupy_ndarray):
            return self.forward_gpu(inputs)
        return self.forward_cpu(inputs)

    def forward_cpu(self, inputs):
        """Computes outputs from NumPy arrays."""
        raise NotImplementedError(
            '%s does not implement forward_cpu' % self.label)

    def forward_gpu(self, inputs):
        """Computes outputs from CuPy arrays."""
        raise NotImplementedError(
            '%s does not implement forward_gpu' % self.label)

    def retain_inputs(self, indexes):
        """Marks input arrays to keep for backward (call inside forward)."""
        self._input_indexes_to_retain = tuple(indexes)

    def retain_outputs(self, indexes):
        """Marks output arrays to keep for backward (call inside forward)."""
        self._output_indexes_to_retain = tuple(indexes)

    # -- backward ---------------------------------------------------------------
    def backward(self, target_input_indexes, grad_outputs):
        """Computes gradients of the inputs from gradients of the outputs.

        Args:
            target_input_indexes (tuple of int): Inputs whose gradients are
                required.
            grad_outputs (tuple of Variable): Gradients of the outputs (None
                for an output that did not get a gradient).

        Returns:
            tuple of Variable: One gradient per input, or one per target index.
        """
        return (None,) * len(target_input_indexes)

    def backward_accumulate(self, target_input_indexes, grad_outputs,
                            grad_inputs):
        """Computes input gradients and adds them to ``grad_inputs``."""
        gxs = self.backward(target_input_indexes, grad_outputs)
        n = len(gxs)
        if n == len(self._inputs) and n != len(target_input_indexes):
            gxs = tuple([gxs[i] for i in target_input_indexes])
        elif n != len(target_input_indexes):
            raise ValueError(grad_count_message(self, n, target_input_indexes))
        return tuple([gx if g is None else (g if gx is None else gx + g)
                      for gx, g in zip(gxs, grad_inputs)])

    def get_retained_inputs(self):
        """Returns the retained inputs as Variables (see retain_inputs)."""
        if self._input_indexes_to_retain is None or self._inputs is None:
            return ()
        return tuple([_retained_input(self, i)
                      for i in self._input_indexes_to_retain])

    def get_retained_outputs(self):
        """Returns the retained outputs as Variables (see retain_outputs).

        An output whose Variable is gone is recreated with this node as its
        creator.
        """
        if (self._output_indexes_to_retain is None or self._outs == NULL
                or self._retained_output_data is None):
            return ()
        cdef tuple indexes = self._output_indexes_to_retain
        cdef tuple retained = self._retained_output_data
        cdef Py_ssize_t j, index, n = min(len(indexes), len(retained))
        cdef tuple ret = PyTuple_New(n)
        for j in range(n):
            index = _checked_index(self, indexes[j], self._n_out, 'output')
            data = retained[j]
            # None: an output forward gave as None (Chainer allows it)
            out = None if data is None else self._retained_output(index, data)
            Py_INCREF(out)
            PyTuple_SET_ITEM(ret, j, out)
        return ret

    cdef Variable _retained_output(self, Py_ssize_t index, data):
        # the Variable of output index, made again if it is gone
        cdef Variable var
        cdef VariableNode node
        if self._outs[index] == NULL:
            var = new_variable(data, True)
            node = var._node
            node._creator = self
            node._rank = self._rank + 1
            node._data = data
            self._outs[index] = <PyObject*>node
            return var
        return get_variable(<VariableNode>self._outs[index])

    def unchain(self):
        """Purges input and output references of this node."""
        cdef Py_ssize_t i
        if self._outs == NULL:
            # Chainer 7.8.1 fails on its None outputs here (TypeError)
            raise TypeError('%s.unchain: the node is in no graph (it was '
                            'never applied, or unchained already)'
                            % self.label)
        # first: a backward running over this node in another thread
        # tells from it who unchained the node
        self._unchained_by = PyThread_get_thread_ident()
        for i in range(self._n_out):
            if self._outs[i] != NULL:
                (<VariableNode>self._outs[i])._set_creator(None)
        self._inputs = None
        self._link_outputs(None)

    def _get_error_message(self, message):
        return error_message(self, message)

    # -- copy and pickle ----------------------------------------------------
    def __reduce__(self):
        # copy.copy, copy.deepcopy and pickle of a node not yet applied (as
        # code copies a prepared node before applying it): its class, the
        # attributes set on it and its local hooks
        if self._inputs is not None or self._n_out:
            raise TypeError(
                '%s: a FunctionNode that was applied cannot be copied or '
                'pickled (the graph holds it); copy it before apply'
                % self.label)
        for klass in type(self).__mro__:
            if not (<type>klass).__flags__ & _HEAPTYPE:
                break
        if klass.__basicsize__ != FunctionNode.__basicsize__:
            raise TypeError('%s cannot be copied or pickled: the compiled '
                            '%s holds fields of its own'
                            % (self.label, klass.__name__))
        return (_rebuild_node, (type(self), _idict(self, self._extra) or None,
                                self._local_hooks or None))


cdef unsigned long _HEAPTYPE = 1 << 9   # Py_TPFLAGS_HEAPTYPE


def _rebuild_node(cls, state, hooks):
    cdef FunctionNode node = cls.__new__(cls)
    if state:
        for k, v in state.items():
            setattr(node, k, v)
    node._local_hooks = hooks
    return node


cdef str error_message(FunctionNode func, str message):
    """``message`` followed by the node's name and its inputs' and outputs'
    shapes and dtypes, one a line (the layout of Chainer's messages)."""
    cdef VariableNode x
    lines = [message, '  function=%s (%s)' % (func._impl_name, func.label)]
    for i, x in enumerate(func._inputs or ()):
        lines.append('    input %d: shape=%s dtype=%s'
                     % (i, x.shape, x.dtype))
    for i, ref in enumerate(func.outputs or ()):
        y = ref()
        lines.append('    output %d: not available' % i if y is None else
                     '    output %d: shape=%s dtype=%s'
                     % (i, y.shape, y.dtype))
    return '\n'.join(lines)


cdef str grad_count_message(FunctionNode func, Py_ssize_t n, indexes):
    cdef Py_ssize_t n_in = len(func._inputs)
    msg = 'number of gradients returned from backward is incorrect: '
    if n_in == len(indexes):
        msg += '%d != expected %d' % (n, n_in)
    else:
        msg += '%d != expected %d or %d' % (n, n_in, len(indexes))
    return error_message(func, msg)


# --------------------------------------------------------------------- apply

cdef int check_finite(FunctionNode node, tuple arrays, str phase) except -1:
    """Debug mode: raises if an array holds NaN. Infinities pass, as in
    Chainer 7.8.1 (-inf masks, log(0), a derivative at a kink of sqrt)."""
    for a in arrays:
        if a is None or a.dtype.kind not in 'fc':
            continue
        if bool(array_module(a).isnan(a).any()):
            raise RuntimeError('NaN is detected on %s computation of %s'
                               % (phase, node.label))
    return 0


cdef object _retained_input(FunctionNode f, Py_ssize_t i):
    cdef VariableNode x = <VariableNode>f._inputs[i]
    if x._data is None:
        # an input given as None (it has no dtype) is retained as None
        if x._dtype is None and x._creator is None:
            return None
        if _variable_or_none(x) is None:
            released_input(f, i)
    return get_variable(x)


cdef int released_input(FunctionNode f, Py_ssize_t i) except -1:
    # the retained input i of f is gone (its creator's backward ran in a
    # pass that released the graph, and f's did not)
    raise RuntimeError(
        '%s: its retained input %d was freed by an earlier backward with '
        'retain_graph=False, which releases what each node retained once '
        'its backward ran; run that backward with retain_graph=True (the '
        'default) to go through the graph again' % (f.label, i))


def substitute_forward(node, outputs):
    """Has the node being applied link ``node`` and ``outputs`` instead.

    Called from a forward pre-hook (``forward_preprocess``), it makes the
    apply that called the hook skip the forward of the node it applies and
    link ``node`` (an earlier node of the same class that ran its forward,
    so that it holds what its backward needs) with ``outputs`` (the arrays
    that forward returned) into the graph. ``F.forget`` uses it to reuse
    kept outputs when it recomputes.
    """
    if not isinstance(node, FunctionNode):
        raise TypeError('substitute_forward: node must be a FunctionNode, '
                        'not %s' % _type_name(node))
    if not isinstance(outputs, tuple) or not outputs:
        raise TypeError('substitute_forward: outputs must be a non-empty '
                        'tuple of arrays, not %s' % _type_name(outputs))
    get_state().substitute = (node, outputs)


def retained_indexes(node):
    """The input and the output indexes that ``node`` retains for its
    backward, once its forward ran: ``(inputs, outputs)``, each a tuple or
    None. Known under no-backprop mode too, where nothing is retained (a
    built-in node declares them; any other sets them in its forward).
    ``F.forget`` reads them to learn which recomputed arrays its backward
    needs.
    """
    if not isinstance(node, FunctionNode):
        raise TypeError('retained_indexes: node must be a FunctionNode, '
                        'not %s' % _type_name(node))
    cdef int mask
    if isinstance(node, BuiltinNode):
        mask = (<BuiltinNode>node).retained()
        return (_RETAINED_INPUTS[mask & 7],
                _IDX0 if mask & RETAIN_Y else None)
    return ((<FunctionNode>node)._input_indexes_to_retain,
            (<FunctionNode>node)._output_indexes_to_retain)


cdef tuple _take_substitute(ThreadState state, FunctionNode node):
    cdef tuple substitute = state.substitute
    state.substitute = None
    if type(substitute[0]) is not type(node):
        raise RuntimeError(
            'substitute_forward: a %s was given in place of a %s'
            % (_type_name(substitute[0]), _type_name(node)))
    return substitute


cdef tuple apply_node(FunctionNode node, tuple inputs):
    cdef Variable v
    cdef ThreadState state = get_state()
    # Applying a node again re-links it to the new inputs and outputs, as in
    # Chainer: the outputs of the earlier call keep it as their creator, but
    # it no longer lists them (_outs holds only the new output nodes, each
    # of which clears its entry when it dies), so nothing dangles.
    generic_attrs(node)
    if debug_enabled(state):
        import traceback
        node.stack = traceback.extract_stack()
    # None stands for an absent input, as in Chainer: forward sees None
    # there, and no gradient is asked for it.
    cdef tuple input_vars = inputs
    for x in inputs:
        if not isinstance(x, Variable):
            input_vars = tuple([new_variable(None, False) if x is None
                                else as_variable_fast(x) for x in inputs])
            break
    cdef Py_ssize_t i, n = len(input_vars)
    cdef tuple in_data = PyTuple_New(n)
    cdef bint requires_grad = False
    for i in range(n):
        v = <Variable>input_vars[i]
        Py_INCREF(v._data)
        PyTuple_SET_ITEM(in_data, i, v._data)
        if v._requires_grad:
            requires_grad = True
    cdef ClassFacts facts
    if type_check_enabled(state):
        facts = class_facts(type(node))
        if facts.flags & OWN_TYPE_CHECK and not node._quick_check(
                facts, in_data):
            node._check_data_type_forward(in_data)

    cdef tuple entries = active_entries(state, node._local_hooks)
    if entries and not any_mask(entries) & FORWARD:
        entries = None  # no forward callback to call
    node._input_indexes_to_retain = None
    node._output_indexes_to_retain = None
    cdef FunctionNode hooked = node  # the node the hooks see, before and after
    if entries:
        dispatch(entries, 0, node, in_data, None)
        if state.substitute is not None:
            node, outputs = _take_substitute(state, node)
        else:
            # hooks that keep a stack of running calls (TimerHook) learn
            # from this depth which of their calls raised instead of
            # returning
            state.running += 1
            try:
                outputs = node.forward(in_data)
            finally:
                state.running -= 1
    else:
        outputs = node.forward(in_data)
    if not isinstance(outputs, tuple):
        raise TypeError('forward output must be a tuple (%s)\nActual: %s'
                        % (node.label, _type_name(outputs)))
    for first in <tuple>outputs:
        if type(first) is not _ndarray:
            outputs = _checked_outputs(node, outputs)
            break
    if entries:
        dispatch(entries, 1, hooked, in_data, outputs)
    if debug_enabled(state):
        check_finite(node, outputs, 'forward')
    if node._input_indexes_to_retain is not None:
        node._input_indexes_to_retain = _checked_indexes(
            node, node._input_indexes_to_retain, len(in_data), 'input')
    if node._output_indexes_to_retain is not None:
        node._output_indexes_to_retain = _checked_indexes(
            node, node._output_indexes_to_retain, len(outputs), 'output')
    if len(<tuple>outputs) == 1:
        ret = (new_variable((<tuple>outputs)[0], requires_grad),)
    else:
        ret = tuple([new_variable(y, requires_grad) for y in outputs])
    if backprop_enabled(state):
        _link(node, input_vars, ret, outputs)
    return ret


cdef tuple _checked_outputs(FunctionNode node, tuple outputs):
    # Outputs that are not all NumPy arrays: CuPy arrays, None (an output
    # that forward does not produce, as Chainer allows), or a mistake.
    cdef bint scalars = False
    for y in outputs:
        if y is None or is_array(y):
            continue
        # chainerlite's own nodes may compute a NumPy scalar where a 0-d
        # array is meant (it is made one); anything else is refused, as by
        # Chainer
        if not isinstance(y, _generic) or not type(node).__module__.startswith(
                'chainerlite.'):
            raise TypeError(
                'forward output must be a tuple of ndarrays.\nFunction: %s\n'
                'Actual output types: %s'
                % (node.label, tuple([type(o) for o in outputs])))
        scalars = True
    if scalars:
        return tuple([ensure_array(y) for y in outputs])
    return outputs


cdef Py_ssize_t _checked_index(FunctionNode node, index, Py_ssize_t n,
                               str kind) except -1:
    """A retained index as a position among ``n`` inputs or outputs.

    Negative indexes count from the end, as in Chainer.
    """
    cdef Py_ssize_t i = index
    if i < 0:
        i += n
    if not 0 <= i < n:
        raise IndexError('%s retains %s index %d, but it has %d %s%s'
                         % (node.label, kind, index, n, kind,
                            '' if n == 1 else 's'))
    return i


cdef tuple _checked_indexes(FunctionNode node, tuple indexes, Py_ssize_t n,
                            str kind):
    # Called by apply once forward has run (the number of outputs is known
    # only then); usually the indexes are valid and come back unchanged.
    for index in indexes:
        if type(index) is not int or not 0 <= <Py_ssize_t>index < n:
            return tuple([_checked_index(node, j, n, kind) for j in indexes])
    return indexes


cdef int _link(FunctionNode node, tuple input_vars, tuple ret,
               tuple outputs) except -1:
    cdef Variable v
    cdef VariableNode y
    cdef int rank = 0
    for v in input_vars:
        if v._node._rank > rank:
            rank = v._node._rank
    node._rank = rank
    node._inputs = tuple([v._node for v in input_vars])
    nodes = tuple([(<Variable>v)._node for v in ret])
    for y in nodes:
        y._creator = node
        y._rank = rank + 1
    node._link_outputs(nodes)
    if node._input_indexes_to_retain is not None:
        for i in node._input_indexes_to_retain:
            v = input_vars[i]
            v._node._data = v._data
    if node._output_indexes_to_retain is not None:
        retained = []
        for i in node._output_indexes_to_retain:
            v = ret[i]
            v._node._data = v._data
            retained.append(outputs[i])
        node._retained_output_data = tuple(retained)
    return 0


# input indexes by RETAIN_X0 | RETAIN_X1 | RETAIN_X2 bits
cdef tuple _RETAINED_INPUTS = (None, (0,), (1,), (0, 1), (2,), (0, 2), (1, 2),
                               (0, 1, 2))


cdef class BuiltinNode(FunctionNode):
    """Compiled node of one output with the built-in contract.

    A subclass declares once what its backward needs (:meth:`retained`),
    computes its output from arrays (:meth:`compute`) and writes its
    backward once (``grads``), as grad nodes applied to Variables in
    ``backward`` or to arrays in a compute-only run. :func:`apply_builtin` applies
    any of them without going through :meth:`forward`; ``apply()`` (the
    general path, taken in debug mode) runs the same declaration through
    this :meth:`forward`.
    """

    cdef int retained(self):
        # RETAIN_X0 | RETAIN_X1 | RETAIN_X2 | RETAIN_Y: what backward reads
        return 0

    cdef object compute(self, x0, x1, x2):
        # the output array from the input arrays (x1, x2: None if absent)
        raise NotImplementedError

    cdef bint quick_check(self, int n, x0, x1, x2):
        # True when the n input arrays (x1, x2: None if absent) surely pass
        # check_type_forward, which then does not run: by default, when the
        # check is a declaration (declare_kinds, a facts.Contract) that
        # accepts them
        cdef ClassFacts facts = class_facts(type(self))
        if facts.contract is not None:
            return facts.contract.accepts(self, n, x0, x1, x2)
        return kinds_match(facts.kinds, n, x0, x1, x2)

    cdef tuple grads(self, tuple indexes, tuple gys):
        # the input gradients for indexes from the output gradients gys:
        # Variables in backward (a graph where double backprop asks for
        # one), arrays in the compute-only run of a pass that needs none
        raise NotImplementedError('%s has no backward' % self.label)

    # backward and the compute-only run of a raw pass are both grads: the
    # derivative is written once, and the grad nodes that grads applies on
    # arrays report their calls to this thread's hooks (apply_nested)
    def backward(self, target_input_indexes, grad_outputs):
        return self.grads(tuple(target_input_indexes), tuple(grad_outputs))

    cdef bint _quick_check(self, ClassFacts facts, tuple in_data):
        cdef Py_ssize_t n = len(in_data)
        return n <= 3 and self.quick_check(
            n, in_data[0] if n > 0 else None, in_data[1] if n > 1 else None,
            in_data[2] if n > 2 else None)

    cdef object retained_y(self):
        # the retained output array (RETAIN_Y)
        cdef tuple retained = self._retained_output_data
        if retained is None or len(retained) != 1:
            raise RuntimeError('%s: the retained output needed by backward '
                               'is gone' % self.label)
        return retained[0]

    def forward(self, inputs):
        cdef int mask = self.retained()
        cdef Py_ssize_t n = len(inputs)
        if mask & (RETAIN_X0 | RETAIN_X1 | RETAIN_X2):
            self.retain_inputs(_RETAINED_INPUTS[mask & 7])
        if mask & RETAIN_Y:
            self.retain_outputs(_IDX0)
        return ensure_array(self.compute(
            inputs[0], inputs[1] if n > 1 else None,
            inputs[2] if n > 2 else None)),


cdef Variable apply_builtin(BuiltinNode node, Variable x0, Variable x1=None,
                            Variable x2=None):
    """Applies a built-in node to one to three inputs: apply() made short.

    The same steps as :func:`apply_node` (type check, forward hooks, graph
    links, retention) for a fresh node with no local hooks, without
    building Variables, tuples or calls that nothing needs.
    """
    cdef ThreadState state = get_state()
    if debug_enabled(state) or (
            class_facts(type(node)).flags & CALL_REPLACED):
        return node.apply(_variables(x0, x1, x2))[0]
    cdef bint checked = type_check_enabled(state)
    cdef int n = 1 if x1 is None else (2 if x2 is None else 3)
    if checked and not node.quick_check(
            n, x0._data, None if x1 is None else x1._data,
            None if x2 is None else x2._data):
        node._check_data_type_forward(_in_data(x0, x1, x2))
    cdef tuple entries = forward_entries(state)
    cdef tuple in_data = None
    cdef BuiltinNode linked = node  # a substitute's, which the hooks do not see
    if entries is None:
        y = _compute(node, x0, x1, x2, checked)
    else:
        in_data = _in_data(x0, x1, x2)
        dispatch(entries, 0, node, in_data, None)
        if state.substitute is not None:
            substitute, outputs = _take_substitute(state, node)
            linked = <BuiltinNode>substitute
            y = outputs[0]
        else:
            state.running += 1
            try:
                y = _compute(node, x0, x1, x2, checked)
            finally:
                state.running -= 1
    if type(y) is not _ndarray:
        y = ensure_array(y)
    if entries is not None:
        # a 1-tuple of the output only for hooks that take it
        dispatch(entries, 1, node, in_data,
                 (y,) if (<HookRegistry>state.hooks).mask & FWD_POST_OUT
                 else None)
    cdef bint requires_grad = x0._requires_grad or (
        x1 is not None and x1._requires_grad) or (
        x2 is not None and x2._requires_grad)
    cdef Variable out = new_variable(y, requires_grad)
    if backprop_enabled(state):
        _link_builtin(linked, x0, x1, x2, out)
    return out


cdef object apply_nested(BuiltinNode op, tuple in_data):
    """Applies the fresh node ``op`` to arrays, compute-only.

    What the ``grads`` of a compiled node does in a raw pass: as applying
    ``op`` to Variables under no-backprop mode, without Variables or graph,
    whether or not hooks are registered; this thread's forward hooks see
    ``op`` and its input (and output) arrays. ``in_data``: one or two
    arrays. Returns the output array (the 1-tuple of it is made only for
    hooks that take the output).
    """
    cdef ThreadState state = get_state()
    cdef tuple entries = forward_entries(state)
    x0 = in_data[0]
    x1 = in_data[1] if len(in_data) > 1 else None
    if entries is None:
        return ensure_array(op.compute(x0, x1, None))
    dispatch(entries, 0, op, in_data, None)
    state.running += 1
    try:
        y = op.compute(x0, x1, None)
    finally:
        state.running -= 1
    if type(y) is not _ndarray:
        y = ensure_array(y)
    dispatch(entries, 1, op, in_data,
             (y,) if (<HookRegistry>state.hooks).mask & FWD_POST_OUT
             else None)
    return y


cdef inline object _compute(BuiltinNode node, Variable x0, Variable x1,
                            Variable x2, bint checked):
    if x1 is None:
        return node.compute(x0._data, None, None)
    try:
        return node.compute(x0._data, x1._data,
                            None if x2 is None else x2._data)
    except ValueError:
        # e.g. shapes that do not broadcast: the type check names them
        if checked:
            node._check_data_type_forward(_in_data(x0, x1, x2))
        raise


cdef tuple _in_data(Variable x0, Variable x1, Variable x2):
    if x1 is None:
        return (x0._data,)
    if x2 is None:
        return (x0._data, x1._data)
    return (x0._data, x1._data, x2._data)


cdef tuple _variables(Variable x0, Variable x1, Variable x2):
    if x1 is None:
        return (x0,)
    return (x0, x1) if x2 is None else (x0, x1, x2)


cdef int _link_builtin(BuiltinNode node, Variable x0, Variable x1,
                       Variable x2, Variable out) except -1:
    cdef VariableNode yn = out._node
    cdef int rank = x0._node._rank
    if x1 is None:
        node._inputs = (x0._node,)
    else:
        if x1._node._rank > rank:
            rank = x1._node._rank
        if x2 is None:
            node._inputs = (x0._node, x1._node)
        else:
            if x2._node._rank > rank:
                rank = x2._node._rank
            node._inputs = (x0._node, x1._node, x2._node)
    node._rank = rank
    yn._creator = node
    yn._rank = rank + 1
    node._outs = &node._out1
    node._out1 = <PyObject*>yn
    node._n_out = 1
    cdef int mask = node.retained()
    if mask == 0:
        return 0
    if mask & 7:
        node._input_indexes_to_retain = _RETAINED_INPUTS[mask & 7]
        if mask & RETAIN_X0:
            x0._node._data = x0._data
        if mask & RETAIN_X1:
            x1._node._data = x1._data
        if mask & RETAIN_X2:
            x2._node._data = x2._data
    if mask & RETAIN_Y:
        node._output_indexes_to_retain = _IDX0
        node._retained_output_data = (out._data,)
        yn._data = out._data
    return 0


cdef object _f16 = numpy.dtype(numpy.float16)
cdef object _f32 = numpy.dtype(numpy.float32)
cdef object _f64 = numpy.dtype(numpy.float64)


cdef bint is_float_dtype(dtype):
    return dtype is _f32 or dtype is _f64 or dtype is _f16 or (
        dtype is not None and dtype.kind == 'f')


cdef int check_grad(FunctionNode func, VariableNode x, object gx,
                    bint raw) except -1:
    """Raises if a gradient does not match its variable in dtype or shape."""
    cdef int ndim
    if not raw:
        gx = (<Variable>gx)._data
    if x._dtype is None:
        return 0
    if type(gx) is _ndarray:
        dt = <object>PyArray_DESCR(<PyArrayObject*>gx)
        ndim = PyArray_NDIM(<PyArrayObject*>gx)
        if dt is x._dtype and ndim == x._ndim and ndim <= MAX_DIMS and (
                memcmp(PyArray_DIMS(<PyArrayObject*>gx), x._dims,
                       ndim * sizeof(Py_ssize_t)) == 0):
            return 0
    dt = gx.dtype
    if dt is not x._dtype and dt != x._dtype:
        raise TypeError(
            '%s.backward returned a gradient of dtype %s for an input of '
            'dtype %s' % (func.label, dt, x._dtype))
    shape = tuple(gx.shape)
    if shape != x.shape_tuple():
        index = [i for i, n in enumerate(func._inputs) if n is x]
        raise ValueError(error_message(
            func, 'shape of gradients returned from backward is incorrect: '
            'input-index=%s, actual %s != expected %s'
            % (index[0] if index else None, shape, x.shape_tuple())))
    return 0


def _as_variable(obj):
    """Returns ``obj`` if it is a Variable, else wraps the array in one
    that does not require gradients."""
    if isinstance(obj, Variable):
        return obj
    if not is_array(obj):
        raise TypeError('as_variable expects a Variable or an array, got %s'
                        % _type_name(obj))
    return new_variable(_plain_array(obj, 'Variable data'), False)


cdef extern from *:
    """
    static int chl_set_type_attr(PyObject *tp, PyObject *name,
                                 PyObject *value) {
        /* before the classes are opened to Python code (facts.open_classes) */
        int r = PyDict_SetItem(((PyTypeObject *)tp)->tp_dict, name, value);
        PyType_Modified((PyTypeObject *)tp);
        return r;
    }
    """
    int chl_set_type_attr(object tp, object name, object value) except -1


def _switching_init_subclass(base):
    # The __init_subclass__ of ``base`` (Cython declares none for an
    # extension class): the rest of the chain, then generic_class_attrs.
    def __init_subclass__(cls, **kwargs):
        super(base, cls).__init_subclass__(**kwargs)
        generic_class_attrs(cls)
    return classmethod(__init_subclass__)


for _base in (FunctionNode, Variable):
    chl_set_type_attr(_base, '__init_subclass__', _switching_init_subclass(_base))
del _base, _switching_init_subclass

register_nodes(FunctionNode, BuiltinNode)
