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
in child processes always, and in this process where chainerlite is
imported before NumPy. Where NumPy came first (``import numpy as np`` on
the line above, the usual order), OpenBLAS has read its default already:
:func:`settle_loaded_openblas` has it read its variables again and stops
its worker threads, which start again at its next threaded product with
the short spin. A 2-thread LSTM language-model step (batch 20), NumPy
imported first: 0.39 s wall and 0.78 s of CPU before, 0.33 s and 0.60 s
after, as with chainerlite imported first.
"""

import os
import sys

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


def loaded_openblas_paths(maps='/proc/self/maps'):
    """Files of the OpenBLAS libraries mapped into this process (Linux),
    in the order they appear; empty elsewhere or where none is."""
    try:
        with open(maps) as f:
            lines = f.read().splitlines()
    except OSError:
        return []
    paths = []
    for line in lines:
        fields = line.split(maxsplit=5)
        if len(fields) == 6:
            path = fields[5]
            name = os.path.basename(path)
            if 'openblas' in name and '.so' in name and path not in paths:
                paths.append(path)
    return paths


def settle_loaded_openblas(environ=os.environ):
    """Gives an OpenBLAS that loaded before chainerlite the spin of
    ``OPENBLAS_THREAD_TIMEOUT`` (set by :func:`apply` or by the user after
    OpenBLAS loaded); returns the paths of the libraries it changed.

    A library is left as it is where it lacks OpenBLAS's functions for
    this, where it loaded with a timeout of its own (the user's, set
    before it loaded), and in a process running more than one Python
    thread: stopping OpenBLAS's workers while another thread's product
    uses them could leave it waiting for them forever.
    """
    if OPENBLAS_TIMEOUT not in environ or len(sys._current_frames()) != 1:
        return []
    paths = loaded_openblas_paths()
    if not paths:
        return []
    import ctypes

    settled = []
    for path in paths:
        try:
            lib = ctypes.CDLL(path, mode=os.RTLD_NOLOAD)
            timeout = lib.openblas_thread_timeout
            read_env = lib.openblas_read_env
            shutdown = lib.blas_thread_shutdown_
        except (OSError, AttributeError):
            continue
        if timeout() != 0:
            continue
        read_env.restype = shutdown.restype = None
        read_env()
        if timeout() == 0:  # read nothing: the variable is not in the C environment
            continue
        shutdown()
        settled.append(path)
    return settled


#: whether the import set it
applied = apply()
#: the OpenBLAS libraries loaded before chainerlite that took the short spin
settled = settle_loaded_openblas() if 'numpy' in sys.modules else []
