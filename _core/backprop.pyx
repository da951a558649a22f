"""Reverse-mode traversal: ``backward`` and ``grad`` without recursion.

Function nodes are popped from a heap ordered by rank (largest first, ties in
push order), so every consumer of a variable runs before its creator. Pending
gradients live on the VariableNodes and are freed as soon as they are
consumed; leaf gradients are written only once the whole pass succeeded.
"""
from cpython.mem cimport PyMem_Free, PyMem_Realloc
from cpython.ref cimport Py_DECREF, Py_INCREF, PyObject

from chainerlite._core cimport node as _node
from chainerlite._core.config cimport (
    ThreadState, debug_enabled, get_state, set_local_backprop)
from chainerlite._core.hooks cimport (
    BWD_POST, BWD_PRE, HookEntry, active_entries, any_mask, global_entries)
from chainerlite._core.node cimport (
    FunctionNode, Variable, VariableNode, check_finite, check_grad, ensure_array,
    new_variable)

import numpy

cdef unsigned long long _pass_counter = 0
cdef object _ndarray = numpy.ndarray


cdef class _Heap:
    """Max-heap of FunctionNodes keyed by (rank, -push order)."""

    cdef PyObject** items
    cdef long long* keys
    cdef Py_ssize_t n, cap
    cdef long long seq

    def __cinit__(self):
        self.items = NULL
        self.keys = NULL
        self.n = self.cap = 0
        self.seq = 0

    def __dealloc__(self):
        cdef Py_ssize_t i
        for i in range(self.n):
            Py_DECREF(<object>self.items[i])
        PyMem_Free(self.items)
        PyMem_Free(self.keys)

    cdef int push(self, FunctionNode f) except -1:
        cdef Py_ssize_t i, parent
        cdef long long key
        if self.n == self.cap:
            self.cap = 16 if self.cap == 0 else self.cap * 2
            items = <PyObject**>PyMem_Realloc(self.items,
                                              self.cap * sizeof(PyObject*))
            if items == NULL:
                raise MemoryError()
            self.items = items
            keys = <long long*>PyMem_Realloc(self.keys,
                                             self.cap * sizeof(long long))
            if keys == NULL:
                raise MemoryError()
            self.keys = keys
        # rank in the high bits, reversed push order in the low 32 bits
        key = ((<long long>f._rank) << 32) | (0xFFFFFFFF - (self.seq & 0xFFFFFFFF))
        self.seq += 1
        Py_INCREF(f)
        i = self.n
        self.n += 1
        while i > 0:
            parent = (i - 1) >> 1
            if self.keys[parent] >= key:
                break
            self.items[i] = self.items[parent]
            self.keys[i] = self.keys[parent]
            i = parent
        self.items[i] = <PyObject*>f
        self.keys[i] = key
        return 0

    cdef FunctionNode pop(self):
        cdef PyObject* top = self.items[0]
        cdef Py_ssize_t i = 0, child
        self.n -= 1
        cdef PyObject* last = self.items[self.n]
        cdef long long key = self.keys[self.n]
        while True:
            child = 2 * i + 1
            if child >= self.n:
                break
            if child + 1 < self.n and self.keys[child + 1] > self.keys[child]:
                child += 1
            if self.keys[child] <= key:
                break
            self.items[i] = self.items[child]
            self.keys[i] = self.keys[child]
            i = child
        if self.n > 0:
            self.items[i] = last
            self.keys[i] = key
        f = <FunctionNode>top
        Py_DECREF(f)
        return f


cdef int _call_backward_hooks(tuple entries, int bit, FunctionNode f,
                              tuple in_data, tuple out_grad) except -1:
    cdef HookEntry e
    for e in entries:
        if e.current_mask() & bit:
            e.call3(2 if bit == BWD_PRE else 3, f, in_data, out_grad)
    return 0


cdef tuple _hook_in_data(FunctionNode f):
    cdef VariableNode x
    return tuple([x._data for x in f._inputs])


cdef tuple _hook_out_grad(tuple gys, bint raw):
    if raw:
        return gys
    return tuple([None if g is None else (<Variable>g)._data for g in gys])


cdef tuple _as_grad_vars(tuple gys):
    return tuple([None if g is None else new_variable(g, False) for g in gys])


cdef tuple _normalize(FunctionNode f, gxs, tuple indexes):
    if not isinstance(gxs, tuple):
        if isinstance(gxs, list):
            gxs = tuple(gxs)
        else:
            raise TypeError('%s.backward must return a tuple, got %s'
                            % (f.label, type(gxs).__name__))
    cdef Py_ssize_t n = len(gxs)
    if n == len(indexes):
        return gxs
    if n == len(f._inputs):
        return tuple([gxs[i] for i in indexes])
    raise ValueError(_node.grad_count_message(f, n, indexes))


cdef object _unwrap(FunctionNode f, gx, bint raw):
    # In raw mode gradients travel as arrays, otherwise as Variables.
    if gx is None:
        return None
    if isinstance(gx, Variable):
        return ensure_array((<Variable>gx)._data) if raw else gx
    if not _node.is_array(ensure_array(gx)):
        raise TypeError('%s.backward returned %s; expected Variables'
                        % (f.label, type(gx).__name__))
    return ensure_array(gx) if raw else new_variable(ensure_array(gx), False)


cdef tuple _IDX0 = (0,)
cdef tuple _NONE1 = (None,)
cdef tuple _IDX1 = (1,)
cdef tuple _IDX01 = (0, 1)


cdef tuple _target_indexes(tuple inputs):
    """Indexes of the inputs that require gradients (None if there is none)."""
    cdef Py_ssize_t n = len(inputs)
    cdef bint r0, r1
    if n == 1:
        return _IDX0 if (<VariableNode>inputs[0])._requires_grad else None
    if n == 2:
        r0 = (<VariableNode>inputs[0])._requires_grad
        r1 = (<VariableNode>inputs[1])._requires_grad
        if r0:
            return _IDX01 if r1 else _IDX0
        return _IDX1 if r1 else None
    idx = tuple([i for i in range(n) if (<VariableNode>inputs[i])._requires_grad])
    return idx or None


cdef tuple _gather(FunctionNode f, bint retain_grad, list retained):
    """Takes the pending output gradients of ``f`` (None if all are None)."""
    cdef VariableNode y
    cdef Py_ssize_t j
    cdef PyObject* p
    if f._n_out == 1:
        p = f._outs[0]
        if p == NULL:
            return None
        y = <VariableNode>p
        g = y._pgrad
        if g is None:
            return None
        y._pgrad = None
        if retain_grad:
            retained.append((y, g))
        return (g,)
    gys = [None] * f._n_out
    found = False
    for j in range(f._n_out):
        p = f._outs[j]
        if p == NULL:
            continue
        y = <VariableNode>p
        g = y._pgrad
        if g is None:
            continue
        gys[j] = g
        found = True
        y._pgrad = None
        if retain_grad:
            retained.append((y, g))
    return tuple(gys) if found else None


cdef tuple _run_backward(FunctionNode f, tuple indexes, tuple gys, bint raw,
                         ThreadState state):
    cdef int prev = state.enable_backprop
    if raw and f._fast:
        gxs = f._backward_raw(indexes, gys)
        if gxs is not None:
            if len(gxs) == 1:
                gx = gxs[0]
                return gxs if type(gx) is _ndarray else (ensure_array(gx),)
            return tuple([ensure_array(gx) for gx in gxs])
    if raw:
        array_backward = _array_backward(type(f))
        if array_backward is not None:
            gxs = array_backward(f, indexes, gys)
            if gxs is not None:
                gxs = _normalize(f, gxs, indexes)
                return tuple([_unwrap(f, gx, True) for gx in gxs])
    gvars = _as_grad_vars(gys) if raw else gys
    set_local_backprop(state, 0 if raw else 1)
    try:
        gxs = f.backward(indexes, gvars)
    finally:
        set_local_backprop(state, prev)
    gxs = _normalize(f, gxs, indexes)
    return tuple([_unwrap(f, gx, raw) for gx in gxs])


cdef dict _array_backwards = {}


cdef object _array_backward(cls):
    """A Python node's ``_backward_arrays`` method, or None (cached per class).

    Library nodes written in Python may define
    ``_backward_arrays(self, indexes, grad_outputs)`` computing the input
    gradients from the output gradients as raw arrays; it is used instead of
    ``backward`` when no double backprop is requested, so no Variables or
    grad nodes are built. ``backward`` stays the reference (and the path for
    double backprop).
    """
    try:
        return _array_backwards[cls]
    except KeyError:
        fn = getattr(cls, '_backward_arrays', None)
        _array_backwards[cls] = fn
        return fn


cdef tuple _collect_targets(list roots, set stop):
    """Function nodes lying on a path from ``roots`` to a node in ``stop``."""
    cdef FunctionNode f
    cdef VariableNode x
    # Iterative post-order walk; `useful` marks functions that reach `stop`.
    useful = set()
    state = {}
    stack = []
    for r in roots:
        if r is not None and r not in state:
            state[r] = 0
            stack.append(r)
    while stack:
        f = stack[len(stack) - 1]
        if state[f] == 0:
            state[f] = 1
            for x in f._inputs or ():
                c = x._creator
                if c is not None and c not in state and x not in stop:
                    state[c] = 0
                    stack.append(c)
            continue
        stack.pop()
        for x in f._inputs or ():
            if x in stop or (x._creator is not None and x not in stop
                             and x._creator in useful):
                useful.add(f)
                break
    return tuple(useful)


cdef class _Pass:
    """State of one backward pass (a pass may run inside another one)."""

    cdef ThreadState state
    cdef bint raw, retain_grad
    cdef unsigned long long mark
    cdef _Heap heap
    cdef list touched           # nodes that hold a pending gradient
    cdef list leaves            # leaf nodes (or grad() inputs) to write at the end
    cdef list retained          # (node, grad) pairs kept because of retain_grad
    cdef set stop               # grad(): the input nodes
    cdef set allowed            # grad(): functions between outputs and inputs
    cdef tuple entries          # global hook entries with a backward callback
    cdef bint debug             # check gradients for NaN/Inf

    cdef int deliver(self, VariableNode x, gx) except -1:
        """Adds ``gx`` to the pending gradient of ``x`` and schedules its creator."""
        cdef bint first = _accumulate(x, gx, self.raw, self.touched)
        c = x._creator
        if self.stop is not None and x in self.stop:
            if first:
                self.leaves.append(x)
        elif c is None:
            if self.stop is None and first:
                self.leaves.append(x)
        elif (<FunctionNode>c)._bp_mark != self.mark and (
                self.allowed is None or c in self.allowed):
            (<FunctionNode>c)._bp_mark = self.mark
            self.heap.push(c)
        return 0

    cdef bint step_fast(self, FunctionNode f) except -1:
        """Backward of a one-in, one-out built-in node on raw arrays.

        Returns False when ``f`` needs the general path.
        """
        if not (self.raw and f._fast and f._n_out == 1 and not self.debug
                and f._local_hooks is None and f._inputs is not None
                and len(f._inputs) == 1):
            return False
        cdef PyObject* p = f._outs[0]
        if p == NULL:
            return True
        cdef VariableNode y = <VariableNode>p
        g = y._pgrad
        if g is None:
            return True
        y._pgrad = None
        if self.retain_grad:
            self.retained.append((y, g))
        cdef VariableNode x = <VariableNode>f._inputs[0]
        if not x._requires_grad:
            return True
        cdef tuple entries = self.entries
        if entries is None:
            gx = f._backward_raw1(g)
        else:
            in_data = _NONE1 if x._data is None else (x._data,)
            out_grad = (g,)
            _call_backward_hooks(entries, BWD_PRE, f, in_data, out_grad)
            gx = f._backward_raw1(g)
            _call_backward_hooks(entries, BWD_POST, f, in_data, out_grad)
        if type(gx) is not _ndarray:
            gx = ensure_array(gx)
        check_grad(f, x, gx, True)
        self.deliver(x, gx)
        return True

    cdef int step(self, FunctionNode f) except -1:
        """Runs the backward of ``f`` and delivers the input gradients."""
        cdef tuple gys, indexes, entries, gxs
        cdef VariableNode x
        cdef Py_ssize_t j
        if self.step_fast(f):
            return 0
        gys = _gather(f, self.retain_grad, self.retained)
        if gys is None or f._inputs is None:
            return 0
        inputs_t = f._inputs
        indexes = _target_indexes(inputs_t)
        if indexes is None:
            return 0
        entries = self.entries
        if f._local_hooks:
            entries = active_entries(self.state, f._local_hooks)
            if not any_mask(entries):
                entries = None
        if entries is None:
            gxs = _run_backward(f, indexes, gys, self.raw, self.state)
        else:
            in_data = _hook_in_data(f)
            out_grad = _hook_out_grad(gys, self.raw)
            _call_backward_hooks(entries, BWD_PRE, f, in_data, out_grad)
            gxs = _run_backward(f, indexes, gys, self.raw, self.state)
            _call_backward_hooks(entries, BWD_POST, f, in_data, out_grad)
        if self.debug:
            check_finite(f, gxs if self.raw else tuple([
                None if g is None else (<Variable>g)._data for g in gxs]),
                'backward')
        cdef Py_ssize_t k
        for j in range(len(indexes)):
            gx = gxs[j]
            if gx is None:
                continue
            x = <VariableNode>inputs_t[<Py_ssize_t>indexes[j]]
            check_grad(f, x, gx, self.raw)
            if self.raw:
                # one array handed to several inputs must not be aliased
                for k in range(j):
                    if gxs[k] is gx:
                        gx = gx.copy()
                        break
            self.deliver(x, gx)
        return 0


cpdef list backprop(list outputs, list grad_outputs, bint retain_grad,
                    bint enable_double_backprop, loss_scale,
                    list inputs=None, bint set_grad=True):
    """Runs one backward pass.

    Args:
        outputs: Variables to start from.
        grad_outputs: Their gradients (arrays or Variables; None skips one).
        retain_grad: Keep gradients of intermediate variables.
        enable_double_backprop: Build the graph of the backward computation.
        loss_scale: Recorded on the leaf variables that receive gradients.
        inputs: For ``grad()``: the VariableNodes to stop at and return.
        set_grad: Write gradients of leaves (or of ``inputs``) to their
            variables.

    Returns:
        The gradients of ``inputs`` (Variables or None) when given, else None.
    """
    global _pass_counter
    cdef _Pass bp = _Pass.__new__(_Pass)
    cdef Variable var
    cdef VariableNode x
    _pass_counter += 1
    bp.mark = _pass_counter
    bp.state = get_state()
    bp.raw = not enable_double_backprop
    bp.retain_grad = retain_grad
    bp.debug = debug_enabled(bp.state)
    bp.heap = _Heap()
    bp.touched = []
    bp.leaves = []
    bp.retained = []
    if inputs is not None:
        bp.stop = set(inputs)
        bp.allowed = set(_collect_targets(
            [(<Variable>o)._node._creator for o in outputs], bp.stop))
    # Global hooks are resolved once per pass (local ones per node); a hook
    # that overrides no backward callback costs nothing here.
    if bp.state.hooks is not None and len(bp.state.hooks) > 0:
        bp.entries = global_entries(bp.state)
        if not any_mask(bp.entries):
            bp.entries = None
    try:
        for var, g in zip(outputs, grad_outputs):
            if g is not None:
                bp.deliver(var._node, _unwrap_seed(g, bp.raw))
        while bp.heap.n:
            bp.step(bp.heap.pop())
        return _finish(bp.leaves, bp.retained, bp.raw, loss_scale, inputs,
                       set_grad)
    finally:
        for x in bp.touched:
            x._pgrad = None


cdef object _scaled_seed(g, loss_scale):
    # NumPy 1 would turn a 0-d float32 seed times a Python float into
    # float64; the seed keeps its dtype.
    if isinstance(g, Variable):
        return g * loss_scale
    return (g * loss_scale).astype(g.dtype, copy=False)


cdef object _unwrap_seed(g, bint raw):
    if isinstance(g, Variable):
        return (<Variable>g)._data if raw else g
    return g if raw else new_variable(g, False)


cdef int _accumulate(VariableNode x, gx, bint raw, list touched) except -1:
    if x._pgrad is None:
        x._pgrad = gx
        touched.append(x)
        return 1
    x._pgrad = ensure_array(x._pgrad + gx) if raw else x._pgrad + gx
    return 0


cdef list _finish(list leaves, list retained, bint raw, loss_scale,
                  list inputs, bint set_grad):
    cdef VariableNode x
    cdef Variable var
    for x, g in retained:
        if x._variable != NULL:
            var = <Variable>x._variable
            var._grad_var = new_variable(g, False) if raw else g
    if inputs is not None:
        result = []
        for x in inputs:
            g = x._pgrad
            gv = None if g is None else (new_variable(g, False) if raw else g)
            result.append(gv)
            if set_grad and x._variable != NULL:
                (<Variable>x._variable)._grad_var = gv
        return result
    for x in leaves:
        if x._variable == NULL:
            continue
        var = <Variable>x._variable
        g = x._pgrad
        _add_to_grad(var, new_variable(g, False) if raw else g, raw)
        if loss_scale is not None:
            var._loss_scale = loss_scale
    return None


cdef int _add_to_grad(Variable var, gv, bint raw) except -1:
    old = var._grad_var
    if old is None:
        var._grad_var = gv
    elif raw:
        var._grad_var = new_variable(
            ensure_array((<Variable>old)._data + (<Variable>gv)._data), False)
    else:
        var._grad_var = old + gv
    return 0


def backward(outputs, grad_outputs=None, **kwargs):
    """Runs backprop from several variables at once.

    Args:
        outputs (tuple or list of Variable): Variables to start from.
        grad_outputs (tuple or list): Their initial gradients (arrays or
            Variables). When omitted (or for a None element) the output's
            own ``grad_var`` is used; an output without one is skipped.
        enable_double_backprop (bool): Build a graph of the backward pass.
    """
    enable_double_backprop = kwargs.pop('enable_double_backprop', False)
    for name in ('retain_grad', 'loss_scale'):
        if name in kwargs:
            raise ValueError('chainerlite.backward does not support the %s '
                             'option; use Variable.backward' % name)
    if kwargs:
        raise TypeError('backward() got unexpected keyword arguments: %s'
                        % ', '.join(sorted(kwargs)))
    outputs = _check_sequence(outputs, 'outputs', True)
    if grad_outputs is None:
        grads = [None] * len(outputs)
    else:
        grads = _check_sequence(grad_outputs, 'grad_outputs', False)
        if len(grads) != len(outputs):
            raise ValueError('backward(): %d grad_outputs for %d outputs'
                             % (len(grads), len(outputs)))
    grads = [(<Variable>o)._grad_var if g is None else g
             for o, g in zip(outputs, grads)]
    backprop(outputs, grads, False, enable_double_backprop, None)


cdef list _check_sequence(seq, str what, bint variables):
    if not isinstance(seq, (tuple, list)):
        raise TypeError('%s must be a tuple or a list, not %s'
                        % (what, type(seq).__name__))
    if variables:
        for v in seq:
            if not isinstance(v, Variable):
                raise TypeError('elements of %s must be Variables, not %s'
                                % (what, type(v).__name__))
    return list(seq)


def grad(outputs, inputs, grad_outputs=None, grad_inputs=None, set_grad=False,
         retain_grad=False, enable_double_backprop=False, loss_scale=None):
    """Computes the gradients of ``outputs`` with respect to ``inputs``.

    Only the part of the graph between them is traversed; gradients of other
    leaves are left untouched. With ``set_grad`` the results also replace
    the inputs' ``grad``. Backward hooks fire as in
    :meth:`Variable.backward`.

    Args:
        outputs (tuple or list of Variable): Targets of differentiation.
        inputs (tuple or list of Variable): Variables to differentiate by.
        grad_outputs (tuple or list): Initial gradients of the outputs; a
            None (or omitting the argument) stands for an array of ones.
        grad_inputs (tuple or list): Initial gradients of the inputs, added
            to the results.
        set_grad (bool): Also store the results in the inputs' ``grad``.
        retain_grad (bool): Keep gradients of intermediate variables.
        enable_double_backprop (bool): Build a graph of the backward pass.
        loss_scale (float): Multiplies the initial gradients.

    Returns:
        list of Variable: One gradient per input (None when unreachable).
    """
    outputs = _check_sequence(outputs, 'outputs', True)
    inputs = _check_sequence(inputs, 'inputs', True)
    if grad_outputs is None:
        grad_outputs = [None] * len(outputs)
    grads = _check_sequence(grad_outputs, 'grad_outputs', False)
    if len(grads) != len(outputs):
        raise ValueError('grad(): %d grad_outputs for %d outputs'
                         % (len(grads), len(outputs)))
    grads = [(<Variable>o).xp.ones_like((<Variable>o)._data) if g is None
             else g for o, g in zip(outputs, grads)]
    if loss_scale is not None:
        grads = [_scaled_seed(g, loss_scale) for g in grads]
    nodes = [(<Variable>v)._node for v in inputs]
    if grad_inputs is not None:
        grad_inputs = list(grad_inputs)
        if len(grad_inputs) != len(inputs):
            raise ValueError('grad(): %d grad_inputs for %d inputs'
                             % (len(grad_inputs), len(inputs)))
        # seed the inputs' own gradients: they are summed into the results
        outputs = outputs + inputs
        grads = grads + grad_inputs
    return backprop(outputs, grads, retain_grad, enable_double_backprop,
                    loss_scale, nodes, set_grad)


from chainerlite._core.node import _register  # noqa: E402

_register('backprop', backprop)
