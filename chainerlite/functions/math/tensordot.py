"""Tensor dot product of two arrays along given axes."""

from __future__ import annotations

import typing

from chainerlite.functions.math import einsum
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class TensorDot(einsum.EinSum):
    """Tensor dot product of two arrays, with Chainer's arguments.

    ``axes`` is as in :func:`tensordot`. ``a_axes`` and ``b_axes``, when
    given, are ``[free axes, summed axes]`` of ``a`` and ``[summed axes,
    free axes]`` of ``b`` (``a_axes[1][k]`` summed with ``b_axes[0][k]``);
    ``c_axes`` is ``[positions of a's free axes, positions of b's free
    axes]`` in the output (by default a's then b's, in order). The first
    forward sets all three, as Chainer's node does; ``dtype`` casts the
    output.
    """

    def __init__(self, axes=2, a_axes=None, b_axes=None, c_axes=None, dtype=None):
        if isinstance(axes, (list, tuple)):
            if len(axes) != 2:
                raise ValueError(
                    'tensordot: axes must be a pair of sequence of '
                    'integers when it is a list or tuple'
                )
        elif not isinstance(axes, int):
            raise TypeError(
                'tensordot: axes must be a pair of sequence of integers or an integer'
            )
        super().__init__((), '', out_dtype=dtype)
        self.axes = axes
        self.a_axes = a_axes
        self.b_axes = b_axes
        self.c_axes = c_axes
        self.dtype = dtype

    def _set_axes(self, a_ndim, b_ndim):
        if self.a_axes is None or self.b_axes is None:
            summed_a, summed_b = _pair_axes(self.axes, a_ndim, b_ndim)
            self.a_axes = [[i for i in range(a_ndim) if i not in summed_a], summed_a]
            self.b_axes = [summed_b, [j for j in range(b_ndim) if j not in summed_b]]
        if self.c_axes is None:
            n_a = len(self.a_axes[0])
            n_b = len(self.b_axes[1])
            self.c_axes = [list(range(n_a)), list(range(n_a, n_a + n_b))]
        # the einsum subscripts of these axes
        a_sub = einsum.einsum_symbols[:a_ndim]
        free = iter(einsum.einsum_symbols[a_ndim:])
        paired = dict(zip(self.b_axes[0], self.a_axes[1]))
        b_sub = ''.join(
            a_sub[paired[j]] if j in paired else next(free) for j in range(b_ndim)
        )
        out = [None] * (len(self.c_axes[0]) + len(self.c_axes[1]))
        for pos, i in zip(self.c_axes[0], self.a_axes[0]):
            out[pos] = a_sub[i]
        for pos, j in zip(self.c_axes[1], self.b_axes[1]):
            out[pos] = b_sub[j]
        self.subs = (a_sub, b_sub)
        self.out_sub = ''.join(out)

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('a', 'b'))
        a_type, b_type = in_types
        self._set_axes(type_check.eval(a_type.ndim), type_check.eval(b_type.ndim))
        super().check_type_forward(in_types)

    def forward(self, inputs):
        a, b = inputs
        self._set_axes(a.ndim, b.ndim)
        return super().forward(inputs)

    def backward(self, indexes, grad_outputs):
        # each gradient is a TensorDot of the output gradient with the other
        # input (Chainer's nodes, which hooks see), in that input's dtype
        a, b = self.get_retained_inputs()
        (gc,) = grad_outputs
        grads = []
        if 0 in indexes:
            node = TensorDot(
                a_axes=self.c_axes,
                b_axes=[self.b_axes[1], self.b_axes[0]],
                c_axes=self.a_axes,
                dtype=a.dtype,
            )
            grads.append(node.apply((gc, b))[0])
        if 1 in indexes:
            node = TensorDot(
                a_axes=[self.a_axes[1], self.a_axes[0]],
                b_axes=self.c_axes,
                c_axes=self.b_axes,
                dtype=b.dtype,
            )
            grads.append(node.apply((a, gc))[0])
        return tuple(grads)

    def _contract(self, xp, inputs):
        a, b = inputs
        y = xp.tensordot(a, b, axes=(tuple(self.a_axes[1]), tuple(self.b_axes[0])))
        # tensordot gives a's free axes, then b's, each in ascending order
        order = sorted(self.a_axes[0]) + [a.ndim + j for j in sorted(self.b_axes[1])]
        where = dict(zip(self.a_axes[0], self.c_axes[0]))
        where.update((a.ndim + j, p) for j, p in zip(self.b_axes[1], self.c_axes[1]))
        perm = [0] * len(order)
        for k, axis in enumerate(order):
            perm[where[axis]] = k
        return y.transpose(perm) if perm != sorted(perm) else y


def _pair_axes(axes, a_ndim, b_ndim):
    # The contracted axes of a and of b, as two tuples.
    if isinstance(axes, int):
        # a negative count contracts no axis (an outer product), as NumPy's
        # and Chainer 7.8.1's ranges make it
        if a_ndim < axes or b_ndim < axes:
            raise ValueError(
                'tensordot: dimension of input tensors must be greater '
                'equal to dot-axes count ({})'.format(axes)
            )
        return tuple(range(a_ndim - axes, a_ndim)), tuple(range(axes))
    if not isinstance(axes, (list, tuple)):
        raise TypeError(
            'tensordot: axes must be a pair of sequence of integers or an integer'
        )
    if len(axes) != 2:
        raise ValueError(
            'tensordot: axes must be a pair of sequence of '
            'integers when it is a list or tuple'
        )
    a_axes, b_axes = [(ax,) if isinstance(ax, int) else tuple(ax) for ax in axes]
    if len(a_axes) != len(b_axes):
        raise ValueError(
            'tensordot: axes count mismatch: {} and {}'.format(a_axes, b_axes)
        )
    if a_ndim < len(a_axes) or b_ndim < len(b_axes):
        raise ValueError(
            'tensordot: dimension of input tensors must be greater equal to '
            'dot-axes count ({})'.format(len(a_axes))
        )
    return _normalize(a_axes, a_ndim, 'a'), _normalize(b_axes, b_ndim, 'b')


def _normalize(axes, ndim, name):
    for ax in axes:
        if not -ndim <= ax < ndim:
            raise ValueError(
                'tensordot: axis {} is out of range for {} of ndim {}'.format(
                    ax, name, ndim
                )
            )
    axes = tuple(ax % ndim for ax in axes)
    if len(set(axes)) != len(axes):
        raise ValueError('tensordot: repeated axes {} of {}'.format(axes, name))
    return axes


def tensordot(a: Variable | NdArray, b: Variable | NdArray, axes=2) -> Variable:
    """Tensor dot product of two arrays along given axes.

    The paired axes of ``a`` and ``b`` are multiplied and summed over, as if
    each group were one axis and a matrix product were taken. The output
    axes are the other axes of ``a``, then the other axes of ``b``.

    Args:
        a (Variable or numpy.ndarray or cupy.ndarray): The first operand, of
            a floating point dtype.
        b (Variable or numpy.ndarray or cupy.ndarray): The second operand,
            of a floating point dtype.
        axes (int or pair of (int or sequence of int)): An int ``n`` pairs
            the last ``n`` axes of ``a`` with the first ``n`` axes of ``b``,
            in order; ``0`` (or a negative ``n``, as in NumPy) gives the
            outer product. A pair ``(a_axes,
            b_axes)`` pairs ``a_axes[k]`` with ``b_axes[k]``.

    Returns:
        Variable: The tensor dot product, of the result type of ``a`` and
        ``b``.

    Raises:
        TypeError: If ``axes`` is neither an int nor a pair.
        ValueError: If ``axes`` is not a pair, the two groups differ in
            length, an axis is out of range or repeated, or paired axes
            differ in size (``shape mismatch``).

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> a = np.ones((5, 3, 2), np.float32)
        >>> b = np.ones((3, 2, 4), np.float32)
        >>> F.tensordot(a, b).shape
        (5, 4)
        >>> F.tensordot(a, b, axes=([1], [0])).shape
        (5, 2, 2, 4)

    """
    a_axes, b_axes = _pair_axes(axes, a.ndim, b.ndim)
    for i, j in zip(a_axes, b_axes):
        if a.shape[i] != b.shape[j]:
            raise ValueError(
                'tensordot: shape mismatch: a.shape[{}] == {} but '
                'b.shape[{}] == {}'.format(i, a.shape[i], j, b.shape[j])
            )
    if a.ndim + b.ndim - len(b_axes) > len(einsum.einsum_symbols):
        raise ValueError('tensordot: too many axes')
    # the node keeps the axes given, as Chainer's does
    return TensorDot(axes=axes).apply((a, b))[0]
