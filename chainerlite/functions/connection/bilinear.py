"""Bilinear function of two inputs (the Neural Tensor Network layer)."""

from __future__ import annotations

import math
import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite.functions.array import broadcast
from chainerlite.functions.array import reshape
from chainerlite.functions.array import transpose
from chainerlite.functions.math import matmul
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


def _as_mat(x):
    # (the width spelled out: -1 is ambiguous for a batch of no rows)
    return x.reshape(len(x), math.prod(x.shape[1:]))


class BilinearFunction(function_node.FunctionNode):
    """Bilinear function ``y_il = e1_ij e2_ik W_jkl (+ linear terms)``."""

    def check_type_forward(self, in_types):
        n_in = type_check.eval(in_types.size())
        if n_in != 3 and n_in != 6:
            raise type_check.InvalidType(
                'in_types.size() == 3 or in_types.size() == 6',
                'in_types.size() == {}'.format(n_in),
            )
        names = ('e1', 'e2', 'W', 'V1', 'V2', 'b')
        type_check.argname(in_types, names[:n_in])
        e1_type, e2_type, w_type = in_types[:3]
        type_check.expect(
            e1_type.dtype.kind == 'f',
            e1_type.ndim >= 2,
            e2_type.dtype == e1_type.dtype,
            e2_type.ndim >= 2,
            e1_type.shape[0] == e2_type.shape[0],
            w_type.dtype == e1_type.dtype,
            w_type.ndim == 3,
            type_check.prod(e1_type.shape[1:]) == w_type.shape[0],
            type_check.prod(e2_type.shape[1:]) == w_type.shape[1],
        )
        if n_in == 6:
            v1_type, v2_type, b_type = in_types[3:]
            type_check.expect(
                v1_type.dtype == e1_type.dtype,
                v1_type.ndim == 2,
                v1_type.shape[0] == w_type.shape[0],
                v1_type.shape[1] == w_type.shape[2],
                v2_type.dtype == e1_type.dtype,
                v2_type.ndim == 2,
                v2_type.shape[0] == w_type.shape[1],
                v2_type.shape[1] == w_type.shape[2],
                b_type.dtype == e1_type.dtype,
                b_type.ndim == 1,
                b_type.shape[0] == w_type.shape[2],
            )

    def forward(self, inputs):
        self.retain_inputs(tuple(range(len(inputs))))
        xp = backend.get_array_module(*inputs)
        e1, e2, W = _as_mat(inputs[0]), _as_mat(inputs[1]), inputs[2]
        j, k, l_ = W.shape
        outer = (e1[:, :, None] * e2[:, None, :]).reshape(len(e1), j * k)
        y = xp.matmul(outer, W.reshape(j * k, l_))
        if len(inputs) == 6:
            V1, V2, b = inputs[3:]
            y += xp.matmul(e1, V1)
            y += xp.matmul(e2, V2)
            y += b
        return (y,)

    def backward(self, indexes, grad_outputs):
        inputs = self.get_retained_inputs()
        # the weights but b, then gy: the gradient node's inputs
        grads = BilinearFunctionGrad().apply(inputs[:5] + tuple(grad_outputs))
        return tuple(grads[i] for i in indexes)


class BilinearFunctionGrad(function_node.FunctionNode):
    """The gradients of :class:`BilinearFunction`: from ``(e1, e2, W, gy)``
    or ``(e1, e2, W, V1, V2, gy)``, those of ``e1``, ``e2`` and ``W`` (and of
    ``V1``, ``V2`` and ``b``). Its backward forms every second-order term as
    one product of two operands' entries contracted with a third operand
    (as Chainer groups them, so infinities meet in the same sums)."""

    def forward(self, inputs):
        self.retain_inputs(tuple(range(len(inputs))))
        xp = backend.get_array_module(*inputs)
        e1, e2, W, gy = _as_mat(inputs[0]), _as_mat(inputs[1]), inputs[2], inputs[-1]
        n = len(e1)
        j, k, l_ = W.shape
        # gy_il W_jkl summed over l, as a stack of (j, k) matrices
        gyw = xp.matmul(gy, W.reshape(j * k, l_).T).reshape(n, j, k)
        ge1 = xp.matmul(gyw, e2[:, :, None])[:, :, 0]
        ge2 = xp.matmul(e1[:, None, :], gyw)[:, 0, :]
        outer = (e1[:, :, None] * e2[:, None, :]).reshape(n, j * k)
        gW = xp.matmul(outer.T, gy).reshape(j, k, l_)
        if len(inputs) == 6:
            V1, V2 = inputs[3:5]
            ge1 += xp.matmul(gy, V1.T)
            ge2 += xp.matmul(gy, V2.T)
            linear = (xp.matmul(e1.T, gy), xp.matmul(e2.T, gy), gy.sum(axis=0))
        else:
            linear = ()
        return (ge1.reshape(inputs[0].shape), ge2.reshape(inputs[1].shape), gW) + linear

    def backward(self, indexes, grad_outputs):
        inputs = self.get_retained_inputs()
        e1, e2, W, gy = _as_mat(inputs[0]), _as_mat(inputs[1]), inputs[2], inputs[-1]
        gge1, gge2, ggW = grad_outputs[:3]
        gge1 = None if gge1 is None else _as_mat(gge1)
        gge2 = None if gge2 is None else _as_mat(gge2)
        # W's axes put in the order a contraction onto e1's (k, l, j), e2's
        # (j, l, k) and gy's (j, k, l) axes reads them
        to_e1, to_e2 = (1, 2, 0), (0, 2, 1)
        terms = {
            0: [_contracted(e2, gy, ggW, to_e1), _contracted(gge2, gy, W, to_e1)],
            1: [_contracted(e1, gy, ggW, to_e2), _contracted(gge1, gy, W, to_e2)],
            2: [_spread(gge1, e2, gy), _spread(e1, gge2, gy)],
            len(inputs) - 1: [
                _contracted(e1, e2, ggW, None),
                _contracted(gge1, e2, W, None),
                _contracted(e1, gge2, W, None),
            ],
        }
        if len(inputs) == 6:
            V1, V2 = inputs[3:5]
            ggV1, ggV2, ggb = grad_outputs[3:]
            terms[0].append(_product(gy, ggV1, transb=True))
            terms[1].append(_product(gy, ggV2, transb=True))
            terms[3] = [_product(gge1, gy, transa=True)]
            terms[4] = [_product(gge2, gy, transa=True)]
            terms[5] += [
                _product(gge1, V1),
                _product(gge2, V2),
                _product(e1, ggV1),
                _product(e2, ggV2),
                None if ggb is None else broadcast.broadcast_to(ggb, gy.shape),
            ]
        out = []
        for i in indexes:
            found = [t for t in terms[i] if t is not None]
            total = None
            for t in found:
                total = t if total is None else total + t
            if total is not None and i < 2:
                total = reshape.reshape(total, inputs[i].shape)
            out.append(total)
        return tuple(out)


def _pairs(a, b):
    """``a_ip b_iq`` as an ``(n, p * q)`` matrix."""
    (n, p), q = a.shape, b.shape[1]
    product = reshape.reshape(a, (n, p, 1)) * reshape.reshape(b, (n, 1, q))
    return reshape.reshape(product, (n, p * q))


def _contracted(a, b, t, axes):
    """``sum_pq a_ip b_iq t'_pqr`` with ``t' = t.transpose(axes)``, the
    products of ``a`` and ``b`` formed first (None where an operand is)."""
    if a is None or b is None or t is None:
        return None
    if axes is not None:
        t = transpose.transpose(t, axes)
    return matmul.matmul(
        _pairs(a, b), reshape.reshape(t, (t.shape[0] * t.shape[1], t.shape[2]))
    )


def _spread(a, b, c):
    """``sum_i a_ip b_iq c_ir`` as a ``(p, q, r)`` array (None where an
    operand is)."""
    if a is None or b is None:
        return None
    out = matmul.matmul(_pairs(a, b), c, transa=True)
    return reshape.reshape(out, (a.shape[1], b.shape[1], c.shape[1]))


def _product(a, b, **trans):
    return None if a is None or b is None else matmul.matmul(a, b, **trans)


def bilinear(
    e1, e2, W: Variable | NdArray, V1=None, V2=None, b: Variable | NdArray | None = None
) -> Variable:
    """Bilinear function of two inputs.

    It is the building block of the Neural Tensor Network. With ``I`` the
    batch size, ``e1`` of shape ``(I, J)``, ``e2`` of shape ``(I, K)``,
    ``W`` of shape ``(J, K, L)``, ``V1`` of shape ``(J, L)``, ``V2`` of
    shape ``(K, L)`` and ``b`` of shape ``(L,)``, it computes

    .. math::
        y_{il} = \\sum_{jk} e^1_{ij} e^2_{ik} W_{jkl}
            + \\sum_j e^1_{ij} V^1_{jl} + \\sum_k e^2_{ik} V^2_{kl} + b_l.

    The last three (linear) terms are left out when ``V1``, ``V2`` and ``b``
    are all ``None``. Inputs with more than two dimensions keep their first
    axis as the batch axis and have the others flattened.

    Args:
        e1 (Variable or numpy.ndarray or cupy.ndarray): Left input.
        e2 (Variable or numpy.ndarray or cupy.ndarray): Right input.
        W (Variable or numpy.ndarray or cupy.ndarray): Quadratic weight.
        V1 (Variable or numpy.ndarray or cupy.ndarray): Left linear weight,
            or ``None``.
        V2 (Variable or numpy.ndarray or cupy.ndarray): Right linear weight,
            or ``None``.
        b (Variable or numpy.ndarray or cupy.ndarray): Bias, or ``None``.

    Returns:
        Variable: Output of shape ``(I, L)``; all inputs share one floating
        point dtype.

    Raises:
        ValueError: If some but not all of ``V1``, ``V2`` and ``b`` are
            ``None``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> e1 = np.array([[1, 2]], np.float32)
        >>> e2 = np.array([[3, 4, 5]], np.float32)
        >>> W = np.ones((2, 3, 1), np.float32)
        >>> F.bilinear(e1, e2, W).array
        array([[36.]], dtype=float32)

    """
    linear_terms = (V1, V2, b)
    if any(t is None for t in linear_terms):
        if not all(t is None for t in linear_terms):
            raise ValueError('V1, V2 and b must be all None or all given.')
        return BilinearFunction().apply((e1, e2, W))[0]
    return BilinearFunction().apply((e1, e2, W, V1, V2, b))[0]
