"""Tensor dot product of two arrays along given axes."""

from __future__ import annotations

import typing

from chainerlite.functions.math import einsum

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class TensorDot(einsum.EinSum):
    """Tensor dot product of two arrays.

    Its gradients are those of the einsum with the same subscripts; the
    forward calls ``tensordot`` directly.

    Args:
        in_subs (pair of str): Einsum subscripts of ``a`` and ``b``.
        out_sub (str): Einsum subscripts of the output.
        axes (pair of tuple of int): The paired axes of ``a`` and ``b``.

    """

    def __init__(self, in_subs, out_sub, axes):
        super().__init__(in_subs, out_sub)
        self.axes = axes

    def _contract(self, xp, inputs):
        a, b = inputs
        return xp.tensordot(a, b, axes=self.axes)


def _pair_axes(axes, a_ndim, b_ndim):
    # The contracted axes of a and of b, as two tuples.
    if isinstance(axes, int):
        if axes < 0:
            raise ValueError(
                'tensordot: axes must not be negative, got {}'.format(axes)
            )
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
            in order; ``0`` gives the outer product. A pair ``(a_axes,
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
    if a.ndim + b.ndim - len(b_axes) > len(einsum._SYMBOLS):
        raise ValueError('tensordot: too many axes')
    a_sub = einsum._SYMBOLS[: a.ndim]
    free = iter(einsum._SYMBOLS[a.ndim :])
    paired = dict(zip(b_axes, a_axes))
    b_sub = ''.join(
        a_sub[paired[j]] if j in paired else next(free) for j in range(b.ndim)
    )
    out_sub = ''.join(c for i, c in enumerate(a_sub) if i not in a_axes) + ''.join(
        c for j, c in enumerate(b_sub) if j not in paired
    )
    return TensorDot((a_sub, b_sub), out_sub, (a_axes, b_axes)).apply((a, b))[0]
