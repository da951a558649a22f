"""Reverse-mode traversal: ``backward`` and ``grad`` without recursion.

Function nodes are popped from a heap ordered by rank (largest first, ties in
push order), so every consumer of a variable runs before its creator. Pending
gradients live in the pass (never on the shared graph, so threads may run
passes over one graph) and are freed as soon as they are consumed; leaf
gradients are written only once the whole pass succeeded.
"""
from cpython.dict cimport PyDict_SetDefault
from cpython.mem cimport PyMem_Free, PyMem_Realloc
from cpython.pythread cimport PyThread_get_thread_ident
from cpython.ref cimport Py_DECREF, Py_INCREF, PyObject

from chainerlite._core cimport node as _node
from chainerlite._core.config cimport (
    ThreadState, debug_enabled, get_state, retain_graph_enabled,
    set_local_backprop)
from chainerlite._core.facts cimport (
    ACCUMULATES, BWD_POST, BWD_PRE, COMPILED_GRADS, USER_NODE)
from chainerlite._core.handover cimport TYPE_CHECK, provided
from chainerlite._core.hooks cimport (
    active_entries, any_mask, dispatch, global_entries)
from chainerlite._core.ops_math cimport grad_add
from chainerlite._core.ready cimport ReadyGrads
from chainerlite._core.node cimport (
    BuiltinNode, FunctionNode,
    Variable, VariableNode, check_finite, check_grad, ensure_array, is_array,
    new_variable, node_flags)

import warnings

import numpy

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
        # any sequence, as Chainer 7.8.1 takes it: a list, but also a bare
        # Variable (its rows; their count rarely matches) or None (TypeError)
        gxs = tuple(gxs)
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
    if node_flags(f) & USER_NODE:
        _refuse_grad(f, gx)
    if not _node.is_array(ensure_array(gx)):
        raise TypeError('%s.backward returned %s; expected Variables'
                        % (f.label, type(gx).__name__))
    return ensure_array(gx) if raw else new_variable(ensure_array(gx), False)


cdef int _refuse_grad(FunctionNode f, gx) except -1:
    # A gradient that is neither a Variable nor None, from a user's node:
    # Chainer 7.8.1 refuses it in debug mode (ValueError) and otherwise
    # fails on the missing Variable attribute (AttributeError).
    if debug_enabled(get_state()):
        raise ValueError(f._get_error_message(
            'type of gradients returned from backward is incorrect: '
            '%s != expected %s' % (type(gx), Variable)))
    raise AttributeError(
        '%s.backward returned a %s, not a Variable (or None): a backward '
        'gives its gradients as Variables' % (f.label, type(gx).__name__))


cdef tuple _IDX0 = (0,)
cdef tuple _NONE1 = (None,)
cdef tuple _IDX1 = (1,)
cdef tuple _IDX01 = (0, 1)


cdef tuple _run_backward(FunctionNode f, tuple indexes, tuple gys, bint raw,
                         ThreadState state, tuple current):
    """The input gradients of ``f`` for ``indexes``, as the pass holds them.

    One path whether or not hooks are registered: a compiled node runs its
    ``grads`` on the arrays of a raw pass (its grad nodes run compute-only
    and report to this thread's forward hooks, see apply_nested); any other
    node, or a double-backprop pass, runs ``backward`` on Variables (with
    backprop off in a raw pass, so the grad nodes it applies build no
    graph). ``current``: for a node that overrides ``backward_accumulate``,
    the gradients the targets have so far.
    """
    cdef int prev = state.enable_backprop
    if raw and current is None and (
            node_flags(f) & COMPILED_GRADS):
        return _arrays_of(f, (<BuiltinNode>f).grads(indexes, gys), indexes)
    gvars = _as_grad_vars(gys) if raw else gys
    set_local_backprop(state, 0 if raw else 1)
    try:
        if current is None:
            gxs = f.backward(indexes, gvars)
        else:
            gxs = f.backward_accumulate(
                indexes, gvars, _as_grad_vars(current) if raw else current)
    except Exception as e:
        _tell_where_applied(f, e)
        raise
    finally:
        set_local_backprop(state, prev)
    gxs = _normalize(f, gxs, indexes)
    return tuple([_unwrap(f, gx, raw) for gx in gxs])


cdef int _tell_where_applied(FunctionNode f, e) except -1:
    # A node applied in debug mode keeps its stack: as in Chainer, an error
    # from its backward ends with where the node was applied.
    stack = f.stack
    if stack is None:
        return 0
    import shutil
    import traceback
    more = '\n%s\nStacktrace of the function is below:\n%s' % (
        '-' * shutil.get_terminal_size()[0],
        ''.join(traceback.format_list(stack)))
    if not e.args:
        e.args = (more,)
    elif isinstance(e.args[0], str):
        e.args = (e.args[0] + more,) + e.args[1:]
    return 0


cdef inline object _backward1(FunctionNode f, tuple gys, ThreadState state,
                              int facts):
    # _run_backward of a raw pass for a one-in, one-out node that does not
    # accumulate (step_fast checked that): the input gradient array, from
    # the 1-tuple of the output gradient array
    if facts & COMPILED_GRADS:
        gxs = (<BuiltinNode>f).grads(_IDX0, gys)
        if type(gxs) is tuple and len(<tuple>gxs) == 1:
            gx = (<tuple>gxs)[0]
            if type(gx) is _ndarray:
                return gx
        return _arrays_of(f, gxs, _IDX0)[0]
    return _backward_var1(f, new_variable(gys[0], False), state)


cdef object _backward_var1(FunctionNode f, Variable gy, ThreadState state):
    # _backward1 of a node whose backward runs in Python, given the output
    # gradient in the Variable handed to it
    cdef int prev = state.enable_backprop
    set_local_backprop(state, 0)
    try:
        gxs = f.backward(_IDX0, (gy,))
    except Exception as e:
        _tell_where_applied(f, e)
        raise
    finally:
        set_local_backprop(state, prev)
    if type(gxs) is tuple and len(<tuple>gxs) == 1:
        gx = (<tuple>gxs)[0]
        if type(gx) is Variable and type((<Variable>gx)._data) is _ndarray:
            return (<Variable>gx)._data
    return _unwrap(f, _normalize(f, gxs, _IDX0)[0], True)


cdef tuple _arrays_of(FunctionNode f, gxs, tuple indexes):
    # what a backward gave, as a tuple of arrays (None entries kept)
    if type(gxs) is tuple and len(<tuple>gxs) == len(indexes):
        for gx in <tuple>gxs:
            if type(gx) is not _ndarray:
                break
        else:
            return <tuple>gxs
    gxs = _normalize(f, gxs, indexes)
    return tuple([_unwrap(f, gx, True) for gx in gxs])


cdef class _Pass:
    """State of one backward pass (a pass may run inside another one).

    Everything a pass writes lives here, never on the graph: two threads may
    run passes over graphs that share nodes.
    """

    cdef ThreadState state
    cdef bint raw, retain_grad
    cdef bint release           # free what each node retained once it ran
    cdef bint load_grads        # backward(): a node's own grad joins at first use
    cdef _Heap heap
    cdef dict grads             # VariableNode -> pending gradient
    cdef set seen               # nodes with several outputs already scheduled
    cdef list leaves            # backward(): leaves that received a gradient
    cdef list loaded            # backward(): (variable, grad) taken from leaves
    cdef list retained          # (node, grad) pairs kept because of retain_grad
    cdef set required           # grad(): nodes on a path from the inputs
    cdef set wanted             # grad(): the input nodes
    cdef dict found             # grad(): gradient of an input taken by its creator
    cdef dict seeds             # grad(): grad_inputs, joined when an input is taken
    cdef tuple entries          # global hook entries with a backward callback
    cdef bint debug             # check gradients for NaN/Inf
    cdef object loss_scale      # backward(): recorded on the leaves

    cdef int deliver(self, VariableNode x, gx) except -1:
        """Adds ``gx`` to the pending gradient of ``x`` and schedules its creator.

        A creator is scheduled when one of its outputs gets its first
        pending gradient; a node with one output needs no further check.
        The first gradient of a node joins what the node starts from (see
        start), as Chainer's backward adds them: by an Add node.
        """
        cdef bint first = self.add(x, gx)
        cdef FunctionNode c = x._creator
        if first:
            initial = self.start(x)
            if initial is not None:
                self.grads[x] = grad_add(initial, gx)
        if c is None:
            if first and self.required is None:
                self.leaves.append(x)
        elif first and (c._n_out == 1 or c not in self.seen):
            if c._n_out != 1:
                self.seen.add(c)
            self.heap.push(c)
        return 0

    cdef bint add(self, VariableNode x, gx) except -1:
        """Adds ``gx`` to the pending gradient of ``x``; True if it was the first."""
        # the table grows only when x had no pending gradient (comparing
        # the result with gx would not do: one gradient may reach x twice)
        cdef Py_ssize_t n = len(self.grads)
        cdef PyObject* old = PyDict_SetDefault(self.grads, x, gx)
        if len(self.grads) != n:
            return True
        self.grads[x] = grad_add(<object>old, gx)
        return False

    cdef object start(self, VariableNode x):
        """What the gradient of ``x`` starts from, taken at its first use.

        In ``backward()`` a leaf starts from the ``grad`` its variable
        holds, which is taken from it, as Chainer does: a backward nested
        in this pass (F.forget's) then writes only its own gradients there,
        which the pass adds to its total when it ends (see _finish); if the
        pass fails, what it took is put back (see restore). In ``grad()``
        an input starts from its ``grad_inputs`` entry.
        """
        cdef Variable var
        if self.seeds is not None:
            return self.seeds.pop(x, None)
        if not self.load_grads or x._creator is not None or x._variable == NULL:
            return None
        var = <Variable>x._variable
        gv = var._grad_var
        if gv is None:
            return None
        _check_leaf_grad(var, <Variable>gv)
        var._grad_var = None
        self.loaded.append((var, gv))
        return (<Variable>gv)._data if self.raw else gv

    cdef int restore(self) except -1:
        """Gives the leaves back the grads taken from them (a failed pass)."""
        cdef Variable var
        for var, gv in self.loaded:
            var._grad_var = _joined(var._grad_var, gv, self.raw)
        self.loaded = []
        return 0

    cdef object take(self, VariableNode y):
        """Removes and returns the gradient of the output node ``y`` (or None).

        In ``backward()`` an output that no gradient reached contributes the
        ``grad`` its variable already holds (a sibling output whose gradient
        was set by hand), which is then cleared, as in Chainer.
        """
        cdef Variable var
        g = self.grads.pop(y, None)
        if self.seeds is not None and y in self.seeds:
            g = _sum(self.seeds.pop(y), g)
        if g is None and self.load_grads and y._variable != NULL:
            var = <Variable>y._variable
            gv = var._grad_var
            if gv is not None:
                var._grad_var = None
                g = (<Variable>gv)._data if self.raw else gv
        if g is None:
            return None
        if self.retain_grad:
            self.retained.append((y, g))
        if self.wanted is not None and y in self.wanted:
            self.found[y] = g
        return g

    cdef tuple current_grads(self, tuple inputs, tuple indexes):
        """The pending gradients of the targets, for backward_accumulate.

        An input given at several positions has its gradient at the first
        one (None at the others, whose results are added to it).
        """
        seen = set()
        current = []
        for i in indexes:
            x = inputs[i]
            if (self.required is None and (<VariableNode>x)._creator is None
                    and x not in seen and x not in self.grads):
                # a leaf's own grad is what it has so far (see start)
                initial = self.start(x)
                if initial is not None:
                    self.grads[x] = initial
                    self.leaves.append(x)
            current.append(None if x in seen else self.grads.get(x))
            seen.add(x)
        return tuple(current)

    cdef tuple gather(self, FunctionNode f):
        """Takes the pending output gradients of ``f`` (None if all are None)."""
        cdef PyObject* p
        cdef Py_ssize_t j
        gys = [None] * f._n_out
        found = False
        for j in range(f._n_out):
            p = f._outs[j]
            if p == NULL:
                continue
            g = self.take(<VariableNode>p)
            if g is not None:
                gys[j] = g
                found = True
        return tuple(gys) if found else None

    cdef inline bint wants(self, VariableNode x):
        if self.required is None:
            return x._requires_grad
        return x in self.required

    cdef tuple target_indexes(self, tuple inputs):
        """Indexes of the inputs whose gradients are needed (None if none)."""
        cdef Py_ssize_t n = len(inputs)
        cdef bint r0, r1
        if n == 1:
            return _IDX0 if self.wants(<VariableNode>inputs[0]) else None
        if n == 2:
            r0 = self.wants(<VariableNode>inputs[0])
            r1 = self.wants(<VariableNode>inputs[1])
            if r0:
                return _IDX01 if r1 else _IDX0
            return _IDX1 if r1 else None
        idx = tuple([i for i in range(n) if self.wants(<VariableNode>inputs[i])])
        return idx or None

    cdef bint step_fast(self, FunctionNode f) except -1:
        """Backward of a one-in, one-out node in a raw pass.

        Returns False when ``f`` needs the general path.
        """
        if not (self.raw and f._n_out == 1 and not self.debug
                and f._local_hooks is None and f._inputs is not None
                and len(f._inputs) == 1):
            return False
        cdef int facts = node_flags(f)
        if facts & ACCUMULATES:
            return False
        cdef PyObject* p = f._outs[0]
        if p == NULL:
            return True
        g = self.take(<VariableNode>p)
        if g is None:
            return True
        cdef VariableNode x = <VariableNode>f._inputs[0]
        if not self.wants(x):
            return True
        cdef tuple entries = self.entries
        cdef tuple out_grad
        if entries is None:
            if facts & COMPILED_GRADS:
                gx = _backward1(f, (g,), self.state, facts)
            else:
                # the Variable handed to a Python backward holds the
                # gradient alone, so a backward that lets go of it frees it
                # (F.forget's, once its recomputed graph took it)
                gv = new_variable(g, False)
                g = None
                gx = _backward_var1(f, <Variable>gv, self.state)
        else:
            out_grad = (g,)
            in_data = _NONE1 if x._data is None else (x._data,)
            dispatch(entries, 2, f, in_data, out_grad)
            _check_not_unchained(f)
            # as in Chainer, gradients that meet are added within the
            # backward call (before its backward_postprocess callbacks)
            self.state.running += 1
            try:
                gx = _backward1(f, out_grad, self.state, facts)
                if gx is not None:
                    check_grad(f, x, gx, True)
                    self.deliver(x, gx)
            finally:
                self.state.running -= 1
            dispatch(entries, 3, f, in_data, out_grad)
            return True
        if gx is None:
            return True
        check_grad(f, x, gx, True)
        self.deliver(x, gx)
        return True

    cdef int step(self, FunctionNode f) except -1:
        """Runs the backward of ``f`` and delivers the input gradients."""
        cdef tuple gys, indexes, entries, gxs
        if f._released:
            _released_error(f)
        if self.step_fast(f):
            return 0
        gys = self.gather(f)
        inputs_t = f._inputs
        if gys is None or inputs_t is None:
            return 0
        indexes = self.target_indexes(inputs_t)
        if indexes is None:
            return 0
        cdef tuple current = None
        if node_flags(f) & ACCUMULATES:
            current = self.current_grads(inputs_t, indexes)
        entries = self.entries
        if f._local_hooks:
            entries = active_entries(self.state, f._local_hooks)
            if not any_mask(entries):
                entries = None
        if entries is None:
            gxs = _run_backward(f, indexes, gys, self.raw, self.state,
                                current)
            self.deliver_all(f, inputs_t, indexes, gxs, current)
            return 0
        in_data = _hook_in_data(f)
        out_grad = _hook_out_grad(gys, self.raw)
        dispatch(entries, 2, f, in_data, out_grad)
        _check_not_unchained(f)
        # as in Chainer, gradients that meet are added within the backward
        # call (before its backward_postprocess callbacks)
        self.state.running += 1
        try:
            gxs = _run_backward(f, indexes, gys, self.raw, self.state, current)
            self.deliver_all(f, inputs_t, indexes, gxs, current)
        finally:
            self.state.running -= 1
        dispatch(entries, 3, f, in_data, out_grad)
        return 0

    cdef int deliver_all(self, FunctionNode f, tuple inputs_t, tuple indexes,
                         tuple gxs, tuple current) except -1:
        """Checks the input gradients ``gxs`` of ``f`` and delivers them."""
        cdef VariableNode x
        cdef Py_ssize_t j, k
        if self.debug:
            check_finite(f, gxs if self.raw else tuple([
                None if g is None else (<Variable>g)._data for g in gxs]),
                'backward')
        for j in range(len(indexes)):
            gx = gxs[j]
            if gx is None:
                continue
            x = <VariableNode>inputs_t[<Py_ssize_t>indexes[j]]
            check_grad(f, x, gx, self.raw)
            if current is not None and current[j] is not None:
                # backward_accumulate gave the total for this input
                self.grads[x] = gx
                continue
            if self.raw:
                # one array handed to several inputs must not be aliased
                for k in range(j):
                    if gxs[k] is gx:
                        gx = gx.copy()
                        break
            self.deliver(x, gx)
        return 0


cdef int _check_not_unchained(FunctionNode f) except -1:
    # Called after f's backward_preprocess hooks: f.unchain() was called
    # while they ran, by one of them (this thread) or by another thread.
    if f._inputs is None:
        if f._unchained_by == PyThread_get_thread_ident():
            cause = 'by a backward_preprocess hook'
        else:
            cause = ('by another thread (do not unchain a graph that a '
                     'thread back-propagates through)')
        raise RuntimeError(
            '%s was unchained while backward was running over it, %s; its '
            'input gradients cannot be computed' % (f.label, cause))
    return 0


cdef set _required_nodes(list outputs, list input_nodes):
    """The variable nodes of ``grad()`` whose gradients are needed.

    These are the nodes that lie on a path from an input to an output (the
    inputs included), following only inputs that require gradients, as in
    Chainer. Gradients flow through an input into what it was computed
    from, when another input needs them.
    """
    cdef FunctionNode f
    cdef VariableNode x
    cdef PyObject* p
    cdef Py_ssize_t j
    consumers = {}          # node -> functions (between outputs) that use it
    stack = []
    visited = set()
    for o in outputs:
        c = (<Variable>o)._node._creator
        if c is not None and c not in visited:
            visited.add(c)
            stack.append(c)
    while stack:
        f = stack.pop()
        for x in f._inputs or ():
            if not x._requires_grad:
                continue
            users = consumers.get(x)
            if users is None:
                consumers[x] = [f]
            else:
                (<list>users).append(f)
            c = x._creator
            if c is not None and c not in visited:
                visited.add(c)
                stack.append(c)
    required = set()
    done = set()
    stack = list(input_nodes)
    while stack:
        x = stack.pop()
        if x in required:
            continue
        required.add(x)
        for f in consumers.get(x, ()):
            if f in done:
                continue
            done.add(f)
            for j in range(f._n_out):
                p = f._outs[j]
                if p != NULL and <VariableNode>p in consumers:
                    stack.append(<VariableNode>p)
    return required


cpdef list backprop(list outputs, list grad_outputs, bint retain_grad,
                    bint enable_double_backprop, loss_scale,
                    list inputs=None, bint set_grad=True, list seeds=None,
                    retain_graph=None, bint handed=False):
    """Runs one backward pass.

    Args:
        outputs: Variables to start from (or, for a raw pass without
            ``inputs``, their VariableNodes: a start that holds no array;
            F.forget's recomputation starts so).
        grad_outputs: Their gradients (arrays or Variables; None skips one).
        retain_grad: Keep gradients of intermediate variables.
        enable_double_backprop: Build the graph of the backward computation.
        loss_scale: Recorded on the leaf variables that receive gradients.
        inputs: For ``grad()``: the VariableNodes whose gradients are
            returned.
        set_grad: Write gradients of leaves (or of ``inputs``) to their
            variables.
        seeds: For ``grad()``: initial gradients of ``inputs`` (or None).
        retain_graph: False frees what each node retained once its backward
            ran (a raw pass only); None reads ``config.retain_graph``.
        handed: The caller hands ``grad_outputs`` over: the list is emptied
            once they are delivered, so that the pass holds each alone and
            frees it once its node's backward took it (F.forget's
            recomputed pass).

    Returns:
        The gradients of ``inputs`` (Variables or None) when given, else None.
    """
    cdef _Pass bp = _Pass.__new__(_Pass)
    cdef VariableNode x
    bp.state = get_state()
    bp.raw = not enable_double_backprop
    # a double-backprop pass keeps the graph: the one it builds uses it
    bp.release = bp.raw and not (
        retain_graph_enabled(bp.state) if retain_graph is None
        else retain_graph)
    bp.retain_grad = retain_grad
    bp.debug = debug_enabled(bp.state)
    bp.heap = _Heap()
    bp.grads = {}
    bp.seen = set()
    bp.leaves = []
    bp.loaded = []
    bp.retained = []
    if inputs is None:
        bp.load_grads = True
    else:
        bp.required = _required_nodes(outputs, inputs)
        bp.wanted = set(inputs)
        bp.found = {}
    # Global hooks are resolved once per pass (local ones per node); a hook
    # that overrides no backward callback costs nothing here, and none
    # changes which code runs (forward hooks see the grad nodes' applies).
    if bp.state.hooks is not None and len(bp.state.hooks) > 0:
        bp.entries = global_entries(bp.state)
        if not any_mask(bp.entries) & (BWD_PRE | BWD_POST):
            bp.entries = None
    for out, g in zip(outputs, grad_outputs):
        if g is not None:
            bp.deliver(out if type(out) is VariableNode
                       else (<Variable?>out)._node, _unwrap_seed(g, bp.raw))
    if handed:
        g = None
        del grad_outputs[:]
    if seeds is not None:
        bp.seeds = {}
        for x, g in zip(inputs, seeds):
            if g is not None:
                bp.seeds[x] = _sum(bp.seeds.get(x), _unwrap_seed(g, bp.raw))
    cdef FunctionNode f
    ready = bp.state.ready
    if ready is not None and (inputs is not None
                              or (<ReadyGrads>ready).recording):
        ready = None
    try:
        if ready is not None:
            bp.loss_scale = loss_scale
            _steps_handing_over(bp, <ReadyGrads>ready)
        elif bp.release:
            while bp.heap.n:
                f = bp.heap.pop()
                _release_outputs(f, False)
                bp.step(f)
                _release(f)
        else:
            while bp.heap.n:
                bp.step(bp.heap.pop())
    except BaseException:
        bp.restore()
        raise
    return _finish(bp, loss_scale, inputs, set_grad)


cdef int _steps_handing_over(_Pass bp, ReadyGrads ready) except -1:
    """The steps of a ``backward()`` pass of an update-in-backward step
    (see ready.pyx): after each node, the parameters whose gradients became
    final are handed over."""
    cdef FunctionNode f
    ready.passes.append(bp)
    try:
        while bp.heap.n:
            f = bp.heap.pop()
            if bp.release:
                _release_outputs(f, False)
            bp.step(f)
            if bp.release:
                _release(f)
            final = ready.ran(f)
            if final is not None:
                for x in <list>final:
                    _hand_over(ready, <VariableNode>x)
    finally:
        ready.passes.pop()
    return 0


cdef int _hand_over(ReadyGrads ready, VariableNode x) except -1:
    """Gives the parameter of ``x`` its final gradient and calls
    ``ready.on_ready`` with it.

    The gradient is what each running pass holds for it, joined to the
    parameter's ``grad`` innermost pass first, as their ends would (see
    _finish), so that it is the very sum an ordinary backward leaves; the
    passes then leave the parameter alone.
    """
    cdef _Pass p
    cdef Variable var
    if x._variable == NULL:
        return 0
    var = <Variable>x._variable
    for p in reversed(ready.passes):
        g = p.grads.pop(x, None)
        if g is None:
            continue
        p.leaves.remove(x)
        p.loaded = [entry for entry in p.loaded if entry[0] is not var]
        var._grad_var = _joined(
            var._grad_var, new_variable(g, False) if p.raw else g, p.raw)
        g = None
        if p.loss_scale is not None:
            var._loss_scale = p.loss_scale
    ready.on_ready(var)
    return 0


cdef int _released_error(FunctionNode f) except -1:
    raise RuntimeError(
        '%s: backward went through this node a second time, but an earlier '
        'backward with retain_graph=False released what it retained (its '
        'retained inputs and outputs and the arrays it stored); run that '
        'backward with retain_graph=True (the default) to go through the '
        'graph again' % f.label)


cdef int _release(FunctionNode f) except -1:
    """Frees what ``f`` keeps for its backward, which has run.

    Its retained outputs, which no later node of the pass reads (every
    consumer of an output runs before its creator), and the arrays stored
    on it; a retained input goes when its own creator comes up (see
    _release_outputs). A later pass that reaches ``f`` raises (see step).
    """
    f._released = True
    f._retained_output_data = None
    _release_outputs(f, True)
    _drop_arrays(f._extra)
    if type(f).__dictoffset__:
        _drop_arrays(f.__dict__)
    return 0


cdef int _release_outputs(FunctionNode f, bint every) except -1:
    """Frees the arrays of ``f``'s outputs that its consumers retained as
    their inputs. Every consumer runs before ``f``, so when ``f`` comes up
    those arrays serve only ``f``, and only the outputs it retained itself:
    before its backward (``every`` False) the others go, after it
    (``every`` True) all. An output whose Variable is alive keeps its array
    (freeing it would save nothing)."""
    cdef PyObject* p
    cdef VariableNode y
    cdef Py_ssize_t j
    cdef tuple kept = None if every else f._output_indexes_to_retain
    for j in range(f._n_out):
        p = f._outs[j]
        if p == NULL or (kept is not None and j in kept):
            continue
        y = <VariableNode>p
        if y._variable == NULL and y._weak_variable is None:
            y._data = None
    return 0


cdef int _drop_arrays(dict d) except -1:
    # the arrays forward stored on a node for its backward (a mask, a
    # statistic): attributes of a node whose backward has run
    if d:
        for name in [k for k, v in d.items() if is_array(v)]:
            del d[name]
    return 0


cdef int _check_leaf_grad(Variable var, Variable gv) except -1:
    # The grad a leaf holds is added to its new gradients, of its array's
    # dtype: Chainer 7.8.1's `+` refuses one of another dtype (left after
    # var.array was replaced by an array of another dtype), where NumPy
    # would promote the sum and the leaf's grad would change its dtype
    held = gv._data.dtype
    own = var._data.dtype
    if held is own or held == own:
        return 0
    raise provided(TYPE_CHECK).InvalidTypeTypeError(
        'grad.dtype == array.dtype', '%s != %s' % (held, own),
        'backward: the grad that a variable holds is of dtype %s, its '
        'array of %s; clear it (cleargrad) or give it the dtype of the '
        'array' % (held, own))


cdef object _sum(a, b):
    # a + b where None stands for zero
    if a is None:
        return b
    if b is None:
        return a
    return grad_add(a, b)


cdef object _joined(current, gv, bint raw):
    # the grad Variable current + gv (either may be None), summed by Add
    if current is None:
        return gv
    if gv is None:
        return current
    if raw:
        return new_variable(
            grad_add((<Variable>current)._data, (<Variable>gv)._data), False)
    return grad_add(current, gv)


cdef object _scaled_seed(g, loss_scale):
    # NumPy 1 would turn a 0-d float32 seed times a Python float into
    # float64; the seed keeps its dtype.
    return (g * loss_scale).astype(g.dtype, copy=False)


cdef object _unwrap_seed(g, bint raw):
    if isinstance(g, Variable):
        return (<Variable>g)._data if raw else g
    return g if raw else new_variable(g, False)


cdef list _finish(_Pass bp, loss_scale, list inputs, bint set_grad):
    cdef VariableNode x
    cdef Variable var
    cdef bint raw = bp.raw
    for x, g in bp.retained:
        if x._variable != NULL:
            var = <Variable>x._variable
            var._grad_var = new_variable(g, False) if raw else g
    if inputs is not None:
        result = []
        for x in inputs:
            if x in bp.found:
                g = bp.found[x]
            else:
                g = bp.grads.get(x)
                if bp.seeds is not None:
                    g = _sum(bp.seeds.get(x), g)
            gv = None if g is None else (new_variable(g, False) if raw else g)
            result.append(gv)
            if set_grad and x._variable != NULL:
                (<Variable>x._variable)._grad_var = gv
        return result
    for x in bp.leaves:
        if x._variable == NULL:
            continue
        var = <Variable>x._variable
        g = bp.grads[x]
        # the total (a leaf's own grad joined its first gradient, see
        # start), added to what a nested backward wrote meanwhile
        var._grad_var = _joined(
            var._grad_var, new_variable(g, False) if raw else g, raw)
        if loss_scale is not None:
            var._loss_scale = loss_scale
    return None


def backward(outputs, grad_outputs=None, **kwargs):
    """Runs backprop from several variables at once.

    Args:
        outputs (tuple or list of Variable): Variables to start from.
        grad_outputs (tuple or list of Variable): Their initial gradients
            (a None element skips its output). When omitted, the outputs'
            own ``grad_var`` are used; an output without one is skipped.
        enable_double_backprop (bool): Build a graph of the backward pass.
        retain_graph (bool): As in :meth:`Variable.backward`.
    """
    enable_double_backprop = kwargs.pop('enable_double_backprop', False)
    retain_graph = kwargs.pop('retain_graph', None)
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
        grads = _check_sequence(grad_outputs, 'grad_outputs', False,
                                'None, a tuple, or a list')
        _check_length(grads, outputs, 'grad_outputs', 'outputs')
        for g in grads:
            if g is not None and not isinstance(g, Variable):
                _not_a_variable(g)
    if grad_outputs is None:
        # as in Chainer, the outputs' own gradients are consumed
        for i, o in enumerate(outputs):
            g = (<Variable>o)._grad_var
            if g is None:
                warnings.warn('backward(): an output has no grad (or appears '
                              'twice); it is skipped, since backward() sets '
                              'no default grad', RuntimeWarning)
            (<Variable>o)._grad_var = None
            grads[i] = g
    backprop(outputs, grads, False, enable_double_backprop, None, None, True,
             None, retain_graph)


class AttributeTypeError(TypeError, AttributeError):
    """An object without a method that Chainer 7.8.1 calls on it (so an
    ``AttributeError`` there); chainerlite.utils._chainer_errors offers it
    beside the other errors that are both types."""


cdef int _not_a_variable(g) except -1:
    # Chainer's backward reads Variable attributes of each grad_output (an
    # array fails there with an AttributeError)
    raise AttributeTypeError(
        'backward(): each element of grad_outputs must be a Variable or '
        'None, not %s (wrap an array in chainer.Variable)' % type(g).__name__)


cdef list _check_sequence(seq, str what, bint variables,
                          str kinds='a tuple or a list'):
    # the messages are Chainer 7.8.1's
    if not isinstance(seq, (tuple, list)):
        raise TypeError('%s must be %s, not %s.' % (what, kinds, type(seq)))
    if variables:
        for v in seq:
            if not isinstance(v, Variable):
                raise TypeError('each %s must be a Variable, not %s'
                                % (what[:-1], type(v)))
    return list(seq)


cdef int _check_length(list given, list targets, str what,
                       str of) except -1:
    if len(given) != len(targets):
        raise ValueError('%s must be of the same length as %s.\n'
                         'len(%s) = %d, len(%s) = %d'
                         % (what, of, of, len(targets), what, len(given)))
    return 0


def grad(outputs, inputs, grad_outputs=None, grad_inputs=None, set_grad=False,
         retain_grad=False, enable_double_backprop=False, loss_scale=None,
         retain_graph=None):
    """Computes the gradients of ``outputs`` with respect to ``inputs``.

    Only the part of the graph between them is traversed: a function node
    runs its backward only when one of its inputs lies on a path from an
    input to an output. Gradients of other leaves are left untouched. An
    input computed from another input passes its gradient on to it. With ``set_grad`` the results also replace
    the inputs' ``grad``. Backward hooks fire as in
    :meth:`Variable.backward`.

    Args:
        outputs (tuple or list of Variable): Targets of differentiation.
        inputs (tuple or list of Variable): Variables to differentiate by.
        grad_outputs (tuple or list): Initial gradients of the outputs; a
            None (or omitting the argument) stands for an array of ones.
        grad_inputs (tuple or list): Initial gradients of the inputs, added
            to the results (and, for an input computed from others, passed
            on to them).
        set_grad (bool): Also store the results in the inputs' ``grad``.
        retain_grad (bool): Keep gradients of intermediate variables.
        enable_double_backprop (bool): Build a graph of the backward pass.
        loss_scale (float): Multiplies the default (all-ones) initial
            gradients and is recorded on the results.
        retain_graph (bool): As in :meth:`Variable.backward`.

    Returns:
        list of Variable: One gradient per input (None when unreachable).
    """
    outputs = _check_sequence(outputs, 'outputs', True)
    inputs = _check_sequence(inputs, 'inputs', True)
    if grad_outputs is None:
        grad_outputs = [None] * len(outputs)
    grads = _check_sequence(grad_outputs, 'grad_outputs', False,
                            'a tuple or a list or None')
    _check_length(grads, outputs, 'grad_outputs', 'outputs')
    grads = [_default_seed(<Variable>o, loss_scale) if g is None else g
             for o, g in zip(outputs, grads)]
    nodes = [(<Variable>v)._node for v in inputs]
    seeds = None
    if grad_inputs is not None:
        seeds = _check_sequence(grad_inputs, 'grad_inputs', False,
                                'a tuple or a list or None')
        _check_length(seeds, inputs, 'grad_inputs', 'inputs')
    return backprop(outputs, grads, retain_grad, enable_double_backprop,
                    loss_scale, nodes, set_grad, seeds, retain_graph)


cdef object _default_seed(Variable o, loss_scale):
    # An output without a given gradient starts from ones (times the loss
    # scale); given gradients are used as they are, as in Chainer.
    g = o.xp.ones_like(o._data)
    return g if loss_scale is None else _scaled_seed(g, loss_scale)
