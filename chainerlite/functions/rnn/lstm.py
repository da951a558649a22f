"""LSTM cell activation."""

import numpy

import chainerlite
from chainerlite._kernels import lstm as lstm_kernels
from chainerlite import backend
from chainerlite import function_node
from chainerlite.backends import cuda
from chainerlite.functions.activation import sigmoid
from chainerlite.functions.activation import tanh
from chainerlite.functions.array import concat
from chainerlite.functions.array import get_item
from chainerlite.functions.array import reshape
from chainerlite.functions.array import stack
from chainerlite.functions.rnn import _formula
from chainerlite.functions.rnn import _kernels
from chainerlite.utils import type_check


_FLOAT32, _FLOAT64 = numpy.dtype(numpy.float32), numpy.dtype(numpy.float64)


def _gate_shape(x):
    # x's channel i * 4 + k feeds gate k (a, i, f, o) of unit i.
    return (x.shape[0], x.shape[1] // 4, 4) + x.shape[2:]


def _extract_gates(x):
    r = x.reshape(_gate_shape(x))
    return [r[:, :, k] for k in range(4)]


def _join_gates(xp, gates):
    # the inverse of _extract_gates
    a = gates[0]
    return xp.stack(gates, axis=2).reshape((a.shape[0], a.shape[1] * 4) + a.shape[2:])


def _gate_variables(x):
    # The four gate pre-activations of ``x`` (a Variable), as Variables.
    gates = reshape.reshape(x, _gate_shape(x))
    return [get_item.get_item(gates, (slice(None), slice(None), k)) for k in range(4)]


def _compiled(*arrays):
    # whether the compiled kernels of chainerlite._kernels.lstm take these arrays
    dtype = arrays[0].dtype
    if dtype != _FLOAT32 and dtype != _FLOAT64:
        return False
    for a in arrays:
        if not isinstance(a, numpy.ndarray) or a.dtype != dtype:
            return False
    return True


def _sigmoid(x, xp):
    # Chainer's LSTM sigmoid, which the compiled kernels use too: one tanh
    half = x.dtype.type(0.5)
    return xp.tanh(x * half) * half + half


def _rows(x, batch):
    # The first ``batch`` rows of ``x`` (``x`` itself when it has no more).
    return x if batch == len(x) else get_item.get_item(x, slice(0, batch))


class LSTM(function_node.FunctionNode):
    """LSTM cell activation with a forget gate."""

    # The compiled forward's activated gates and tanh(c) (see
    # lstm_kernels.lstm_forward), handed to LSTMGrad by the first backward, which then
    # evaluates no transcendental function again; None when not taken.
    _act = None

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('c_prev', 'x'))
        c_type, x_type = in_types
        type_check.expect(
            c_type.dtype.kind == 'f',
            x_type.dtype == c_type.dtype,
            c_type.ndim >= 2,
            x_type.ndim >= 2,
            c_type.ndim == x_type.ndim,
            x_type.shape[0] <= c_type.shape[0],
            x_type.shape[1] == 4 * c_type.shape[1],
        )
        for i in range(2, type_check.eval(c_type.ndim)):
            type_check.expect(x_type.shape[i] == c_type.shape[i])

    def forward(self, inputs):
        c_prev, x = inputs
        self.retain_inputs((0, 1))
        self.retain_outputs((0,))
        if _compiled(c_prev, x):
            c_next = numpy.empty_like(c_prev, order='C')
            h = numpy.empty((len(x),) + c_prev.shape[1:], x.dtype)
            self._act = lstm_kernels.lstm_forward(
                c_prev, x, c_next, h, chainerlite.config.enable_backprop
            )
            return c_next, h
        xp = backend.get_array_module(c_prev, x)
        batch = len(x)
        if xp is cuda.cupy:
            return _forward_gpu(c_prev, x)
        a, i, f, o = _extract_gates(x)
        a = xp.tanh(a)
        i, f, o = _sigmoid(i, xp), _sigmoid(f, xp), _sigmoid(o, xp)
        c_next = a * i + f * c_prev[:batch]
        h = o * xp.tanh(c_next)
        if batch < len(c_prev):
            c_next = xp.concatenate((c_next, c_prev[batch:]), axis=0)
        return c_next, h

    def backward(self, indexes, grad_outputs):
        c_prev, x = self.get_retained_inputs()
        (c_next,) = self.get_retained_outputs()
        gc, gh = grad_outputs
        if gc is None:
            # zeros of c_prev's shape: numpy.zeros_like costs 3x more
            gc = x.xp.zeros(c_prev.shape, c_prev.dtype)
        if gh is None:
            gh = x.xp.zeros(_gate_shape(x)[:2] + x.shape[2:], x.dtype)
        # a second backward through this node recomputes the activations
        act, self._act = self._act, None
        grads = LSTMGrad(act).apply((c_prev, x, c_next, gc, gh))
        return grads if len(indexes) == 2 else (grads[indexes[0]],)


def _backward_cpu(c_prev, x, c_next, gc, gh, act, gx=None):
    # act: the activations the forward saved, or None to evaluate them; gx:
    # the array to write the gradient of x into (a new one where None)
    gc_prev = numpy.empty_like(c_prev, order='C')
    if gx is None:
        gx = numpy.empty_like(x, order='C')
    lstm_kernels.lstm_backward(c_prev, x, c_next, gc, gh, gc_prev, gx, act)
    return gc_prev, gx


def _forward_gpu(c_prev, x):
    batch = len(x)
    c_next = cuda.cupy.empty_like(c_prev)
    h = cuda.cupy.empty(_gate_shape(x)[:2] + x.shape[2:], x.dtype)
    _kernels.lstm_fwd(*_extract_gates(x), c_prev[:batch], c_next[:batch], h)
    if batch < len(c_prev):
        c_next[batch:] = c_prev[batch:]
    return c_next, h


def _backward_gpu(c_prev, x, c_next, gc, gh):
    cupy = cuda.cupy
    batch = len(x)
    gx = cupy.empty_like(x)
    gc_prev = cupy.empty_like(c_prev)
    _kernels.lstm_bwd(
        *_extract_gates(x),
        c_prev[:batch],
        c_next[:batch],
        gc[:batch],
        gh,
        *_extract_gates(gx),
        gc_prev[:batch],
    )
    if batch < len(c_prev):
        gc_prev[batch:] = gc[batch:]
    return gc_prev, gx


class LSTMGrad(_formula.FormulaNode):
    """Gradients of :class:`LSTM`: ``(c_prev, x, c_next, gc, gh)`` to
    ``(gc_prev, gx)``.

    Its forward is one fused kernel on the GPU or (compiled) on the CPU,
    :meth:`formula` otherwise; its own gradient differentiates the formula.

    Args:
        act (numpy.ndarray): The activations the compiled forward of
            :class:`LSTM` saved (see ``chainerlite._kernels.lstm.lstm_forward``), or
            ``None`` to evaluate them again.

    """

    def __init__(self, act=None):
        self.act = act

    def forward(self, inputs):
        gpu = isinstance(inputs[1], cuda.ndarray)
        if not gpu and not _compiled(*inputs):
            return super().forward(inputs)
        self.retain_inputs((0, 1, 2, 3, 4))
        if gpu:
            return _backward_gpu(*inputs)
        return _backward_cpu(*inputs, self.act)

    def formula(self, c_prev, x, c_next, gc, gh):
        batch = len(x)
        a, i, f, o = _gate_variables(x)
        a = tanh.tanh(a)
        i = sigmoid.sigmoid(i)
        f = sigmoid.sigmoid(f)
        o = sigmoid.sigmoid(o)
        tc = tanh.tanh(_rows(c_next, batch))
        # Total gradient of the new cell state of the first ``batch`` rows.
        gc_head = _rows(gc, batch) + gh * o * (1 - tc * tc)
        ga = gc_head * i * (1 - a * a)
        gi = gc_head * a * i * (1 - i)
        gf = gc_head * _rows(c_prev, batch) * f * (1 - f)
        go = gh * tc * o * (1 - o)
        gx = reshape.reshape(stack.stack((ga, gi, gf, go), axis=2), x.shape)
        gc_prev = gc_head * f
        if batch < len(c_prev):
            gc_prev = concat.concat(
                (gc_prev, get_item.get_item(gc, slice(batch, None))), axis=0
            )
        return gc_prev, gx


def _node_grads(node, inputs, grad_outputs):
    """The gradients (arrays) at ``inputs`` of ``node``'s outputs for the
    output gradients ``grad_outputs`` (arrays), from the node's own
    backward; zeros for an input that gets none."""
    xs = [chainerlite.Variable(x) for x in inputs]
    with chainerlite.force_backprop_mode():
        ys = node.apply(xs)
    gys = [chainerlite.Variable(g) for g in grad_outputs]
    grads = chainerlite.grad(list(ys), xs, gys)
    return [x.array * 0 if g is None else g.array for g, x in zip(grads, xs)]


def _full(xp, value, like):
    # value (an array, or 0 for a missing one, as Chainer passes) as an
    # array of like's shape and dtype
    return xp.broadcast_to(xp.asarray(value, like.dtype), like.shape)


def lstm_grad_grad(
    c_prev, a, i, f, o, c, gc, gh, ggc_prev, gga, ggi, ggf, ggo,
    gc_prev, ga, gi, gf, go, gc_next, ggc, ggh,
):  # fmt: skip
    """Chainer's helper of the second order of the LSTM cell: with the
    cell's pre-activations ``a, i, f, o`` (of rows of ``c_prev``), its new
    cell state ``c`` and gradients ``gc, gh``, and the gradients ``ggc_prev,
    gga, ggi, ggf, ggo`` of the outputs of :class:`LSTMGrad`, writes into
    the arrays ``gc_prev, ga, gi, gf, go, gc_next, ggc, ggh`` the
    gradients of ``c_prev``, the gates, ``c``, ``gc`` and ``gh`` (from
    LSTMGrad's own backward) and returns them. A missing gradient is 0."""
    xp = backend.get_array_module(a)
    x = _join_gates(xp, (a, i, f, o))
    ggx = _join_gates(xp, [_full(xp, g, a) for g in (gga, ggi, ggf, ggo)])
    inputs = (c_prev, x, c, _full(xp, gc, c), _full(xp, gh, c))
    g_c_prev, g_x, *rest = _node_grads(
        LSTMGrad(), inputs, (_full(xp, ggc_prev, c), ggx)
    )
    outs = (gc_prev, ga, gi, gf, go, gc_next, ggc, ggh)
    for out, value in zip(outs, [g_c_prev] + _extract_gates(g_x) + rest):
        out[...] = value
    return outs


def lstm(c_prev, x):
    """Long Short-Term Memory units as an activation function.

    This is the activation of an LSTM cell with a forget gate. ``x`` holds
    the pre-activations of the four gates of each unit: with ``n`` units
    (``c_prev.shape[1] == n``), ``x.shape[1] == 4 * n`` and channel
    ``4 * j + k`` of ``x`` goes to gate ``k`` of unit ``j``, in the order

    - :math:`a` : sources of the cell input,
    - :math:`i` : sources of the input gate,
    - :math:`f` : sources of the forget gate,
    - :math:`o` : sources of the output gate

    (that is, ``x.reshape(B, n, 4, ...)[:, :, k]`` is gate ``k``; this is
    the layout used by ``chainer.links.LSTM``). It then computes

    .. math::
        c &= \\tanh(a) \\sigma(i) + c_{\\text{prev}} \\sigma(f), \\\\
        h &= \\tanh(c) \\sigma(o),

    where :math:`\\sigma` is the sigmoid function.

    Variable-length minibatches are supported: ``x`` may have fewer rows
    than ``c_prev`` (never more). Then only ``c[:len(x)]`` is updated,
    ``c[len(x):]`` is a copy of ``c_prev[len(x):]``, and ``h`` has
    ``len(x)`` rows. Sort sequences by decreasing length to use this.

    Args:
        c_prev (Variable or numpy.ndarray or cupy.ndarray): Previous cell
            state, of a floating point dtype and shape
            :math:`(B_c, n, ...)`; a zero array at the first step.
        x (Variable or numpy.ndarray or cupy.ndarray): Gate sources, of
            the dtype of ``c_prev`` and shape :math:`(B, 4n, ...)` with
            :math:`B \\le B_c` and the same trailing axes as ``c_prev``.

    Returns:
        tuple: Two variables ``(c, h)``: the new cell state, shaped like
        ``c_prev``, and the output, of shape :math:`(B, n, ...)`.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> c_prev = np.zeros((3, 2), np.float32)
        >>> x = np.zeros((2, 8), np.float32)
        >>> x[:, 0::4] = 1      # a
        >>> x[:, 1::4] = 100    # i: input gate fully open
        >>> c, h = F.lstm(c_prev, x)
        >>> c.shape, h.shape
        ((3, 2), (2, 2))
        >>> c.array.round(4)
        array([[0.7616, 0.7616],
               [0.7616, 0.7616],
               [0.    , 0.    ]], dtype=float32)

    """
    return LSTM().apply((c_prev, x))
