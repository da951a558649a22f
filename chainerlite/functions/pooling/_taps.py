"""The window taps of a pooling that reach the image, each with its outputs.

A tap that only ever falls in the padding changes nothing a NumPy pooling
computes, so looping over the taps that reach the image, each on the box of
outputs where it does, bounds the work by the input and output sizes
however large the window is.
"""

import itertools


def _axis_taps(d, o, k, s, p):
    # (tap, output slice, input slice) of one axis, taps in ascending order
    if s <= d:  # the taps of consecutive outputs overlap: one range
        js = range(max(0, p - (o - 1) * s), min(k, p + d))
    else:  # disjoint ranges, one per output, ascending in the tap
        js = itertools.chain.from_iterable(
            range(max(0, p - i * s), min(k, p - i * s + d))
            for i in range(o - 1, -1, -1)
        )
    taps = []
    for j in js:
        lo, hi = max(0, -((j - p) // s)), min(o - 1, (d - 1 + p - j) // s)
        if lo <= hi:
            start = lo * s + j - p
            taps.append(
                (j, slice(lo, hi + 1), slice(start, start + (hi - lo) * s + 1, s))
            )
    return taps


def reaching_taps(dims, outs, ksize, stride, pad):
    """Yields ``(k, out_index, in_index)`` for each tap that reaches the image.

    Args:
        dims, outs (tuple of int): Input and output lengths.
        ksize, stride, pad (tuple of int): The windows.

    Yields:
        tuple: ``k``, the tap's position in the flattened window (C order,
        ascending), and the indexes (``Ellipsis`` and one slice per axis) of
        the outputs where it lies in the image and of the input elements it
        sees there.

    """
    axes = [_axis_taps(*args) for args in zip(dims, outs, ksize, stride, pad)]
    for taps in itertools.product(*axes):
        k = 0
        for (j, _, _), size in zip(taps, ksize):
            k = k * size + j
        yield (
            k,
            (Ellipsis,) + tuple(t[1] for t in taps),
            (Ellipsis,) + tuple(t[2] for t in taps),
        )


def window_counts(dims, outs, ksize, stride, pad):
    """Per axis, the number of input elements in each window (a list)."""
    return [
        [max(0, min(i * s - p + k, d) - max(i * s - p, 0)) for i in range(o)]
        for d, o, k, s, p in zip(dims, outs, ksize, stride, pad)
    ]
