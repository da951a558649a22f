"""The one place where chainerlite draws random numbers.

Functions (``dropout``, ``gaussian``) and ``chainerlite.utils.WalkerAlias``
draw their random numbers only through these helpers, which take them from
:func:`chainerlite.utils.random_state.draw`: from the global generator of
the array module (``numpy.random`` or ``cupy.random``), or, inside
``F.forget``, in a way that its recomputation can replay.
"""

import numpy

from chainerlite.utils import random_state


def uniform(xp, shape, dtype):
    """Draws samples from the uniform distribution on ``[0, 1)``.

    Args:
        xp (module): ``numpy`` or ``cupy``: where the samples are drawn.
        shape (tuple of int): Shape of the result.
        dtype: Dtype of the result. The samples are drawn in float64 and
            cast, so a narrow dtype may round a sample up to ``1``.

    Returns:
        numpy.ndarray or cupy.ndarray: The samples.

    """
    return random_state.draw(xp, 'random_sample', shape).astype(dtype, copy=False)


def uniform_below(xp, high, shape, dtype):
    """Draws samples from the uniform distribution on ``[0, high)``.

    Outside a recording or replay of ``F.forget`` these are the draws of
    the array module's global generator that Chainer's ``WalkerAlias``
    makes: ``numpy.random.uniform(0, high, shape)`` in float64, or CuPy's
    ``uniform`` in float32 times ``high``; inside one, replayable draws
    of the same distribution, as with :func:`uniform`.

    Args:
        xp (module): ``numpy`` or ``cupy``: where the samples are drawn.
        high (int): Upper end of the interval.
        shape (tuple of int): Shape of the result.
        dtype: ``numpy.float64`` for NumPy, ``numpy.float32`` for CuPy.

    Returns:
        numpy.ndarray or cupy.ndarray: The samples.

    """
    if random_state.active():
        return uniform(xp, shape, dtype) * dtype(high)
    if xp is numpy:
        return numpy.random.uniform(0, high, shape)
    return xp.random.uniform(size=shape, dtype=dtype) * dtype(high)


def keep_key(ratio):
    """Draws the key of a NumPy dropout mask (see ``_kernels/dropout.pyx``).

    One draw of two uniform 32-bit words, recorded and replayed by
    ``F.forget`` as any other; the kernel makes the mask's words from it.
    Element ``i`` is kept where its word is at least ``ratio`` scaled to
    :math:`2^{32}` (rounded down), so the probability is within
    :math:`2^{-32}` of ``1 - ratio``; no float is drawn.

    Args:
        ratio (float): Probability of dropping an element, in ``[0, 1)``.

    Returns:
        tuple: The 64-bit key and the 32-bit threshold (ints).

    """
    words = random_state.draw(numpy, 'bits32', (2,))
    return int(words[0]) | int(words[1]) << 32, int(ratio * 4294967296.0)


def normal(xp, shape, dtype):
    """Draws samples from the standard normal distribution.

    Args:
        xp (module): ``numpy`` or ``cupy``: where the samples are drawn.
        shape (tuple of int): Shape of the result.
        dtype: Dtype of the result (the samples are drawn in float64).

    Returns:
        numpy.ndarray or cupy.ndarray: The samples.

    """
    return random_state.draw(xp, 'standard_normal', shape).astype(dtype, copy=False)


def rand(xp, shape):
    """Draws samples from the uniform distribution on ``[0, 1)`` in float64.

    Outside a recording or replay of ``F.forget`` this is a call of
    ``xp.random.rand(*shape)`` itself, as Chainer's ``zoneout`` makes (its
    tests patch that function to fix the mask); inside one, the draw is
    replayable as with :func:`uniform`.

    Args:
        xp (module): ``numpy`` or ``cupy``: where the samples are drawn.
        shape (tuple of int): Shape of the result.

    Returns:
        numpy.ndarray or cupy.ndarray: The samples.

    """
    if random_state.active():
        return random_state.draw(xp, 'random_sample', shape)
    return xp.random.rand(*shape)
