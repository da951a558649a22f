"""Python threads that share the rows of a kernel whose passes call NumPy.

Some kernels (``sce``) interleave compiled loops with NumPy's own ufuncs
(its ``exp`` and ``log``, so that their results are NumPy's bit for bit),
which OpenMP threads cannot call. Such a kernel splits its rows into parts
and runs each part's passes in a thread of its own: the compiled loops run
without the GIL, and NumPy releases it inside its ufuncs, so the parts run
side by side. The workers are a pool of daemon threads, made on first use
(one fewer than the threads asked for: the calling thread runs the first
part) and made anew in a child process after ``fork``. Each part runs in a
copy of the caller's context and under its NumPy error state. Results do
not depend on the number of parts: each row is computed by one thread, in
the order of a single pass.
"""

import concurrent.futures
import contextvars
import os
import threading

import numpy

#: What a kernel computes in parts is what one pass computes, bit for bit.
PRECISION = 'bitwise NumPy'

_lock = threading.Lock()
_pool = None
_workers = 0


def _forget_pool():
    global _pool, _workers
    _pool, _workers = None, 0


if hasattr(os, 'register_at_fork'):
    # a child of fork has the pool object but none of its threads
    os.register_at_fork(after_in_child=_forget_pool)


def _pool_of(workers):
    global _pool, _workers
    with _lock:
        if _pool is None or _workers < workers:
            _pool = concurrent.futures.ThreadPoolExecutor(
                max_workers=workers, thread_name_prefix='chainerlite-rows'
            )
            _workers = workers
        return _pool


def run_parts(run, rows, parts, stop=None):
    """Calls ``run(begin, end)`` on ``parts`` consecutive parts of the rows
    ``[0, rows)``: the first in the calling thread, the others in the pool.

    Returns only once every part handed to the pool has ended, whatever
    happens (a Ctrl-C included: the caller may free what the parts write
    into), then raises the first exception (the calling thread's first).
    ``stop``, if given, is called when the calling thread raised, before
    the wait, so that the other parts can end early.
    """
    if parts < 2:
        run(0, rows)
        return
    cuts = [rows * t // parts for t in range(parts + 1)]
    pool = _pool_of(parts - 1)
    # NumPy 2 keeps its error state in the context; NumPy 1 per thread
    errors = numpy.geterr()

    def part(begin, end):
        with numpy.errstate(**errors):
            run(begin, end)

    futures = []
    try:
        for t in range(1, parts):
            context = contextvars.copy_context()
            futures.append(pool.submit(context.run, part, cuts[t], cuts[t + 1]))
        run(cuts[0], cuts[1])
    except BaseException:
        if stop is not None:
            stop()
        _wait(futures)
        raise
    _wait(futures)
    for future in futures:
        future.result()


def _wait(futures):
    # every future ended, a Ctrl-C meanwhile held back until then
    interrupted = None
    while True:
        try:
            concurrent.futures.wait(futures)
            break
        except KeyboardInterrupt as e:
            interrupted = e
    if interrupted is not None:
        raise interrupted
