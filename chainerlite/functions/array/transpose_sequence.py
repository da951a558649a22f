"""Transposition of a batch of sequences into a sequence of batches."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite import variable
from chainerlite.functions.array import cast
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


def _transposed_lengths(lengths):
    # How many sequences have an element at each time step.
    if not lengths:
        return []
    return [sum(1 for n in lengths if n > t) for t in range(lengths[0])]


class TransposeSequence(function_node.FunctionNode):
    """Transposition of a list of sequences sorted by decreasing length."""

    def check_type_forward(self, in_types):
        type_check._argname(
            in_types, tuple('xs[{}]'.format(i) for i in range(len(in_types)))
        )
        x0 = in_types[0]
        type_check.expect(x0.ndim >= 1)
        for x in in_types[1:]:
            # any float dtypes: the outputs have that of xs[0], as Chainer's
            type_check.expect(x.dtype.kind == x0.dtype.kind, x.ndim == x0.ndim)
            for d in range(1, type_check.eval(x0.ndim)):
                type_check.expect(x.shape[d] == x0.shape[d])

    def forward(self, xs):
        xp = backend.get_array_module(*xs)
        self._n_inputs = len(xs)
        self._item = (xs[0].shape[1:], xs[0].dtype)
        self._sizes = _transposed_lengths([len(x) for x in xs])
        dtype = xs[0].dtype
        return tuple(
            xp.stack([x[t] for x in xs[:size]]).astype(dtype, copy=False)
            for t, size in enumerate(self._sizes)
        )

    def backward(self, indexes, grad_outputs):
        xp = backend.get_array_module(*[g for g in grad_outputs if g is not None])
        shape, dtype = self._item
        gys = [
            xp.zeros((size,) + shape, dtype) if g is None else g
            for g, size in zip(grad_outputs, self._sizes)
        ]
        gxs = list(TransposeSequence().apply(gys))
        gxs += [
            variable.Variable(xp.zeros((0,) + shape, dtype))
            for _ in range(self._n_inputs - len(gxs))
        ]
        return tuple(cast.as_dtype(gxs[i], self.inputs[i].dtype) for i in indexes)


def transpose_sequence(xs: typing.Sequence[Variable | NdArray]) -> tuple[Variable, ...]:
    """Transposes a list of sequences into a list of time steps.

    ``xs`` holds sequences (arrays whose first axis is time) sorted by
    decreasing length. The result holds one array per time step ``t``:
    the elements ``x[t]`` of the sequences that are longer than ``t``,
    stacked in the order of ``xs``. Applying the function to its result
    gives the sequences back. This turns a batch of sequences into the
    input of :func:`~chainerlite.functions.n_step_lstm` and its relatives.

    Args:
        xs (list of Variable or numpy.ndarray or cupy.ndarray): Sequences of
            the same dtype and trailing shape, sorted by decreasing length
            (empty sequences allowed at the end).

    Returns:
        tuple of Variable: One variable per time step; ``ys[t]`` has as
        many rows as there are sequences longer than ``t``. Empty when all
        the sequences are empty.

    Raises:
        ValueError: If the sequences are not sorted by decreasing length.
        chainerlite.utils.type_check.InvalidType: If their dtypes or
            trailing shapes differ.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> xs = [np.array([1, 2, 3]), np.array([4, 5]), np.array([6])]
        >>> [y.array.tolist() for y in F.transpose_sequence(xs)]
        [[1, 4, 6], [2, 5], [3]]

    """
    lengths = [len(x) for x in xs]
    if any(a < b for a, b in zip(lengths, lengths[1:])):
        raise ValueError(
            'transpose_sequence: xs must be sorted by decreasing length; got '
            'lengths {}'.format(lengths)
        )
    if not lengths or lengths[0] == 0:
        return ()
    return TransposeSequence().apply(xs)
