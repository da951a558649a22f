"""Bilinear function of two inputs (the Neural Tensor Network layer)."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite.functions.array import reshape
from chainerlite.functions.math import matmul
from chainerlite.functions.math import sum as sum_mod
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


def _as_mat(x):
    return x.reshape(len(x), -1)


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
        e1_orig, e2_orig, W = inputs[:3]
        (gy,) = grad_outputs
        n = e1_orig.shape[0]
        j, k, l_ = W.shape
        e1 = reshape.reshape(e1_orig, (n, j))
        e2 = reshape.reshape(e2_orig, (n, k))
        grads = {}
        if 0 in indexes or 1 in indexes:
            # gy_il W_jkl, as a stack of (j, k) matrices
            gyw = reshape.reshape(
                matmul.matmul(gy, reshape.reshape(W, (j * k, l_)), transb=True),
                (n, j, k),
            )
        if 0 in indexes:
            ge1 = matmul.matmul(gyw, reshape.reshape(e2, (n, k, 1)))
            grads[0] = reshape.reshape(ge1, (n, j))
        if 1 in indexes:
            ge2 = matmul.matmul(reshape.reshape(e1, (n, 1, j)), gyw)
            grads[1] = reshape.reshape(ge2, (n, k))
        if 2 in indexes:
            outer = reshape.reshape(e1, (n, j, 1)) * reshape.reshape(e2, (n, 1, k))
            gW = matmul.matmul(reshape.reshape(outer, (n, j * k)), gy, transa=True)
            grads[2] = reshape.reshape(gW, W.shape)
        if len(inputs) == 6:
            V1, V2 = inputs[3:5]
            if 0 in indexes:
                grads[0] = grads[0] + matmul.matmul(gy, V1, transb=True)
            if 1 in indexes:
                grads[1] = grads[1] + matmul.matmul(gy, V2, transb=True)
            if 3 in indexes:
                grads[3] = matmul.matmul(e1, gy, transa=True)
            if 4 in indexes:
                grads[4] = matmul.matmul(e2, gy, transa=True)
            if 5 in indexes:
                grads[5] = sum_mod.sum(gy, axis=0)
        for i, e in ((0, e1_orig), (1, e2_orig)):
            if i in grads:
                grads[i] = reshape.reshape(grads[i], e.shape)
        return tuple(grads[i] for i in indexes)


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
