"""One layer and direction of an n-step RNN as one node over all steps.

:class:`Recurrence` runs the recurrent part of a cell (the input part of
every step, ``xw``, is projected beforehand in one matrix product) along a
batch of sequences given transposed and sorted by decreasing length: step
``t`` works on the first ``batches[t]`` rows of the states, the other rows
keep theirs. Each step costs one small product ``h @ w.T`` and the cell's
elementwise formula. Its gradient, :class:`RecurrenceGrad`, runs the steps
back and takes the gradients of the recurrent weight and bias in one matrix
product and one sum over all steps, from the inputs of the recurrent
product gathered by the forward.

The cell (see :mod:`chainerlite.functions.rnn.n_step_rnn`) declares the
step once as differentiable functions (``step``); its array methods
``forward_arrays`` and ``backward_arrays`` compute the same values and
their gradients without a graph. The gradient of :class:`RecurrenceGrad`
itself (double backprop) differentiates the graph of ``step``.
"""

import chainerlite
from chainerlite import backend
from chainerlite import function_node
from chainerlite._kernels import packed_gemm
from chainerlite.functions.array import concat
from chainerlite.functions.array import split_axis
from chainerlite.functions.rnn import _formula


def offsets(batches):
    # Row of xw where each step starts.
    starts, total = [], 0
    for b in batches:
        starts.append(total)
        total += b
    return starts


def _split_rows(states, n):
    # Each state split into its first n rows and the rest.
    parts = [split_axis.split_axis(s, [n], axis=0) for s in states]
    return tuple(p[0] for p in parts), tuple(p[1] for p in parts)


def _join_rows(heads, tails):
    return tuple(concat.concat((h, t), axis=0) for h, t in zip(heads, tails))


def run_graph(cell, states, params, xw, batches, reverse):
    """Runs ``cell.step`` along one direction as a graph of differentiable
    functions; returns the outputs of all steps (rows in the order of
    ``xw``) and the final states of all rows."""
    steps = (
        split_axis.split_axis(xw, offsets(batches)[1:], axis=0)
        if len(batches) > 1
        else (xw,)
    )
    ys = [None] * len(batches)
    if not reverse:
        ended = []
        for t, xw_t in enumerate(steps):
            if batches[t] < len(states[0]):
                states, rest = _split_rows(states, batches[t])
                ended.append(rest)
            states = cell.step(states, xw_t, params)
            ys[t] = states[0]
        for rest in reversed(ended):
            states = _join_rows(states, rest)
    else:
        initial = states
        states, _ = _split_rows(initial, batches[-1])
        for t in reversed(range(len(batches))):
            if batches[t] > len(states[0]):
                _, more = _split_rows(initial, len(states[0]))
                more, _ = _split_rows(more, batches[t] - len(states[0]))
                states = _join_rows(states, more)
            states = cell.step(states, steps[t], params)
            ys[t] = states[0]
        if len(states[0]) < len(initial[0]):
            _, rest = _split_rows(initial, len(states[0]))
            states = _join_rows(states, rest)
    return (concat.concat(ys, axis=0) if len(ys) > 1 else ys[0]), states


def _times_transposed(a, x, packed=None, out=None):
    # x @ a.T, the few rows of x against a matrix a stored in C order: the
    # packed_gemm kernel where ``packed`` (a.T packed) is given and takes
    # x (written into ``out`` where it takes that too), else computed as
    # (a @ x.T).T: OpenBLAS (0.3.23 and 0.3.31 alike) runs this
    # orientation, a long M, near its peak, where x @ a.T and x @ a
    # take up to 1.5 times as long, each on one of them.
    if packed is not None:
        y = packed_gemm.matmul(x, packed, out)
        if y is not None:
            return y
    xp = backend.get_array_module(x)
    return xp.matmul(a, x.T).T


def _order(batches, reverse):
    return reversed(range(len(batches))) if reverse else range(len(batches))


def _advance(states, new, batch):
    # The states after a step that gave their first ``batch`` rows ``new``
    # (no array is written: the rows of each step stay as they were).
    xp = backend.get_array_module(new[0])
    return [
        n if batch == len(s) else xp.concatenate((n, s[batch:]))
        for s, n in zip(states, new)
    ]


def output_rows(rows, states):
    """An array for the output state of ``rows`` rows (the
    ``fills`` of a cell with no other array to fill)."""
    xp = backend.get_array_module(states[0])
    return xp.empty((rows, states[0].shape[1]), states[0].dtype)


def _run_arrays(cell, batches, reverse, xw, states, w, b, keep=True, layer=True):
    # The forward on arrays: the outputs of all steps, the final states and
    # what the gradient reads (the outputs, and what the cell saved per
    # step; kept only with ``keep``). The cell's compiled layer runs all
    # steps where it takes the arrays (and ``layer``); else the cell writes
    # each step's rows of the arrays of ``cell.fills`` (the outputs first;
    # None where nothing is filled) in place: one block each for all steps,
    # where each step allocated its own arrays, which were then copied.
    starts = offsets(batches)
    if layer and cell.layer is not None and b is None:
        done = cell.layer.forward(batches, starts, reverse, xw, states, w, keep)
        if done is not None:
            return done
    fills = cell.fills(len(xw), states, keep)
    saved = [None] * len(batches)
    packed = packed_gemm.pack(w, True)  # w.T, laid out once for all steps
    for t in _order(batches, reverse):
        lo, hi = starts[t], starts[t] + batches[t]
        rows = [s[: batches[t]] for s in states]
        rec = None
        if cell.summed and packed is not None:  # xw's rows start the sums
            rec = packed_gemm.matmul(rows[0], packed, None, xw[lo:hi])
        if rec is None:
            rec = _times_transposed(w, rows[0], packed)
            if b is not None:
                rec += b
            if cell.summed:
                rec = xw[lo:hi] + rec
        elif b is not None:
            rec += b
        out = [None if f is None else f[lo:hi] for f in fills]
        new, saved_t = cell.forward_arrays(rows, xw[lo:hi], rec, out)
        if keep:
            saved[t] = saved_t
        states = _advance(states, new, batches[t])
    # the final states apart from the rows of the steps the cache holds
    finals = [s.copy() for s in states]
    return fills[0], finals, (fills[0], saved)


def _recurrent_inputs(ys, h, batches, reverse):
    # The inputs of the recurrent product of every step, gathered like xw.
    starts = offsets(batches)
    gathered = backend.get_array_module(ys).empty_like(ys)
    for t in _order(batches, reverse):
        lo, hi = starts[t], starts[t] + batches[t]
        gathered[lo:hi] = h[: batches[t]]
        (h,) = _advance([h], [ys[lo:hi]], batches[t])
    return gathered


def _grad_arrays(cell, batches, reverse, cache, xw, states, w, b, gys, gfinals):
    # Back through the steps: the gradients of xw, of the initial states
    # and of the recurrent weight and bias. The cell writes each step's rows
    # of the gradients of xw and of the recurrent product (one array where
    # the cell sums the two) in place; the cell's compiled layer runs all
    # steps where its forward did (else the forward runs again step by
    # step, where the layer's backward declines).
    ys, saved = cache
    h = states[0]
    if not isinstance(saved, list):
        done = cell.layer.backward(saved, xw, states, w, gys, gfinals)
        if done is not None:
            gw = backend.get_array_module(ys).matmul(
                done[0].T, _recurrent_inputs(ys, h, batches, reverse)
            )
            return done + (gw,)
        _, _, cache = _run_arrays(cell, batches, reverse, xw, states, w, b, layer=False)
        ys, saved = cache
    xp = backend.get_array_module(ys)
    starts = offsets(batches)
    gstates = [xp.array(g, order='C') for g in gfinals]
    gxw = xp.empty(xw.shape, xw.dtype)
    grec = gxw if cell.summed else xp.empty((len(xw), len(w)), w.dtype)
    packed = packed_gemm.pack(w, False)
    w_t = None if packed is not None else xp.ascontiguousarray(w.T)
    for t in reversed(list(_order(batches, reverse))):
        lo, hi = starts[t], starts[t] + batches[t]
        rows = [g[: batches[t]] for g in gstates]
        rows[0] += gys[lo:hi]
        direct = cell.backward_arrays(saved[t], rows, (gxw[lo:hi], grec[lo:hi]))
        # (the gradient of the step's outputs is read: rows[0] takes gh)
        gh = _times_transposed(w_t, grec[lo:hi], packed, rows[0])
        if gh is not rows[0]:
            rows[0][...] = gh
        if direct[0] is not None:
            rows[0] += direct[0]
        for row, d in zip(rows[1:], direct[1:]):
            row[...] = d
    gw = xp.matmul(grec.T, _recurrent_inputs(ys, h, batches, reverse))
    grads = [gxw] + gstates + [gw]
    if b is not None:
        grads.append(grec.sum(axis=0))
    return tuple(grads)


class Recurrence(function_node.FunctionNode):
    """One layer and direction of an n-step RNN over all steps.

    Inputs: ``xw`` (the input parts of all steps, rows of step 0 first),
    the initial states (output state first), the recurrent weight ``w``
    and, when the cell has one, the recurrent bias ``b``. Outputs: the
    outputs of all steps (rows in the order of ``xw``) and the final
    states.

    Args:
        cell: The cell (``n_states``, ``step``, ``forward_arrays``,
            ``backward_arrays``).
        batches (list of int): Rows of each step, not increasing.
        reverse (bool): Run from the last step to the first.

    """

    # What the forward saved for the gradient, handed to the first
    # RecurrenceGrad (a later one runs the forward again).
    _cache = None

    def __init__(self, cell, batches, reverse):
        self.cell = cell
        self.batches = batches
        self.reverse = reverse

    def forward(self, inputs):
        self.retain_inputs(tuple(range(len(inputs))))
        n = self.cell.n_states
        xw, states, w = inputs[0], inputs[1 : 1 + n], inputs[1 + n]
        b = inputs[2 + n] if len(inputs) > 2 + n else None
        keep = chainerlite.config.enable_backprop
        ys, finals, cache = _run_arrays(
            self.cell, self.batches, self.reverse, xw, states, w, b, keep
        )
        if keep:
            self._cache = cache
        return (ys,) + tuple(finals)

    def backward(self, indexes, grad_outputs):
        inputs = self.get_retained_inputs()
        xw, states = inputs[0], inputs[1 : 1 + self.cell.n_states]
        shapes = [(len(xw), states[0].shape[1])] + [s.shape for s in states]
        grads = [
            xw.xp.zeros(shape, xw.dtype) if g is None else g
            for g, shape in zip(grad_outputs, shapes)
        ]
        cache, self._cache = self._cache, None
        node = RecurrenceGrad(self.cell, self.batches, self.reverse, cache)
        out = node.apply(inputs + tuple(grads))
        return tuple(out[i] for i in indexes)


class RecurrenceGrad(_formula.FormulaNode):
    """Gradients of :class:`Recurrence`: its inputs followed by the
    gradients of its outputs, to the gradients of its inputs.

    Its forward runs the steps back on arrays; its own gradient
    differentiates :func:`run_graph` twice.

    Args:
        cell, batches, reverse: As for :class:`Recurrence`.
        cache: What :class:`Recurrence` saved, or ``None`` to run its
            forward again.

    """

    def __init__(self, cell, batches, reverse, cache=None):
        self.cell = cell
        self.batches = batches
        self.reverse = reverse
        self.cache = cache

    def _split(self, inputs):
        n = self.cell.n_states
        n_in = len(inputs) - 1 - n
        primal, grads = inputs[:n_in], inputs[n_in:]
        xw, states, w = primal[0], primal[1 : 1 + n], primal[1 + n]
        b = primal[2 + n] if len(primal) > 2 + n else None
        return xw, states, w, b, grads

    def forward(self, inputs):
        self.retain_inputs(tuple(range(len(inputs))))
        xw, states, w, b, grads = self._split(inputs)
        cache, self.cache = self.cache, None
        if cache is None:
            _, _, cache = _run_arrays(
                self.cell, self.batches, self.reverse, xw, states, w, b
            )
        return _grad_arrays(
            self.cell,
            self.batches,
            self.reverse,
            cache,
            xw,
            states,
            w,
            b,
            grads[0],
            grads[1:],
        )

    def formula(self, *inputs):
        xw, states, w, b, grads = self._split(inputs)
        ys, finals = run_graph(
            self.cell, tuple(states), (w, b), xw, self.batches, self.reverse
        )
        primal = [xw] + list(states) + [w] + ([] if b is None else [b])
        gxs = chainerlite.grad(
            [ys] + list(finals), primal, list(grads), enable_double_backprop=True
        )
        return tuple(
            g if g is not None else chainerlite.Variable(x.xp.zeros_like(x.array))
            for g, x in zip(gxs, primal)
        )
