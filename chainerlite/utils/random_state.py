"""Snapshot and replay of the global random generators.

``F.forget`` runs its function twice: once in forward, once again in
backward to rebuild the graph. Functions that draw random numbers (such as
``F.dropout``) must draw the same numbers both times, or the gradients
would not match the forward computation. Every random draw in chainerlite
goes through the global generator of the array module (``numpy.random`` or
``cupy.random``), so taking a snapshot before the first run and restoring it
around the second one makes the second run draw exactly the same numbers.
The generators are put back where they were afterwards, so code outside the
replay does not see any difference.
"""
import contextlib

import numpy

from chainerlite.backends import cuda


class Snapshot(object):
    """State of the global generators at one point in time."""

    def __init__(self, with_cupy):
        self.numpy_state = numpy.random.get_state()
        self.cupy_seed = None
        if with_cupy:
            # CuPy cannot export a generator's state: the draws from here on
            # come from a fresh generator whose seed is remembered instead.
            cupy = cuda.cupy
            self.cupy_seed = int(cupy.random.get_random_state().randint(
                0, 2 ** 31 - 1, size=()))
            cupy.random.set_random_state(
                cupy.random.RandomState(self.cupy_seed))


def snapshot(xp=numpy):
    """Captures the generators so that later draws can be replayed.

    Args:
        xp (module): Array module of the computation to replay. NumPy's
            generator is always captured; CuPy's only when ``xp`` is CuPy,
            since touching it costs a device round trip (and, the first
            time, CUDA initialisation) that a CPU computation must not pay.

    Returns:
        Snapshot: The captured state.
    """
    return Snapshot(cuda.available and xp is cuda.cupy)


@contextlib.contextmanager
def replay(snap):
    """Draws, inside the block, the numbers drawn after ``snap`` was taken.

    Args:
        snap (Snapshot): A state captured by :func:`snapshot`.
    """
    numpy_now = numpy.random.get_state()
    numpy.random.set_state(snap.numpy_state)
    cupy_now = None
    if snap.cupy_seed is not None:
        cupy = cuda.cupy
        cupy_now = cupy.random.get_random_state()
        cupy.random.set_random_state(cupy.random.RandomState(snap.cupy_seed))
    try:
        yield
    finally:
        numpy.random.set_state(numpy_now)
        if cupy_now is not None:
            cuda.cupy.random.set_random_state(cupy_now)
