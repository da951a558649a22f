"""Function hook that measures what each function takes from CuPy's pool."""

import operator
import sys

from chainerlite.backends import cuda
from chainerlite.function_hooks import _report
from chainerlite.function_hooks import _stack

# How the values of a call add up per function, and the report columns.
_FIELDS = (('used_bytes', operator.add), ('acquired_bytes', operator.add))
_COLUMNS = (('used_bytes', 'UsedBytes'), ('acquired_bytes', 'AcquiredBytes'))

#: Whether CuPy's memory hooks, which the hook needs, can be used.
memory_hook_available = cuda.available


def _pool_counter(name):
    # CuPy's memory pool calls the memory hooks registered in the current
    # thread: malloc_* when it hands out a block, alloc_* when it has to
    # acquire device memory for it. The class derives from CuPy's, so it is
    # built only once CuPy is known to be there.
    class PoolCounter(cuda.cupy.cuda.memory_hook.MemoryHook):
        def __init__(self):
            self.name = name
            self.used_bytes = 0
            self.acquired_bytes = 0

        def malloc_preprocess(self, **kwargs):
            self.used_bytes += kwargs['mem_size']

        def alloc_preprocess(self, **kwargs):
            self.acquired_bytes += kwargs['mem_size']

    return PoolCounter()


class CupyMemoryProfileHook(_stack.CallStackHook):
    """Function hook that measures the GPU memory functions take from CuPy.

    For each forward and backward call the hook records the *used* bytes
    (the sizes of the blocks the function took from CuPy's memory pool, as
    the pool rounds them) and the *acquired* bytes (the memory the pool had
    to allocate from the device for it, zero when cached blocks sufficed).
    Memory freed during the call is not subtracted. A call's counts include
    the calls nested in it. The hook works through a CuPy memory hook
    registered in each thread where the function hook is registered, so it
    counts only allocations made through CuPy's default memory pool.

    The hook needs CuPy and a CUDA device: creating it without them raises
    :class:`RuntimeError`. It can be imported anywhere.

    Attributes:
        call_history (list of tuple): One ``(function_name, used_bytes,
            acquired_bytes)`` triple per call, in the order the calls
            finished.

    .. admonition:: Example

        Code example (needs a GPU)::

            from chainerlite.function_hooks import CupyMemoryProfileHook
            hook = CupyMemoryProfileHook()
            with hook:
                trainer.run()
            hook.print_report()

        Output example::

                   FunctionName  UsedBytes  AcquiredBytes  Occurrence
                 LinearFunction     5.16GB       179.98MB        3900
                           ReLU   991.82MB       458.97MB        2600
            SoftmaxCrossEntropy     7.71MB         5.08MB        1300
    """

    name = 'CupyMemoryProfileHook'

    def __init__(self):
        try:
            cuda.check_cuda_available()
        except RuntimeError as e:
            raise RuntimeError(
                'CupyMemoryProfileHook needs CuPy and a CUDA device: %s' % e
            ) from e
        self._counter = _pool_counter('%s-%x' % (self.name, id(self)))
        self._threads = _stack.CallStacks()
        self.call_history = []
        self._total_used = 0
        self._total_acquired = 0

    def added(self, function=None):
        local = self._threads
        if function is None:
            local.reset()
        if local.registrations == 0:
            self._counter.__enter__()
        local.registrations += 1

    def deleted(self, function=None):
        local = self._threads
        local.registrations -= 1
        if local.registrations == 0:
            self._counter.__exit__()

    def _push(self, function):
        counter = self._counter
        self._threads.stack.append(
            (id(function), counter.used_bytes, counter.acquired_bytes)
        )

    def _pop(self, function):
        stack = self._threads.stack
        entry = _stack.pop_call(stack, id(function))
        if entry is None:
            return
        used = self._counter.used_bytes - entry[1]
        acquired = self._counter.acquired_bytes - entry[2]
        if not stack:
            self._total_used += used
            self._total_acquired += acquired
        self.call_history.append((function._impl_name, used, acquired))

    def total_used_bytes(self):
        """Returns the bytes the outermost calls took from the pool.

        Returns:
            int: Sum of the used bytes of the calls not nested in another
            recorded call (nested calls are not added again).
        """
        return self._total_used

    def total_acquired_bytes(self):
        """Returns the bytes the pool acquired from the device for the calls.

        Returns:
            int: Sum of the acquired bytes of the outermost calls.
        """
        return self._total_acquired

    def summary(self):
        """Returns the memory statistics per function.

        Returns:
            collections.OrderedDict: Maps each function name, in order of
            first appearance, to a dict with ``'used_bytes'``,
            ``'acquired_bytes'`` (sums over its calls) and ``'occurrence'``
            (number of calls).
        """
        return _report.summarize(self.call_history, _FIELDS)

    def print_report(self, unit='auto', file=sys.stdout):
        """Prints a table of the memory each function took.

        Columns: function name, used bytes, acquired bytes, number of calls.

        Args:
            unit (str): Unit of the sizes: ``'B'``, ``'KB'``, ``'MB'``,
                ``'GB'``, ``'TB'``, ``'PB'``, ``'EB'``, ``'ZB'`` (powers of
                1024), ``'auto'`` (one unit chosen from the largest size) or
                ``'auto_foreach'`` (a unit chosen for each cell).
            file: Text stream the table is written to.
        """
        _report.write_byte_report(self.summary(), _COLUMNS, unit, file)
