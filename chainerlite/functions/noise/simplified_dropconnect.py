"""Simplified DropConnect: a linear layer with randomly dropped weights."""

from __future__ import annotations

import math
import typing

import numpy

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite import variable
from chainerlite.functions.array import cast
from chainerlite.functions.array import reshape
from chainerlite.functions.math import einsum
from chainerlite.functions.math import sum as sum_mod
from chainerlite.functions.noise import _random
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


def _cast(x, dtype):
    return x if x.dtype == dtype else cast.cast(x, dtype)


class SimplifiedDropconnect(function_node.FunctionNode):
    """Linear function whose weight is masked: ``y = x (W * M)^T + b``.

    After forward, ``mask`` holds the boolean mask that was applied, of
    shape ``W.shape`` or, with a batchwise mask, ``(batch,) + W.shape``.
    Outside training :func:`simplified_dropconnect` gives it ``ratio=0``,
    as Chainer does: a mask drawn then keeps every weight (the draw still
    advances the random state), a mask given is applied unscaled.
    """

    def __init__(self, ratio, mask=None, use_batchwise_mask=True):
        self.ratio = ratio
        self.mask = mask
        self.use_batchwise_mask = use_batchwise_mask

    def check_type_forward(self, in_types):
        n_in = type_check.eval(in_types.size())
        if n_in not in (2, 3):
            raise type_check.InvalidType(
                'in_types.size() == 2 or in_types.size() == 3',
                'in_types.size() == {}'.format(n_in),
            )
        type_check.argname(in_types, ('x', 'W', 'b')[:n_in])
        x_type, w_type = in_types[:2]
        type_check.expect(
            x_type.dtype.kind == 'f',
            w_type.dtype.kind == 'f',
            x_type.ndim >= 2,
            w_type.ndim == 2,
            type_check.prod(x_type.shape[1:]) == w_type.shape[1],
        )
        if n_in == 3:
            b_type = in_types[2]
            type_check.expect(
                b_type.dtype == x_type.dtype,
                b_type.ndim == 1,
                b_type.shape[0] == w_type.shape[0],
            )
        if self.mask is not None:
            expected = self._mask_shape(
                type_check.eval(x_type.shape[0]), type_check.eval(w_type.shape)
            )
            if self.mask.shape != expected:
                raise type_check.InvalidType(
                    'mask.shape == {}'.format(expected),
                    'mask.shape == {}'.format(self.mask.shape),
                )

    def _mask_shape(self, batch, w_shape):
        if self.use_batchwise_mask:
            return (batch,) + tuple(w_shape)
        return tuple(w_shape)

    def forward(self, inputs):
        # Checked after the inputs (whose errors come first, as in Chainer
        # 7.8.1); outside training the function passes 0.
        if not 0.0 <= self.ratio < 1.0:
            raise ValueError(
                'simplified_dropconnect: ratio must be in [0, 1) in training, '
                'got {}'.format(self.ratio)
            )
        self.retain_inputs((0, 1))
        x, W = inputs[:2]
        xp = backend.get_array_module(x)
        shape = self._mask_shape(x.shape[0], W.shape)
        if self.mask is None:
            self.mask = _random.uniform(xp, shape, 'd') >= self.ratio
        scale = 1.0 / (1.0 - self.ratio)
        # the masked weight in W's dtype, the products in the promotion of
        # W's and x's dtypes, cast to x's before the bias is added: Chainer
        # 7.8.1's rounding where W is wider than x
        self._scaled_mask = (self.mask * scale).astype(W.dtype)
        w = W * self._scaled_mask
        x2 = x.reshape(len(x), math.prod(x.shape[1:]))  # (-1: ambiguous at 0 rows)
        if self.use_batchwise_mask:
            y = xp.einsum('noi,ni->no', w, x2)
        else:
            y = x2.dot(w.T)
        y = y.astype(x.dtype, copy=False)
        if len(inputs) == 3:
            y += inputs[2]
        return (utils.force_array(y, x.dtype),)

    def backward(self, indexes, grad_outputs):
        x, W = self.get_retained_inputs()
        (gy,) = grad_outputs
        m = self._scaled_mask
        x2 = reshape.reshape(x, (len(x), math.prod(x.shape[1:])))
        grads = []
        if 0 in indexes:
            wide = numpy.promote_types(x.dtype, W.dtype)
            w = _cast(W * m, wide)
            spec = 'no,noi->ni' if self.use_batchwise_mask else 'no,oi->ni'
            gx = _cast(einsum.einsum(spec, _cast(gy, wide), w), x.dtype)
            grads.append(reshape.reshape(gx, x.shape))
        if 1 in indexes:
            m = m.astype(x.dtype, copy=False)
            if self.use_batchwise_mask:
                gw = sum_mod.sum(einsum.einsum('no,ni->noi', gy, x2) * m, axis=0)
            else:
                gw = einsum.einsum('no,ni->oi', gy, x2) * m
            grads.append(_cast(gw, W.dtype))
        if 2 in indexes:
            grads.append(sum_mod.sum(gy, axis=0))
        return tuple(grads)


def simplified_dropconnect(
    x: Variable | NdArray,
    W: Variable | NdArray,
    b: Variable | NdArray | None = None,
    ratio=0.5,
    train=True,
    mask=None,
    use_batchwise_mask=True,
) -> Variable:
    """Linear unit with randomly dropped weights (simplified DropConnect).

    In training, each weight is kept with probability ``1 - ratio`` (else
    set to zero) and the kept ones are scaled by ``1 / (1 - ratio)``:

    .. math::
        y = x (W \\odot M)^T / (1 - \\mathrm{ratio}) + b

    With ``use_batchwise_mask``, every example of the batch gets its own
    mask. Outside training (``train=False``) this is the plain linear
    function. Only the weights are masked, not the bias: this is the
    simplified form of DropConnect (Wan et al., ICML 2013).

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of shape
            ``(n, ...)`` whose trailing axes hold ``in_size`` elements.
        W (Variable or numpy.ndarray or cupy.ndarray): Weight of shape
            ``(out_size, in_size)``; cast to the dtype of ``x``.
        b (Variable or numpy.ndarray or cupy.ndarray): Bias of shape
            ``(out_size,)`` and the dtype of ``x``, or ``None``.
        ratio (float): Probability of dropping a weight, in ``[0, 1)``.
        train (bool): Whether to drop weights.
        mask (numpy.ndarray or cupy.ndarray or Variable): Mask to use
            instead of drawing one (true where the weight is kept), of
            shape ``(n, out_size, in_size)`` with a batchwise mask,
            ``(out_size, in_size)`` otherwise.
        use_batchwise_mask (bool): Draw one mask per example.

    Returns:
        Variable: Output of shape ``(n, out_size)`` and the dtype of ``x``.

    Raises:
        ValueError: If ``ratio`` is outside ``[0, 1)`` in training (after
            the inputs are checked; outside training it is not used).
        ~chainerlite.utils.type_check.InvalidType: If the shapes or dtypes
            do not fit (the mask's included).

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.ones((2, 3), np.float32)
        >>> W = np.ones((1, 3), np.float32)
        >>> mask = np.array([[True, False, True]])
        >>> F.simplified_dropconnect(
        ...     x, W, ratio=0.5, mask=mask, use_batchwise_mask=False).array
        array([[4.],
               [4.]], dtype=float32)

    """
    if isinstance(mask, variable.Variable):
        mask = mask.array
    if not train:
        ratio = 0
    func = SimplifiedDropconnect(ratio, mask, use_batchwise_mask)
    inputs = (x, W) if b is None else (x, W, b)
    return func.apply(inputs)[0]
