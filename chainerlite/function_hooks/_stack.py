"""Per-thread stacks of running calls, shared by the profiling hooks.

A hook pushes an entry (a list or tuple whose first item is ``id`` of the
function node: a number, never the node itself) in a ``*_preprocess``
callback and pops it in the matching ``*_postprocess``. A function that
raises never reaches its postprocess callback; :func:`pop_call` then drops
the entries it left above the call being closed, so one failed call does not
shift the nesting of the calls that follow.
"""

import threading

from chainerlite import function_hook


class CallStacks(threading.local):
    """Thread-local state of a hook.

    Attributes:
        stack (list): Entries of the calls running in this thread.
        thread_id (int): The operating system's id of the thread
            (:func:`threading.get_native_id`), as profilers show it.
        registrations (int): How many registrations of the hook are active
            in this thread (for hooks that set something up per thread).
    """

    def __init__(self):
        self.stack = []
        self.thread_id = threading.get_native_id()
        self.registrations = 0

    def reset(self):
        """Forgets the calls of this thread that are still marked running."""
        self.stack = []


def pop_call(stack, key):
    """Removes and returns the entry of the call ``key`` (or None).

    Entries above it (calls that raised) are removed too. When no entry has
    this key (the hook was registered while the call was running), the stack
    is left as is and None is returned.
    """
    if stack and stack[-1][0] == key:
        return stack.pop()
    for i in range(len(stack) - 2, -1, -1):
        if stack[i][0] == key:
            entry = stack[i]
            del stack[i:]
            return entry
    return None


class CallStackHook(function_hook.FunctionHook):
    """Function hook that brackets every forward and backward call.

    A subclass implements ``_push(function)``, called before each call, and
    ``_pop(function)``, called after it.
    """

    def forward_preprocess(self, function, in_data):
        self._push(function)

    def forward_postprocess(self, function, in_data):
        self._pop(function)

    def backward_preprocess(self, function, in_data, out_grad):
        self._push(function)

    def backward_postprocess(self, function, in_data, out_grad):
        self._pop(function)
