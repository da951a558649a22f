"""COO sparse matrices (``chainerlite.utils.CooMatrix``, ``to_coo``)."""

import numpy

from chainerlite import backend
from chainerlite import variable


class CooMatrix(object):
    """A sparse matrix, or a batch of them, in coordinate (COO) format.

    Entry ``k`` says that element ``(row[k], col[k])`` holds ``data[k]``;
    entries with a negative index are padding and are ignored, and entries
    that share an index add up. A batch has 2-dimensional ``data``,
    ``row`` and ``col``, one line per matrix.

    Args:
        data (array or ~chainerlite.Variable): The values.
        row (array): The row index of each value.
        col (array): The column index of each value.
        shape (tuple of int): ``(rows, columns)`` of each matrix.
        order (str): ``'C'`` if the entries are sorted by row then column,
            ``'F'`` if by column then row, ``'other'``; computed with
            :func:`get_order` when None.
        requires_grad (bool): Whether ``data`` is a Variable that needs a
            gradient (when an array is given).

    Attributes:
        data (~chainerlite.Variable): The values.

    Raises:
        ValueError: If the shapes of ``data``, ``row`` and ``col`` differ,
            ``shape`` is not two positive numbers, or ``order`` is another
            value.

    """

    def __init__(self, data, row, col, shape, order=None, requires_grad=False):
        if not (data.shape == row.shape == col.shape):
            raise ValueError(
                'CooMatrix: data, row and col must have the same shape, not '
                '{}, {} and {}'.format(data.shape, row.shape, col.shape)
            )
        if data.ndim not in (1, 2):
            raise ValueError('CooMatrix: data must be 1- or 2-dimensional')
        if len(shape) != 2:
            raise ValueError(
                'CooMatrix: shape must have two dimensions, not {}'.format(shape)
            )
        if not (shape[0] > 0 and shape[1] > 0):
            raise ValueError(
                'CooMatrix: the numbers in shape must be positive, not {}'.format(shape)
            )
        if order not in ('C', 'F', 'other', None):
            raise ValueError(
                "CooMatrix: order must be 'C', 'F', 'other' or None, not {!r}".format(
                    order
                )
            )
        if not isinstance(data, variable.Variable):
            data = variable.Variable(data, requires_grad=requires_grad)
        self.data = data
        self.row = row
        self.col = col
        self.shape = tuple(shape)
        self.order = get_order(row, col) if order is None else order
        self.requires_grad = requires_grad

    def to_dense(self):
        """Returns the matrix (or batch) as a dense array."""
        data = self.data.array
        xp = backend.get_array_module(data)
        batched = data.ndim == 2
        lines = (data.shape[0] if batched else 1, data.shape[-1])
        dense = xp.zeros(lines[:1] + self.shape, data.dtype)
        batch = xp.broadcast_to(xp.arange(lines[0])[:, None], lines)
        row = self.row.reshape(lines)
        col = self.col.reshape(lines)
        valid = (row >= 0) & (col >= 0)
        index = (batch[valid], row[valid], col[valid])
        values = data.reshape(lines)[valid]
        if xp is numpy:
            numpy.add.at(dense, index, values)
        else:
            import cupyx

            cupyx.scatter_add(dense, index, values)
        return dense if batched else dense[0]


def to_coo(x, ldnz=None, requires_grad=False):
    """Converts a dense matrix, or a batch of them, to a :class:`CooMatrix`.

    Args:
        x (array): A 2-dimensional matrix or a 3-dimensional batch.
        ldnz (int): The length of the entry arrays (of each matrix of a
            batch); the largest number of nonzero elements when None or
            smaller. Unused entries are padding (value 0, indices -1).
        requires_grad (bool): Whether the data Variable needs a gradient.

    Returns:
        CooMatrix: The nonzero elements in C order.

    Raises:
        ValueError: If ``x`` is not 2- or 3-dimensional.

    .. admonition:: Example

        >>> import numpy as np
        >>> from chainerlite import utils
        >>> sp = utils.to_coo(np.array([[0., 2.], [3., 0.]]))
        >>> sp.data.array, sp.row.tolist(), sp.col.tolist()
        (array([2., 3.]), [0, 1], [1, 0])

    """
    xp = backend.get_array_module(x)
    if x.ndim not in (2, 3):
        raise ValueError(
            'to_coo: x must be 2- or 3-dimensional, not {}-dimensional'.format(x.ndim)
        )
    batch = x if x.ndim == 3 else x[None]
    nonzeros = [xp.nonzero(m) for m in batch]
    nnz = max([len(r) for r, _ in nonzeros] + [0])
    if ldnz is None or ldnz < nnz:
        ldnz = nnz
    data = xp.zeros((len(batch), ldnz), x.dtype)
    row = xp.full((len(batch), ldnz), -1, numpy.int32)
    col = xp.full((len(batch), ldnz), -1, numpy.int32)
    for i, (r, c) in enumerate(nonzeros):
        n = len(r)
        data[i, :n] = batch[i][r, c]
        row[i, :n] = r
        col[i, :n] = c
    if x.ndim == 2:
        data, row, col = data[0], row[0], col[0]
    return CooMatrix(
        data, row, col, x.shape[-2:], order='C', requires_grad=requires_grad
    )


def _is_sorted(major, minor, valid):
    # Whether the valid entries of each line are in (major, minor) order.
    return all(_line_sorted(ma[v], mi[v]) for ma, mi, v in zip(major, minor, valid))


def _line_sorted(major, minor):
    if len(major) < 2:
        return True
    dmajor = major[1:] - major[:-1]
    dminor = minor[1:] - minor[:-1]
    return bool(((dmajor > 0) | ((dmajor == 0) & (dminor >= 0))).all())


def get_order(row, col):
    """Tells in which order the entries of a COO matrix are sorted.

    Args:
        row (array): Row indices (2-dimensional for a batch); padding
            entries have -1 in both ``row`` and ``col``.
        col (array): Column indices.

    Returns:
        str: ``'C'`` if sorted by row then column (each line of a batch),
        else ``'F'`` if sorted by column then row, else ``'other'``.

    Raises:
        ValueError: If the shapes differ, or an entry has a negative
            index in only one of ``row`` and ``col``.

    """
    if row.shape != col.shape:
        raise ValueError(
            'get_order: row and col must have the same shape, not {} and {}'.format(
                row.shape, col.shape
            )
        )
    lines = (-1 if row.size else 0, row.shape[-1])
    row = backend.CpuDevice().send(row).reshape(lines)
    col = backend.CpuDevice().send(col).reshape(lines)
    valid = (row >= 0) & (col >= 0)
    if (valid != ((row >= 0) | (col >= 0))).any():
        raise ValueError(
            'get_order: an entry has a negative index in only one of row and col'
        )
    if _is_sorted(row, col, valid):
        return 'C'
    if _is_sorted(col, row, valid):
        return 'F'
    return 'other'
