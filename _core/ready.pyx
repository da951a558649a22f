"""When each parameter's gradient is final, for an update during backward.

An optimizer that updates each parameter as soon as its gradient is final
(``GradientMethod.use_update_in_backward``) makes a :class:`ReadyGrads` for
one training step and sets it on its thread. While the step's forward runs
(``recording``), ``F.forget`` records here the parameters that its
function's nodes read (they join the graph only when backward recomputes
them); then :meth:`ReadyGrads.count_graph` counts the nodes of the loss's
graph that read each parameter. During the backward passes of that thread
(the step's, and the nested ones of ``F.forget``) each node that ran takes
one use off its inputs' counts (:meth:`ReadyGrads.ran`); when a parameter's
count reaches zero no node is left that could add to its gradient, and the
pass hands the gradient over (backprop.pyx). A use counted but never run
(a node that no gradient reached) only keeps its parameter for the end of
the step.
"""
from chainerlite._core.config cimport ThreadState, get_state
from chainerlite._core.node cimport FunctionNode, Variable, VariableNode


cdef class ReadyGrads:
    """The uses of the parameters of one step whose backward has not run.

    Args:
        params (list of ~chainerlite.Variable): The parameters to watch;
            each holds an array.
        on_ready (callable): Called with a parameter once its gradient is
            final, that gradient in its ``grad``.
    """

    def __init__(self, params, on_ready):
        cdef Variable p
        self.counts = {}
        self.arrays = {}
        self.done = set()
        self.passes = []
        self.recording = True
        self.on_ready = on_ready
        for param in params:
            p = <Variable?>param  # (a None would be read as a Variable)
            self.arrays[id(p._data)] = (p._data, p._node)

    cdef int use(self, VariableNode x) except -1:
        self.counts[x] = self.counts.get(x, 0) + 1
        return 0

    def record(self, in_data):
        """Counts the watched parameters among the input arrays of a node
        that ``F.forget``'s function applied in the step's forward (its
        recomputation links that node again, reading the parameter)."""
        for a in in_data:
            entry = self.arrays.get(id(a))
            if entry is not None and (<tuple>entry)[0] is a:
                self.use(<VariableNode>(<tuple>entry)[1])

    def count_graph(self, outputs):
        """Counts, for each watched parameter, the nodes of the graph of
        ``outputs`` (Variables) that read it, and ends the recording."""
        cdef FunctionNode f
        cdef VariableNode x
        watched = {(<tuple>e)[1] for e in self.arrays.values()}
        stack = []
        visited = set()
        for o in outputs:
            f = (<Variable?>o)._node._creator
            if f is not None and f not in visited:
                visited.add(f)
                stack.append(f)
        while stack:
            f = stack.pop()
            for x in f._inputs or ():
                if x in watched:
                    self.use(x)
                elif x._creator is not None and x._creator not in visited:
                    visited.add(x._creator)
                    stack.append(x._creator)
        self.recording = False

    cdef list ran(self, FunctionNode f):
        """Takes the use of ``f`` off each watched input; returns the inputs
        whose gradients became final (None if none)."""
        cdef VariableNode x
        cdef list final = None
        for x in f._inputs or ():
            c = self.counts.get(x)
            if c is None:
                if x in self.done:
                    _late(f)
                continue
            if <Py_ssize_t>c > 1:
                self.counts[x] = <Py_ssize_t>c - 1
                continue
            del self.counts[x]
            self.done.add(x)
            if final is None:
                final = []
            final.append(x)
        return final


cdef int _late(FunctionNode f) except -1:
    raise RuntimeError(
        'update in backward: %s read a parameter that was already updated '
        'in this step: a node that reads it joined the graph unseen (a '
        'parameter given to F.forget both as an argument and from its '
        'function, or a function that reads other parameters when '
        'recomputed); update this model with the ordinary update' % f.label)


def set_ready_grads(ready):
    """Sets the :class:`ReadyGrads` of this thread (None: none); returns
    the previous one."""
    cdef ThreadState state = get_state()
    if ready is not None and not isinstance(ready, ReadyGrads):
        raise TypeError('expected a ReadyGrads or None, not %s'
                        % type(ready).__name__)
    previous = state.ready
    state.ready = ready
    return previous


def recording_ready_grads():
    """The :class:`ReadyGrads` of this thread while its step's forward
    runs, else None (``F.forget`` records its parameters there)."""
    ready = get_state().ready
    if ready is not None and (<ReadyGrads>ready).recording:
        return ready
    return None
