"""Random draws that ``F.forget`` can replay, in any thread.

``F.forget`` runs its function twice: once in forward, once again in
backward to rebuild the graph. Functions that draw random numbers (such as
``F.dropout``) must draw the same numbers both times, or the gradients
would not match the forward computation. Every random draw in chainerlite
goes through :func:`draw`, which normally takes the numbers from the global
generator of the array module (``numpy.random`` or ``cupy.random``).

Inside :func:`recording`, each draw also leaves a *key*: a value of
constant size from which exactly the same numbers can be drawn again (the
state of NumPy's generator just before the draw, or, since CuPy cannot
export a generator's state, a seed taken from CuPy's generator for a
generator of its own). Inside :func:`replaying`, draws are made from those
keys, in order, with generators private to the thread; the global
generators are not touched. Recordings and replays are kept per thread and
nest: a recording made while another one is replayed takes its keys from
that replay, so a ``forget`` nested in another draws the same numbers in
every run.

Draws from the global generators are made under one lock, so the state
read before a draw is the state the draw starts from even when several
threads draw at once. On NumPy arrays a draw under a recording takes the
same numbers from the global stream as a draw without one would.
"""
import contextlib
import threading

import numpy

_SEED_BOUND = 2 ** 31 - 1
_lock = threading.Lock()


class _ThreadState(threading.local):

    def __init__(self):
        self.frames = []      # active _Recording / _Replay, innermost last
        self.scratch = None   # numpy RandomState that draws from a key


_thread = _ThreadState()


def _scratch():
    if _thread.scratch is None:
        _thread.scratch = numpy.random.RandomState(0)
    return _thread.scratch


def _draw_from_key(xp, method, shape, key):
    if xp is numpy:
        generator = _scratch()
        generator.set_state(key)
    else:
        generator = xp.random.RandomState(key)
    return getattr(generator, method)(shape)


def _draw_global(xp, method, shape):
    """Draws from the global generator and returns the samples and key."""
    if xp is numpy:
        generator = _scratch()
        with _lock:
            key = numpy.random.get_state()
            generator.set_state(key)
            sample = getattr(generator, method)(shape)
            numpy.random.set_state(generator.get_state())
        return sample, key
    with _lock:
        key = int(xp.random.get_random_state().randint(
            0, _SEED_BOUND, size=()))
    return _draw_from_key(xp, method, shape, key), key


class _Recording(object):

    def __init__(self):
        self.keys = []

    def take(self, xp, method, shape, depth):
        sample, key = _take(xp, method, shape, depth - 1)
        self.keys.append(key)
        return sample, key


class _Replay(object):

    def __init__(self, keys):
        self.keys = keys
        self.position = 0

    def take(self, xp, method, shape, depth):
        if self.position == len(self.keys):
            raise RuntimeError(
                'forget: the function drew more random numbers when it was '
                'recomputed than in its forward call ({} draws); it must '
                'draw the same way every time it is called'.format(
                    len(self.keys)))
        key = self.keys[self.position]
        self.position += 1
        return _draw_from_key(xp, method, shape, key), key


def _take(xp, method, shape, depth):
    if depth < 0:
        return _draw_global(xp, method, shape)
    return _thread.frames[depth].take(xp, method, shape, depth)


def draw(xp, method, shape):
    """Draws random numbers, recorded or replayed when one is active.

    Args:
        xp (module): ``numpy`` or ``cupy``: where the samples are drawn.
        method (str): Name of the sampling method of
            ``xp.random.RandomState`` (``'random_sample'``,
            ``'standard_normal'``).
        shape (tuple of int): Shape of the result.

    Returns:
        numpy.ndarray or cupy.ndarray: The samples, in float64.

    Raises:
        RuntimeError: A replay has no recorded draw left.
    """
    frames = _thread.frames
    if frames:
        return frames[-1].take(xp, method, shape, len(frames) - 1)[0]
    with _lock:
        return getattr(xp.random, method)(shape)


@contextlib.contextmanager
def _active(frame):
    frames = _thread.frames
    frames.append(frame)
    try:
        yield
    finally:
        frames.pop()


@contextlib.contextmanager
def recording():
    """Records the keys of the draws made in the block by this thread.

    Yields:
        list: The keys, in the order of the draws; filled as the block
        runs. Pass it to :func:`replaying` to draw the same numbers again.
    """
    frame = _Recording()
    with _active(frame):
        yield frame.keys


@contextlib.contextmanager
def replaying(keys):
    """Makes this thread's draws in the block repeat recorded ones.

    Args:
        keys (list): Keys recorded by :func:`recording`. The draws of the
            block must come in the same order, from the same array module,
            with the same methods and shapes as the recorded ones.
    """
    with _active(_Replay(keys)):
        yield
