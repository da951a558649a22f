"""S-LSTM cell activation: an LSTM cell with two children."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite.functions.activation import sigmoid
from chainerlite.functions.activation import tanh
from chainerlite.functions.array import reshape
from chainerlite.functions.array import stack
from chainerlite.functions.rnn import _formula
from chainerlite.functions.rnn import lstm
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class SLSTM(function_node.FunctionNode):
    """S-LSTM cell activation."""

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('c_prev1', 'c_prev2', 'x1', 'x2'))
        c1_type, c2_type, x1_type, x2_type = in_types
        type_check.expect(
            c1_type.dtype.kind == 'f',
            c2_type.dtype == c1_type.dtype,
            x1_type.dtype == c1_type.dtype,
            x2_type.dtype == c1_type.dtype,
            c1_type.ndim >= 2,
            c1_type.ndim == c2_type.ndim,
            c1_type.ndim == x1_type.ndim,
            c1_type.ndim == x2_type.ndim,
            x1_type.shape[0] == c1_type.shape[0],
            x1_type.shape[1] == 4 * c1_type.shape[1],
        )
        for i in range(type_check.eval(c1_type.ndim)):
            type_check.expect(
                c2_type.shape[i] == c1_type.shape[i],
                x2_type.shape[i] == x1_type.shape[i],
            )
        for i in range(2, type_check.eval(c1_type.ndim)):
            type_check.expect(x1_type.shape[i] == c1_type.shape[i])

    def forward(self, inputs):
        c_prev1, c_prev2, x1, x2 = inputs
        xp = backend.get_array_module(*inputs)
        self.retain_inputs((0, 1, 2, 3))
        self.retain_outputs((0,))
        a1, i1, f1, o1 = lstm._extract_gates(x1)
        a2, i2, f2, o2 = lstm._extract_gates(x2)

        def s(v):
            return sigmoid._stable_sigmoid(v, xp)

        c = (
            xp.tanh(a1) * s(i1)
            + xp.tanh(a2) * s(i2)
            + s(f1) * c_prev1
            + s(f2) * c_prev2
        )
        h = s(o1 + o2) * xp.tanh(c)
        return c, h

    def backward(self, indexes, grad_outputs):
        inputs = self.get_retained_inputs()
        (c_next,) = self.get_retained_outputs()
        gc, gh = grad_outputs
        xp = backend.get_array_module(c_next.array)
        if gc is None:
            gc = xp.zeros_like(c_next.array)
        if gh is None:
            gh = xp.zeros_like(c_next.array)
        grads = SLSTMGrad().apply(inputs + (c_next, gc, gh))
        return tuple(grads[i] for i in indexes)


class SLSTMGrad(_formula.FormulaNode):
    """Gradients of :class:`SLSTM`: ``(c_prev1, c_prev2, x1, x2, c_next,
    gc, gh)`` to ``(gc_prev1, gc_prev2, gx1, gx2)``."""

    def formula(self, c_prev1, c_prev2, x1, x2, c_next, gc, gh):
        a1, i1, f1, o1 = lstm._gate_variables(x1)
        a2, i2, f2, o2 = lstm._gate_variables(x2)
        o = sigmoid.sigmoid(o1 + o2)
        tc = tanh.tanh(c_next)
        gc_total = gc + gh * o * (1 - tc * tc)
        go = gh * tc * o * (1 - o)
        grads = []
        gxs = []
        for a, i, f, c_prev, x in (
            (a1, i1, f1, c_prev1, x1),
            (a2, i2, f2, c_prev2, x2),
        ):
            a = tanh.tanh(a)
            i = sigmoid.sigmoid(i)
            f = sigmoid.sigmoid(f)
            ga = gc_total * i * (1 - a * a)
            gi = gc_total * a * i * (1 - i)
            gf = gc_total * c_prev * f * (1 - f)
            grads.append(gc_total * f)
            gxs.append(reshape.reshape(stack.stack((ga, gi, gf, go), axis=2), x.shape))
        return tuple(grads + gxs)


def slstm_grad_grad(
    c_prev1, a1, i1, f1, c_prev2, a2, i2, f2, o, c, gc, gh,
    ggc_prev1, gga1, ggi1, ggf1, ggo1, ggc_prev2, gga2, ggi2, ggf2, ggo2,
):  # fmt: skip
    """Chainer's helper of the second order of the S-LSTM cell: with the
    children's pre-activations ``a, i, f``, the sum ``o`` of their output
    gates', the new cell state ``c``, gradients ``gc, gh`` and the
    gradients ``ggc_prev*, gg*`` of the outputs of :class:`SLSTMGrad`,
    returns the gradients of ``c_prev1``, ``a1, i1, f1, o1``, ``c_prev2``,
    ``a2, i2, f2, o2`` (``o1``'s and ``o2``'s being one), ``c``, ``gc`` and
    ``gh``, from SLSTMGrad's own backward. A missing gradient is 0."""
    xp = backend.get_array_module(a1)
    zero = xp.zeros_like(o)
    x1 = lstm._join_gates(xp, (a1, i1, f1, o))
    x2 = lstm._join_gates(xp, (a2, i2, f2, zero))
    ggx1, ggx2 = [
        lstm._join_gates(xp, [lstm._full(xp, g, a1) for g in gates])
        for gates in ((gga1, ggi1, ggf1, ggo1), (gga2, ggi2, ggf2, ggo2))
    ]
    inputs = (c_prev1, c_prev2, x1, x2, c) + tuple(
        lstm._full(xp, g, c) for g in (gc, gh)
    )
    ggc_prevs = tuple(lstm._full(xp, g, c) for g in (ggc_prev1, ggc_prev2))
    g_c1, g_c2, g_x1, g_x2, g_c, g_gc, g_gh = lstm._node_grads(
        SLSTMGrad(), inputs, ggc_prevs + (ggx1, ggx2)
    )
    return (
        (g_c1,)
        + tuple(lstm._extract_gates(g_x1))
        + (g_c2,)
        + tuple(lstm._extract_gates(g_x2))
        + (g_c, g_gc, g_gh)
    )


def slstm(
    c_prev1, c_prev2, x1: Variable | NdArray, x2: Variable | NdArray
) -> tuple[Variable, ...]:
    """S-LSTM units as an activation function.

    The S-LSTM cell merges two child cells, as in a binary tree of LSTMs
    (Zhu et al., *Long Short-Term Memory Over Tree Structures*, 2015). Each
    of ``x1`` and ``x2`` holds the four gate pre-activations of its child,
    laid out as for :func:`~chainerlite.functions.lstm`: with ``n`` units,
    channel ``4 * j + k`` feeds gate ``k`` (:math:`a, i, f, o`) of unit
    ``j``. The new cell state and output are

    .. math::
        c &= \\tanh(a_1) \\sigma(i_1) + \\tanh(a_2) \\sigma(i_2)
            + \\sigma(f_1) c_1 + \\sigma(f_2) c_2, \\\\
        h &= \\tanh(c) \\sigma(o_1 + o_2),

    where :math:`\\sigma` is the sigmoid function.

    Args:
        c_prev1 (Variable or numpy.ndarray or cupy.ndarray): Cell state of
            the first child, of a floating point dtype and shape
            :math:`(B, n, ...)`.
        c_prev2 (Variable or numpy.ndarray or cupy.ndarray): Cell state of
            the second child, shaped like ``c_prev1``.
        x1 (Variable or numpy.ndarray or cupy.ndarray): Gate sources of the
            first child, of shape :math:`(B, 4n, ...)`.
        x2 (Variable or numpy.ndarray or cupy.ndarray): Gate sources of the
            second child, shaped like ``x1``.

    Returns:
        tuple: Two variables ``(c, h)`` of shape :math:`(B, n, ...)`: the
        new cell state and the output.

    Raises:
        chainerlite.utils.type_check.InvalidType: If the dtypes or shapes
            do not match.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> c1 = np.ones((1, 2), np.float32)
        >>> c2 = np.zeros((1, 2), np.float32)
        >>> x1 = np.zeros((1, 8), np.float32)
        >>> x1[:, 2::4] = 100   # forget gate of the first child open
        >>> x2 = np.full((1, 8), -100, np.float32)
        >>> c, h = F.slstm(c1, c2, x1, x2)
        >>> c.array
        array([[1., 1.]], dtype=float32)

    """
    return SLSTM().apply((c_prev1, c_prev2, x1, x2))
