"""Sparse matrices in coordinate (COO) format, for ``F.sparse_matmul``."""

import numpy

import chainerlite
from chainerlite import backend


class CooMatrix(object):
    """A sparse matrix (or a batch of them) in coordinate format.

    Entry ``i`` holds the value ``data[i]`` at ``(row[i], col[i])``; entries
    at the same place add up, and an entry whose ``row`` and ``col`` are
    both ``-1`` is padding. A batch of matrices has 2-D ``data``, ``row``
    and ``col`` of shape ``(batch, ldnz)``.

    Args:
        data (numpy.ndarray or cupy.ndarray): The values; held as a
            Variable in :attr:`data`.
        row (numpy.ndarray or cupy.ndarray): Row indices, the shape of
            ``data``.
        col (numpy.ndarray or cupy.ndarray): Column indices, the shape of
            ``data``.
        shape (tuple of int): ``(rows, cols)`` of each matrix.
        order (str): ``'C'`` if the entries are sorted by row then column,
            ``'F'`` by column then row, ``'other'`` otherwise; ``None``
            computes it with :func:`get_order`.
        requires_grad (bool): Whether :attr:`data` requires a gradient.

    """

    def __init__(self, data, row, col, shape, order=None,
                 requires_grad=False):
        if not (data.shape == row.shape == col.shape and data.ndim in (1, 2)):
            raise ValueError(
                'CooMatrix: data, row and col must have one 1-D or 2-D '
                'shape, not {}, {} and {}'.format(
                    data.shape, row.shape, col.shape))
        if len(shape) != 2:
            raise ValueError(
                'CooMatrix: shape must have 2 elements, not {}'.format(shape))
        if order is None:
            order = get_order(row, col)
        if order not in ('C', 'F', 'other'):
            raise ValueError(
                "CooMatrix: order must be 'C', 'F' or 'other', not "
                '{!r}'.format(order))
        self.data = chainerlite.Variable(data, requires_grad=requires_grad)
        self.row = row
        self.col = col
        self.shape = tuple(shape)
        self.order = order

    def to_dense(self):
        """Returns the dense matrix (or batch of matrices)."""
        data = self.data.array
        xp = backend.get_array_module(data)
        batched = data.ndim == 2
        n_batch = data.shape[0] if batched else 1
        data2, row2, col2 = [a.reshape(n_batch, -1)
                             for a in (data, self.row, self.col)]
        rows, cols = self.shape
        batch = xp.arange(n_batch)[:, None]
        used = row2 >= 0
        flat = ((batch * rows + row2) * cols + col2)[used]
        # bincount adds up the values of entries at the same place.
        dense = xp.bincount(flat, weights=data2[used].astype(numpy.float64),
                            minlength=n_batch * rows * cols)
        dense = dense.astype(data.dtype).reshape((n_batch,) + self.shape)
        return dense if batched else dense[0]


def to_coo(x, ldnz=None, requires_grad=False):
    """Converts a dense matrix (or batch of matrices) to a :class:`CooMatrix`.

    Args:
        x (numpy.ndarray or cupy.ndarray): A 2-D matrix or a 3-D batch.
        ldnz (int): Number of entries to hold per matrix (padding the
            rest); ``None`` is the largest number of non-zeros.
        requires_grad (bool): Whether the values require a gradient.

    Returns:
        CooMatrix: The non-zero entries of ``x`` in row-major order.

    Raises:
        ValueError: ``x`` is not 2-D or 3-D, or ``ldnz`` is too small.

    """
    xp = backend.get_array_module(x)
    if x.ndim not in (2, 3):
        raise ValueError(
            'to_coo: x must be 2-D or 3-D, not {}-D'.format(x.ndim))
    batched = x.ndim == 3
    xs = x if batched else x[None]
    counts = [int(xp.count_nonzero(m)) for m in xs]
    width = max(counts) if ldnz is None else ldnz
    if width < max(counts):
        raise ValueError(
            'to_coo: ldnz ({}) is less than the number of non-zero '
            'elements ({})'.format(ldnz, max(counts)))
    data = xp.zeros((len(xs), width), x.dtype)
    row = xp.full((len(xs), width), -1, numpy.int32)
    col = xp.full((len(xs), width), -1, numpy.int32)
    for i, m in enumerate(xs):
        r, c = xp.nonzero(m)
        data[i, :counts[i]] = m[r, c]
        row[i, :counts[i]] = r
        col[i, :counts[i]] = c
    if not batched:
        data, row, col = data[0], row[0], col[0]
    return CooMatrix(data, row, col, x.shape[-2:], order='C',
                     requires_grad=requires_grad)


def _sorted_pairs(major, minor):
    # Whether (major, minor) never decreases in lexicographic order.
    if len(major) < 2:
        return True
    step_major = major[1:] - major[:-1]
    step_minor = minor[1:] - minor[:-1]
    return bool(((step_major > 0) | ((step_major == 0) & (step_minor >= 0)))
                .all())


def get_order(row, col):
    """Tells in which order the entries of a COO matrix are sorted.

    Padding entries (both indices ``-1``) are skipped.

    Args:
        row (numpy.ndarray or cupy.ndarray): Row indices (2-D for a batch).
        col (numpy.ndarray or cupy.ndarray): Column indices, same shape.

    Returns:
        str: ``'C'`` (by row, then column), ``'F'`` (by column, then row)
        or ``'other'``.

    Raises:
        ValueError: The shapes differ, or only one index of an entry is
            ``-1``.

    """
    if row.shape != col.shape:
        raise ValueError('get_order: row and col must have the same shape, '
                         'not {} and {}'.format(row.shape, col.shape))
    row = numpy.atleast_2d(backend.CpuDevice().send(row))
    col = numpy.atleast_2d(backend.CpuDevice().send(col))
    if ((row < 0) != (col < 0)).any():
        raise ValueError('get_order: an entry has only one index of -1')
    pairs = [(r[r >= 0].astype(numpy.int64), c[r >= 0].astype(numpy.int64))
             for r, c in zip(row, col)]
    if all(_sorted_pairs(r, c) for r, c in pairs):
        return 'C'
    if all(_sorted_pairs(c, r) for r, c in pairs):
        return 'F'
    return 'other'
