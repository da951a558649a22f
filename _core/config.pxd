cdef class ThreadState:
    # Per-thread runtime state, one instance per thread (see get_state).
    cdef dict config            # LocalConfig overrides of this thread
    cdef int enable_backprop    # -1: not overridden locally, else 0/1
    cdef int type_check         # -1: not overridden locally, else 0/1
    cdef int debug              # -1: not overridden locally, else 0/1
    cdef int retain_graph       # -1: not overridden locally, else 0/1
    cdef bint light_mode        # type checks evaluate on plain values
    cdef object hooks           # HookRegistry: global hooks of this thread
    cdef dict scratch           # per-thread data of compiled hooks, by id
    cdef int running            # hooked forward/backward calls now running
    # (node, outputs) a forward pre-hook gave in place of the forward of the
    # node applied
    cdef tuple substitute
    # the ReadyGrads of the update-in-backward step this thread runs (see
    # ready.pyx), or None
    cdef object ready


cdef ThreadState get_state()
cdef bint backprop_enabled(ThreadState state)
cdef bint type_check_enabled(ThreadState state)
cdef bint debug_enabled(ThreadState state)
cdef bint retain_graph_enabled(ThreadState state)
cdef int set_local_backprop(ThreadState state, int value) except -1
