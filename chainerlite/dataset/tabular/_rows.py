"""Row selections of ``get_examples``: None, a slice, or a list of ints.

A list that reaches ``get_examples`` holds non-negative ints; a slice is
kept a slice through composition, so a dataset that reads slices cheaply
(an array) still gets one.
"""

import numpy


def normalize(indices, n):
    """Checks a user's row selection against ``n`` rows and normalizes it.

    Args:
        indices (slice or sequence): A slice, numbers (negative ones count
            from the end) or a mask of ``n`` bools.
        n (int): The number of rows.

    Returns:
        slice or list of ints: The slice as it is, or the rows as
        non-negative ints.

    Raises:
        IndexError: If an integer is out of range.
        ValueError: If a mask does not have ``n`` entries, or a slice step
            is zero.
        TypeError: If ``indices`` is neither a slice nor a sequence.
    """
    if isinstance(indices, slice):
        indices.indices(n)  # raises ValueError for a zero step
        return indices
    if isinstance(indices, numpy.ndarray):
        indices = indices.tolist()
    elif hasattr(indices, '__len__'):
        indices = list(indices)  # any sequence, as Chainer takes (a range)
    else:
        raise TypeError(
            'rows of a tabular dataset are selected by a slice or a sequence, '
            'not {}'.format(type(indices).__name__)
        )
    if indices and all(isinstance(i, (bool, numpy.bool_)) for i in indices):
        if len(indices) != n:
            raise ValueError(
                'a mask of {} bools cannot select rows of a tabular dataset '
                'of length {}'.format(len(indices), n)
            )
        return [i for i, keep in enumerate(indices) if keep]
    rows = []
    for i in indices:
        i = int(i)  # as Chainer: a float counts as the int it truncates to
        if not -n <= i < n:
            raise IndexError(
                'index {} is out of range for a tabular dataset of length {}'.format(
                    i, n
                )
            )
        rows.append(i % n)
    return rows


def count(indices, n):
    """Returns how many rows ``indices`` selects out of ``n``."""
    if indices is None:
        return n
    if isinstance(indices, slice):
        return len(range(*indices.indices(n)))
    return len(indices)


def compose(outer, inner, n):
    """Returns the rows of ``n`` that ``inner`` selects within ``outer``."""
    if inner is None:
        return outer
    if outer is None:
        return inner
    if isinstance(outer, slice):
        rows = range(*outer.indices(n))
        if isinstance(inner, slice):
            return _as_slice(rows[inner])
        return [rows[i] for i in inner]
    if isinstance(inner, slice):
        return outer[inner]
    return [outer[i] for i in inner]


def _as_slice(rows):
    # A slice stop below zero would count from the end; None goes past 0.
    if not rows:
        return slice(0, 0, 1)
    stop = rows.stop if rows.stop >= 0 else None
    return slice(rows.start, stop, rows.step)
