"""Random draws that ``F.forget`` can replay, in any thread.

``F.forget`` runs its function twice: once in forward, once again in
backward to rebuild the graph. Functions that draw random numbers (such as
``F.dropout``) must draw the same numbers both times, or the gradients
would not match the forward computation. Every random draw in chainerlite
goes through :func:`draw`, and each draw can be repeated from a *key* of
constant size, a seed:

* On NumPy arrays, every draw takes one 32-bit word from the global
  generator (``numpy.random``, so that ``numpy.random.seed`` makes the
  draws reproducible) and draws its samples from a generator private to the
  thread, seeded with that word. Reading the global generator's state
  instead would cost far more than the draw (a conversion of its whole
  state), and this way a draw inside ``forget`` is the same as the draw
  outside it. Taking one word is atomic, so threads drawing at once never
  share a seed.
* On CuPy arrays, draws outside :func:`recording` come from
  ``cupy.random`` itself; inside it, each draw takes a seed from
  ``cupy.random`` (CuPy cannot export a generator's state) and draws from a
  generator of its own, so the samples differ from those of a draw outside.

Inside :func:`recording`, the seeds of the thread's draws are kept, in
order; inside :func:`replaying`, the draws use those seeds again, and the
global generators are not touched. Recordings and replays are kept per
thread and nest: a recording made while another one is replayed takes its
seeds from that replay, so a ``forget`` nested in another draws the same
numbers in every run.
"""

import contextlib
import threading

import numpy

_CUPY_SEED_BOUND = 2**31 - 1


class _ThreadState(threading.local):
    def __init__(self):
        self.frames = []  # active _Recording / _Replay, innermost last
        self.scratch = None  # numpy RandomState that draws from a seed


_thread = _ThreadState()


def _new_seed(xp):
    if xp is numpy:
        return numpy.random.get_bit_generator().random_raw()
    return int(xp.random.get_random_state().randint(0, _CUPY_SEED_BOUND, size=()))


def _bits32(shape, seed):
    # uniform 32-bit words from a PCG64 generator seeded with ``seed``: each
    # 64-bit output gives two words (half the generator's work of a float64
    # sample, and no conversion)
    size = 1
    for n in shape:
        size *= n
    words = numpy.random.PCG64(seed).random_raw((size + 1) // 2).view(numpy.uint32)
    return words[:size].reshape(shape)


def _draw_from_seed(xp, method, shape, seed):
    if xp is numpy:
        if method == 'bits32':
            return _bits32(shape, seed)
        if _thread.scratch is None:
            _thread.scratch = numpy.random.RandomState()
        generator = _thread.scratch
        generator.seed(seed)
    else:
        generator = xp.random.RandomState(seed)
    return getattr(generator, method)(shape)


class _Recording(object):
    def __init__(self):
        self.seeds = []

    def seed(self, xp, depth):
        seed = _seed(xp, depth - 1)
        self.seeds.append(seed)
        return seed


class _Replay(object):
    def __init__(self, seeds):
        self.seeds = seeds
        self.position = 0

    def seed(self, xp, depth):
        if self.position == len(self.seeds):
            raise RuntimeError(
                'forget: the function drew more random numbers when it was '
                'recomputed than in its forward call ({} draws); it must '
                'draw the same way every time it is called'.format(len(self.seeds))
            )
        self.position += 1
        return self.seeds[self.position - 1]

    def skip(self, count):
        if self.position + count > len(self.seeds):
            raise RuntimeError(
                'forget: the recomputation passed over more random draws '
                'than its forward call made ({} draws)'.format(len(self.seeds))
            )
        self.position += count


def _seed(xp, depth):
    # The seed of a draw made under the frames up to ``depth``.
    if depth < 0:
        return _new_seed(xp)
    return _thread.frames[depth].seed(xp, depth)


def active():
    """Whether a recording or a replay is active in this thread.

    Returns:
        bool: ``True`` inside :func:`recording` or :func:`replaying`.
    """
    return bool(_thread.frames)


def draw(xp, method, shape):
    """Draws random numbers, recorded or replayed when one is active.

    Args:
        xp (module): ``numpy`` or ``cupy``: where the samples are drawn.
        method (str): Name of the sampling method of
            ``xp.random.RandomState`` (``'random_sample'``,
            ``'standard_normal'``), or ``'bits32'`` (NumPy only): uniform
            ``uint32`` words.
        shape (tuple of int): Shape of the result.

    Returns:
        numpy.ndarray or cupy.ndarray: The samples, in float64 (``uint32``
        for ``'bits32'``).

    Raises:
        RuntimeError: A replay has no recorded draw left.
    """
    frames = _thread.frames
    if frames:
        seed = frames[-1].seed(xp, len(frames) - 1)
    elif xp is numpy:
        seed = _new_seed(numpy)
    else:
        return getattr(xp.random, method)(shape)
    return _draw_from_seed(xp, method, shape, seed)


def skip(count):
    """Passes over the next ``count`` draws of this thread's innermost replay.

    A recomputation that does not run a part of the recorded call again
    (``F.forget`` reusing the outputs it kept) passes over the draws that
    part made, so that the draws after it stay in step.

    Args:
        count (int): The number of recorded draws to pass over.

    Raises:
        RuntimeError: No replay is active, or it has fewer draws left.
    """
    frames = _thread.frames
    if not frames or not isinstance(frames[-1], _Replay):
        raise RuntimeError('random_state.skip: no replay is active in this thread')
    frames[-1].skip(count)


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
    """Records the seeds of the draws made in the block by this thread.

    Yields:
        list of int: The seeds, in the order of the draws; filled as the
        block runs. Pass it to :func:`replaying` to draw the same numbers
        again.
    """
    frame = _Recording()
    with _active(frame):
        yield frame.seeds


@contextlib.contextmanager
def replaying(seeds):
    """Makes this thread's draws in the block repeat recorded ones.

    Args:
        seeds (list of int): Seeds recorded by :func:`recording`. The draws
            of the block must come in the same order, from the same array
            module, with the same methods and shapes as the recorded ones.
    """
    with _active(_Replay(seeds)):
        yield
