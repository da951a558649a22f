"""OpenMP's and OpenBLAS's waiting, which chainerlite sets for its process at
import.

chainerlite's kernels and oneDNN share libgomp's threads. By default a
libgomp thread that finished its part spins for a while before it sleeps;
between the parallel loops of a training step (Python, NumPy, one-thread
passes) the second thread of a 2-thread step spun most of the time: a
2-thread softmax of 4096 x 256 took 11 ms of CPU against 1.3 ms with one
thread, for no gain in time. As this module is imported (first thing in
``chainerlite``'s import), :func:`apply` sets
``OMP_WAIT_POLICY=PASSIVE`` (threads sleep at once and are woken for the
next loop) in the environment, where neither ``OMP_WAIT_POLICY`` nor
``GOMP_SPINCOUNT`` is set. libgomp reads it when it loads, which is at
chainerlite's import unless another module loaded it before; child
processes inherit it, as do other libraries' OpenMP runtimes that load
later in the process (PyTorch's among them).

OpenBLAS's worker threads likewise spin on ``sched_yield`` for about 0.1 s
after each threaded product before they sleep (2**28 cycles): in a 2-thread
LSTM language-model step that loop took 15-19% of all samples. Where the
user did not set it, :func:`apply` sets ``OPENBLAS_THREAD_TIMEOUT=4``
(OpenBLAS's shortest spin, 2**4 cycles). OpenBLAS reads it when it loads:
in this process only where chainerlite is imported before NumPy, and in
child processes always.
"""

import os

#: the variables by which the user chose libgomp's waiting
USER_VARIABLES = ('OMP_WAIT_POLICY', 'GOMP_SPINCOUNT')
#: OpenBLAS's spin before its threads sleep (log2 of cycles, 4 to 30)
OPENBLAS_TIMEOUT = 'OPENBLAS_THREAD_TIMEOUT'


def apply(environ=os.environ):
    """Sets ``OMP_WAIT_POLICY=PASSIVE`` in ``environ`` unless the user chose
    a waiting policy, and ``OPENBLAS_THREAD_TIMEOUT=4`` unless set; returns
    True where it set the first."""
    environ.setdefault(OPENBLAS_TIMEOUT, '4')
    if any(name in environ for name in USER_VARIABLES):
        return False
    environ['OMP_WAIT_POLICY'] = 'PASSIVE'
    return True


#: whether the import set it
applied = apply()
