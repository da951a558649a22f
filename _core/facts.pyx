"""One record of facts per class, computed in one place.

The core asks, per op, what a node class declares (its dtype kinds, whether
it has its own type check, backward_accumulate or compiled grads), whether
a Python class has its own attribute hooks, which callbacks a hook class
overrides, and the TimerHook which name to file a node under. All of it is
a :class:`ClassFacts`, computed by :func:`_compute` and kept in one table.

The one invalidation rule is CPython's: a class's ``tp_version_tag``
changes whenever the class or one of its bases is modified (a method,
check or callback replaced on it), and a tag is never given to another
class. A record is found by the class's current tag, so a modification
takes effect on the next op. Records hold no reference to the class
(classes made at run time can be freed); a class without a tag (0) is
recomputed on every ask.

The compiled classes are opened (:func:`open_classes`) so that Python code
can set and delete their attributes as it can on Chainer's pure-Python
classes; CPython then marks the class modified, and the facts record which
of the methods the engine calls in C (``apply``, ``forward``, ``backward``,
``backward_accumulate``, ``check_type_forward``) are no longer the compiled
ones, so the engine calls the replacement through Python instead.
"""
from cpython.object cimport PyObject

import types

cdef extern from "numpy/ndarraytypes.h":
    ctypedef struct PyArrayObject:
        pass
    ctypedef struct PyArray_Descr:
        char kind
    PyObject* PyArray_DESCR(PyArrayObject* arr)
    int PyArray_NDIM(PyArrayObject* arr)
    Py_ssize_t* PyArray_DIMS(PyArrayObject* arr)

import numpy

from chainerlite._core.handover cimport FUNCTION_HOOK, TYPE_CHECK, provided

cdef object _ndarray = numpy.ndarray
cdef object _MethodType = types.MethodType

cdef tuple _CALLBACKS = ('forward_preprocess', 'forward_postprocess',
                         'backward_preprocess', 'backward_postprocess')
cdef tuple _ATTR_HOOKS = ('__getattr__', '__getattribute__', '__setattr__',
                          '__delattr__')
cdef unsigned long _HEAPTYPE = 1 << 9   # Py_TPFLAGS_HEAPTYPE

cdef extern from *:
    """
    static void chl_open_type(PyObject *tp) {
        /* A static type is immutable from Python (type_setattro refuses
           it) only because of this flag; its dict, method cache and slot
           updates work as for a class written in Python. */
        ((PyTypeObject *)tp)->tp_flags &= ~Py_TPFLAGS_IMMUTABLETYPE;
    }
    """
    void chl_open_type(object tp)

# registered at import by the modules that define them
cdef type _function_node = None
cdef type _builtin_node = None
cdef type _compiled_hook = None
cdef tuple _compiled_callbacks = ()


# what FunctionNode and BuiltinNode define for the methods the engine calls
# in C, as compiled: anything else found there is a replacement
cdef object _apply, _check, _impl_name, _forward, _backward


cdef int register_nodes(type function_node, type builtin_node) except -1:
    global _function_node, _builtin_node, _apply, _check, _impl_name
    global _forward, _backward
    _function_node = function_node
    _builtin_node = builtin_node
    d = function_node.__dict__
    _apply = d['apply']
    _check = d['check_type_forward']
    _impl_name = d['_impl_name']
    d = builtin_node.__dict__
    _forward = d['forward']
    _backward = d['backward']
    return 0


def class_flags(type cls):
    """The names of the flags that the facts of ``cls`` hold now, e.g.
    ``CALL_REPLACED`` while an ``apply`` or ``forward`` replaced on a
    compiled node class (or its base) is in effect."""
    cdef int flags = class_facts(cls).flags
    return frozenset([name for name, bit in _FLAG_NAMES if flags & bit])


cdef tuple _FLAG_NAMES = (
    ('COMPILED_GRADS', COMPILED_GRADS), ('ACCUMULATES', ACCUMULATES),
    ('OWN_TYPE_CHECK', OWN_TYPE_CHECK), ('OWN_ATTR_HOOKS', OWN_ATTR_HOOKS),
    ('PLAIN_IMPL_NAME', PLAIN_IMPL_NAME), ('CALL_REPLACED', CALL_REPLACED),
    ('USER_NODE', USER_NODE))


def open_classes(module):
    """Lets Python code set and delete the attributes of the classes that
    the compiled ``module`` defines under public names (Chainer's classes
    are plain Python classes: code patches their methods, mock.patch.object
    included)."""
    for name, obj in vars(module).items():
        if (isinstance(obj, type) and not name.startswith('_')
                and obj.__module__ == module.__name__):
            chl_open_type(obj)


cdef int register_compiled_hook(type compiled_hook,
                                tuple callbacks) except -1:
    global _compiled_hook, _compiled_callbacks
    _compiled_hook = compiled_hook
    _compiled_callbacks = callbacks
    return 0


cdef class ClassFacts:
    """Facts about one class (see the module docstring)."""


# Asked on every op, so a direct-mapped table instead of a dict: slot
# ``tag % SLOTS`` holds the record of one class (two classes that share a
# slot take turns).
DEF SLOTS = 256
cdef unsigned int _tags[SLOTS]
cdef list _records = [None] * SLOTS


cdef ClassFacts class_facts(type cls):
    """The facts of ``cls`` as it is now."""
    cdef unsigned int tag = type_tag(cls)
    cdef Py_ssize_t slot = tag % SLOTS
    if tag != 0 and _tags[slot] == tag:
        return <ClassFacts>_records[slot]
    cdef ClassFacts facts = _compute(cls)
    if facts.tag != 0:
        slot = facts.tag % SLOTS
        _tags[slot] = facts.tag
        _records[slot] = facts
    return facts


cdef ClassFacts _compute(type cls):
    cdef ClassFacts facts = ClassFacts.__new__(ClassFacts)
    cdef int flags = 0
    if own_attr_hooks(cls):
        flags |= OWN_ATTR_HOOKS
    if _function_node is not None and issubclass(cls, _function_node):
        flags |= _node_flags(cls)
        facts.kinds = _declared_kinds(cls)
        check = getattr(cls, 'check_type_forward', None)
        if type(check) is Contract:
            facts.contract = check
    else:
        _hook_facts(cls, facts)
    facts.flags = flags
    # the type lookups above give the class a tag if it had none
    facts.tag = type_tag(cls)
    return facts


cdef bint own_attr_hooks(type cls):
    # Python classes up to the first compiled one (object's functions, put
    # in a switched class by node.pyx, are no hooks of its own)
    for klass in cls.__mro__:
        if not (<type>klass).__flags__ & _HEAPTYPE:
            break
        d = klass.__dict__
        for name in _ATTR_HOOKS:
            if name in d and d[name] is not _OBJECT_DICT.get(name):
                return True
    return False


cdef object _OBJECT_DICT = object.__dict__


cdef object _resolve(type cls, str name):
    # what the class attribute ``name`` of ``cls`` is, as stored (a
    # function, a property): the first of its classes that holds one
    for klass in cls.__mro__:
        d = klass.__dict__
        if name in d:
            return d[name]
    return None


cdef int _node_flags(type cls) except -1:
    cdef int flags = 0
    if _resolve(cls, 'check_type_forward') is not _check:
        flags |= OWN_TYPE_CHECK
    cdef bint builtin = issubclass(cls, _builtin_node)
    cdef bint replaced = _resolve(cls, 'apply') is not _apply
    if builtin and (replaced or _resolve(cls, 'forward') is not _forward):
        flags |= CALL_REPLACED
    # as in Chainer, a backward_accumulate patched on FunctionNode itself
    # is the base's and is not called: only one of a subclass is
    if (_resolve(cls, 'backward_accumulate')
            is not _resolve(_function_node, 'backward_accumulate')):
        flags |= ACCUMULATES
    elif (builtin and _resolve(cls, 'backward') is _backward
            and not _base_replaced()):
        # a subclass or a patch that replaces backward keeps its semantics;
        # grad nodes applied to arrays would skip an apply or forward
        # replaced on the base they share
        flags |= COMPILED_GRADS
    if _resolve(cls, '_impl_name') is _impl_name:
        flags |= PLAIN_IMPL_NAME
    if not (getattr(cls, '__module__', None) or '').startswith('chainerlite.'):
        flags |= USER_NODE
    return flags


cdef bint _base_replaced():
    return (_resolve(_builtin_node, 'apply') is not _apply
            or _resolve(_builtin_node, 'forward') is not _forward)


cdef bytes _declared_kinds(type cls):
    # The declaration sits on the check itself: a subclass or a patch that
    # replaces the check declares nothing.
    check = getattr(cls, 'check_type_forward', None)
    if type(check) is KindsCheck:
        return (<KindsCheck>check).codes
    return None


cdef tuple _base_funcs = None


cdef tuple _base_callbacks():
    # FunctionHook's own callbacks, which do nothing, as first read: one
    # patched on FunctionHook itself is an override like any other
    global _base_funcs
    if _base_funcs is None:
        base = provided(FUNCTION_HOOK).__dict__
        _base_funcs = tuple([base[name] for name in _CALLBACKS])
    return _base_funcs


cdef int _hook_facts(type cls, ClassFacts facts) except -1:
    # which callbacks the class overrides (a class that has none of them is
    # no hook: Variable, ...)
    cdef list funcs = [getattr(cls, name, None) for name in _CALLBACKS]
    if funcs == [None] * 4:
        return 0
    cdef int bit = 1, i
    cdef tuple base = _base_callbacks()
    compiled = _compiled_hook is not None and issubclass(cls, _compiled_hook)
    for i in range(4):
        func = funcs[i]
        if func is not base[i]:
            facts.hook_mask |= bit
            if compiled and func is _compiled_callbacks[i]:
                facts.hook_direct |= bit
        bit <<= 1
    if getattr(cls, 'forward_postprocess_out_data', False):
        facts.hook_mask |= FWD_POST_OUT
    return 0


cdef bint kinds_match(bytes kinds, Py_ssize_t n, x0, x1, x2):
    """Whether the ``n`` input arrays (x1, x2: None if absent) are of the
    declared ``kinds``, which their declared check then accepts."""
    if kinds is None or n != len(kinds):
        return False
    cdef const char* want = kinds
    cdef Py_ssize_t i
    for i in range(n):
        a = x0 if i == 0 else (x1 if i == 1 else x2)
        if type(a) is _ndarray:
            if (<PyArray_Descr*>PyArray_DESCR(<PyArrayObject*>a)).kind \
                    != want[i]:
                return False
        else:
            dtype = getattr(a, 'dtype', None)
            if dtype is None or ord(dtype.kind) != want[i]:
                return False
    return True


cdef class KindsCheck:
    """A ``check_type_forward`` that asks for inputs of given dtype kinds.

    Made by ``type_check.declare_kinds``; the one statement of such a
    contract. As a method it runs the full check (names, count, kinds) with
    ``type_check``'s messages; the core reads the same declaration to let
    inputs of those kinds skip it (kinds_match).
    """

    cdef readonly tuple names
    cdef readonly str kinds
    cdef bytes codes

    def __init__(self, tuple names, str kinds):
        if len(names) != len(kinds) or not names or not kinds.isascii():
            raise ValueError('KindsCheck needs one ASCII dtype kind per '
                             'input name; got %r and %r' % (names, kinds))
        self.names = names
        self.kinds = kinds
        self.codes = kinds.encode('ascii')

    def __get__(self, obj, objtype):
        if obj is None:
            return self
        return _MethodType(self, obj)

    def __call__(self, node, in_types):
        type_check = provided(TYPE_CHECK)
        type_check._argname(in_types, self.names)
        type_check.expect(*[in_types[i].dtype.kind == k
                            for i, k in enumerate(self.kinds)])

    def __repr__(self):
        return 'declare_kinds(%s)' % ', '.join(
            '%s=%r' % item for item in zip(self.names, self.kinds))


cdef inline object _input(Py_ssize_t i, x0, x1, x2):
    return x0 if i == 0 else (x1 if i == 1 else x2)


cdef class Contract:
    """A ``check_type_forward`` stated as a declaration: the one statement
    of a node's type contract.

    It names the inputs (the last ``optional`` of them may be absent) and
    declares, per input, a dtype kind and a number of dimensions, and
    between inputs equal dtypes, equal dimensions and broadcastable shapes.
    As a method it runs the full check with ``type_check``'s messages, in
    a fixed order: the count, the names, then the kinds, dtypes, ndims,
    dimensions and shapes of the inputs always given, then those that
    involve an optional input. :meth:`accepts` reads the same declaration
    in C for the core, which lets inputs it accepts skip the check.

    Args:
        names (tuple of str or None): Input names for the messages (None:
            ``in_types[i]``; then ``optional`` must be 0).
        count (int): The number of inputs, optional ones included.
        optional (int): How many of the last inputs may be absent.
        kinds (str): A dtype kind per input, ``'.'`` for any.
        same (tuple): ``(i, j)`` pairs: input i's dtype equals input j's.
        ndims (tuple): ``(i, ndim)`` pairs.
        dims (tuple): ``(i, a, j, b)``: ``shape[a]`` of input i equals
            ``shape[b]`` of input j.
        broadcast (bool): The shapes of inputs 0 and 1 broadcast together.
        axes, size, to_shape (str): For one input, the name of a node
            attribute: the axes (None or a tuple of ints) that must be in
            range of its ndim, the shape (with at most one -1) its size
            must fit, the shape it must broadcast to.
    """

    def __init__(self, names=None, count=None, int optional=0, str kinds='',
                 tuple same=(), tuple ndims=(), tuple dims=(),
                 bint broadcast=False, str axes=None, str size=None,
                 str to_shape=None):
        if count is None:
            count = len(names) if names is not None else len(kinds)
        if (not 0 < count <= 3 or not 0 <= optional < count
                or (names is None and optional)
                or (names is not None and len(names) != count)
                or len(kinds) not in (0, count) or not kinds.isascii()
                or len(same) > 3 or len(dims) > 3
                or (broadcast and count < 2)
                or ((axes or size or to_shape) and count != 1)):
            raise ValueError('Contract: inconsistent declaration')
        self.names = None if names is None else tuple(names)
        self.count = count
        self.optional = optional
        self.kinds = kinds or '.' * count
        self.same = same
        self.ndims = ndims
        self.dims = dims
        self.broadcast = broadcast
        self.axes = axes
        self.size = size
        self.to_shape = to_shape
        self._typed = bool(self.kinds.strip('.') or same or ndims or dims
                           or broadcast or axes or size or to_shape)
        cdef int i
        for i in range(3):
            self._kinds[i] = 0 if i >= count or self.kinds[i] == '.' \
                else ord(self.kinds[i])
            self._ndims[i] = -1
        for i, nd in ndims:
            self._ndims[i] = nd
        self._n_same = len(same)
        for k, (i, j) in enumerate(same):
            self._same[k][0] = i
            self._same[k][1] = j
        self._n_dims = len(dims)
        for k, (i, a, j, b) in enumerate(dims):
            self._dims[k][0] = i
            self._dims[k][1] = a
            self._dims[k][2] = j
            self._dims[k][3] = b

    def __get__(self, obj, objtype):
        if obj is None:
            return self
        return _MethodType(self, obj)

    cdef bint accepts(self, node, Py_ssize_t n, x0, x1, x2):
        """Whether the ``n`` input arrays (x1, x2: None if absent) surely
        pass the declared check (False where unsure: a declaration of more
        than the count on arrays that are not NumPy's)."""
        if n > self.count or n < self.count - self.optional:
            return False
        if not self._typed:
            return True
        cdef Py_ssize_t i, j, k, a, b
        for i in range(n):
            x = _input(i, x0, x1, x2)
            if type(x) is not _ndarray:
                return False
            if self._kinds[i] and (<PyArray_Descr*>PyArray_DESCR(
                    <PyArrayObject*>x)).kind != self._kinds[i]:
                return False
            if self._ndims[i] >= 0 and \
                    PyArray_NDIM(<PyArrayObject*>x) != self._ndims[i]:
                return False
        for k in range(self._n_same):
            i, j = self._same[k][0], self._same[k][1]
            if i >= n or j >= n:
                continue
            xi, xj = _input(i, x0, x1, x2), _input(j, x0, x1, x2)
            if PyArray_DESCR(<PyArrayObject*>xi) != \
                    PyArray_DESCR(<PyArrayObject*>xj):
                return False
        for k in range(self._n_dims):
            i, a = self._dims[k][0], self._dims[k][1]
            j, b = self._dims[k][2], self._dims[k][3]
            if i >= n or j >= n:
                continue
            xi, xj = _input(i, x0, x1, x2), _input(j, x0, x1, x2)
            if (a >= PyArray_NDIM(<PyArrayObject*>xi)
                    or b >= PyArray_NDIM(<PyArrayObject*>xj)
                    or PyArray_DIMS(<PyArrayObject*>xi)[a]
                    != PyArray_DIMS(<PyArrayObject*>xj)[b]):
                return False
        if self.broadcast and not _broadcastable(x0, x1):
            return False
        if self.axes is not None:
            return _axes_fit(x0, getattr(node, self.axes))
        if self.size is not None:
            shape = getattr(node, self.size)
            return -1 not in shape and <object>_size(x0) == _product(shape)
        if self.to_shape is not None:
            return _fits(x0, getattr(node, self.to_shape))
        return True

    def fast_accepts(self, node, *arrays):
        """What the core's fast path decides for these input arrays of
        ``node``: True lets them skip the check."""
        cdef Py_ssize_t n = len(arrays)
        return n <= 3 and self.accepts(
            node, n, arrays[0] if n > 0 else None, arrays[1] if n > 1 else None,
            arrays[2] if n > 2 else None)

    def __call__(self, node, in_types):
        type_check = provided(TYPE_CHECK)
        cdef int n = self.count
        if self.optional:
            n_in = in_types.size()
            type_check.expect(self.count - self.optional <= n_in,
                              n_in <= self.count)
            n = type_check.eval(n_in)
        elif self.names is None:
            type_check.expect(in_types.size() == n)
        if self.names is not None:
            type_check._argname(in_types, self.names[:n])
        cdef int given = self.count - self.optional
        self._expect(type_check, in_types, 0, given)
        if n > given:
            self._expect(type_check, in_types, given, n)
        if self.axes is not None:
            expect_axes(in_types[0], getattr(node, self.axes))
        elif self.size is not None:
            _expect_size(type_check, in_types[0], getattr(node, self.size))
        elif self.to_shape is not None:
            _expect_fits(type_check, in_types[0],
                         getattr(node, self.to_shape))

    cdef _expect(self, type_check, in_types, int lo, int hi):
        # the clauses whose highest input is in [lo, hi)
        terms = []
        for i in range(lo, hi):
            if self.kinds[i] != '.':
                terms.append(in_types[i].dtype.kind == self.kinds[i])
        for i, j in self.same:
            if lo <= max(i, j) < hi:
                terms.append(in_types[i].dtype == in_types[j].dtype)
        for i, nd in self.ndims:
            if lo <= i < hi:
                terms.append(in_types[i].ndim == nd)
        for i, a, j, b in self.dims:
            if lo <= max(i, j) < hi:
                terms.append(in_types[i].shape[a] == in_types[j].shape[b])
        if terms:
            type_check.expect(*terms)
        if self.broadcast and lo <= 1 < hi:
            type_check.expect_broadcast_shapes(in_types[0].shape,
                                               in_types[1].shape)

    def __repr__(self):
        return 'Contract(names=%r, kinds=%r)' % (self.names, self.kinds)


cdef bint _broadcastable(x, y):
    cdef int nx = PyArray_NDIM(<PyArrayObject*>x)
    cdef int ny = PyArray_NDIM(<PyArrayObject*>y)
    cdef Py_ssize_t* dx = PyArray_DIMS(<PyArrayObject*>x)
    cdef Py_ssize_t* dy = PyArray_DIMS(<PyArrayObject*>y)
    cdef int k
    for k in range(1, min(nx, ny) + 1):
        if dx[nx - k] != dy[ny - k] and dx[nx - k] != 1 and dy[ny - k] != 1:
            return False
    return True


cdef bint _axes_fit(x, axis):
    if axis is None:
        return True
    ndim = <object>PyArray_NDIM(<PyArrayObject*>x)
    for a in axis:
        if not -ndim <= a < ndim:
            return False
    return True


def expect_axes(x_type, axis):
    """Type check: each axis of the normalized ``axis`` (None or a tuple
    of ints) is in range for ``x_type``."""
    if axis is None:
        return
    type_check = provided(TYPE_CHECK)
    for a in axis:
        if a >= 0:
            type_check.expect(a < x_type.ndim)
        else:
            type_check.expect(-a - 1 < x_type.ndim)


cdef Py_ssize_t _size(x):
    cdef Py_ssize_t k, total = 1
    for k in range(PyArray_NDIM(<PyArrayObject*>x)):
        total *= PyArray_DIMS(<PyArrayObject*>x)[k]
    return total


cdef object _product(shape):
    size = 1
    for d in shape:
        size *= d
    return size


cdef _expect_size(type_check, x_type, tuple shape):
    known_size = _product([d for d in shape if d != -1])
    if -1 in shape:
        if known_size != 0:
            type_check.expect(x_type.size % known_size == 0)
    else:
        type_check.expect(x_type.size == known_size)


cdef bint _fits(x, tuple shape) except -1:
    # whether the NumPy array x broadcasts to shape (no: a size that is no
    # Py_ssize_t, which the full check then names)
    cdef int nd = PyArray_NDIM(<PyArrayObject*>x)
    cdef Py_ssize_t i, n, lead = len(shape) - nd
    if lead < 0:
        return False
    try:
        for i in range(nd):
            n = PyArray_DIMS(<PyArrayObject*>x)[i]
            if n != 1 and n != <Py_ssize_t>shape[lead + i]:
                return False
    except (OverflowError, TypeError):
        return False
    return True


cdef _expect_fits(type_check, x_type, tuple shape):
    ndim = type_check.eval(x_type.ndim)
    type_check.expect(x_type.ndim <= len(shape))
    for i in range(-ndim, 0):
        dim = type_check.eval(x_type.shape[i])
        if dim != 1 and dim != shape[i]:
            raise type_check.InvalidType(
                'in_types[0].shape[{}] == 1 or in_types[0].shape[{}] == {}'
                .format(i, i, shape[i]),
                'in_types[0].shape[{}] == {}'.format(i, dim))
