# When each parameter's gradient is final in a backward pass (ready.pyx);
# backprop.pyx asks it after each node it runs.
from chainerlite._core.node cimport FunctionNode, VariableNode


cdef class ReadyGrads:
    cdef dict counts        # VariableNode -> uses whose backward has not run
    cdef dict arrays        # id(array) -> (array, VariableNode), tracked
    cdef set done           # nodes whose gradients were handed over
    cdef readonly bint recording    # the forward of the step is running
    cdef list passes        # backward passes running, innermost last
    cdef readonly object on_ready   # called with each parameter, once final

    cdef int use(self, VariableNode x) except -1
    cdef list ran(self, FunctionNode f)
