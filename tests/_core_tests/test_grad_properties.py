"""Property-based tests: every way to backprop agrees with finite differences.

Hypothesis draws random graphs (``programs`` below): fan-out and
fan-in, a value used together with its own descendants, several outputs,
broadcasting, matrix products, reshapes and sums. For each graph the
gradients from ``grad()``, ``backward()``, ``Variable.backward`` with
retained intermediate gradients, ``grad(enable_double_backprop=True)``,
``backward(retain_graph=False)`` (equal to the retained graph's, bit for
bit) and the path taken with a FunctionHook registered must all match central
finite differences (float64).

The number of graphs comes from the Hypothesis profile: ``default`` in
``make test``, ``fuzz`` (set ``HYPOTHESIS_PROFILE=fuzz``, as ``make fuzz``
does) for a long run.
"""

import os

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import chainerlite
import chainerlite.functions as F


settings.register_profile(
    'default',
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    'fuzz',
    max_examples=20000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get('HYPOTHESIS_PROFILE', 'default'))

RTOL, ATOL = 1e-5, 1e-6


# ------------------------------------------------------------ random graphs
#
# A graph is a small program: a list of steps, each applying one operation
# to values made earlier (the inputs first). The same program runs on
# Variables (to build a graph) and on NumPy arrays (the reference). Values
# are float64 arrays of a few shapes chosen so that broadcasting, matrix
# products, reshapes and reductions all apply; every operation is smooth and
# inputs lie in [-1, 1], so finite differences are accurate.

SHAPES = [(2, 3), (3,), (1, 3), (2, 1), (), (3, 2), (2, 2)]

# name -> (chainerlite version, NumPy version)
UNARY = {
    'tanh': (F.tanh, np.tanh),
    'sin': (F.sin, np.sin),
    'sigmoid': (F.sigmoid, lambda a: 1 / (1 + np.exp(-a))),
    'square': (lambda a: a * a, lambda a: a * a),
    'neg': (lambda a: -a, lambda a: -a),
    'scale': (lambda a: a * 0.7, lambda a: a * 0.7),
    'shift': (lambda a: 0.5 + a, lambda a: 0.5 + a),
    'sum': (F.sum, lambda a: np.asarray(a.sum())),
    'sum0': (lambda a: F.sum(a, axis=0), lambda a: a.sum(axis=0)),
    'transpose': (F.transpose, np.transpose),
    'flatten': (lambda a: F.reshape(a, (a.size,)), lambda a: a.reshape(a.size)),
    'swap_shape': (
        lambda a: F.reshape(a, a.shape[::-1]),
        lambda a: a.reshape(a.shape[::-1]),
    ),
}

BINARY = {
    'add': (lambda a, b: a + b, lambda a, b: a + b),
    'sub': (lambda a, b: a - b, lambda a, b: a - b),
    'mul': (lambda a, b: a * b, lambda a, b: a * b),
    # a smooth division: the denominator stays >= 1
    'div': (lambda a, b: a / (b * b + 1.0), lambda a, b: a / (b * b + 1.0)),
    'matmul': (F.matmul, np.matmul),
}


def _unary_applies(name, shape):
    # A reshape to the same shape returns its input itself (as in Chainer):
    # the reference would take it for a new value, so it is not drawn.
    if name == 'sum0':
        return len(shape) >= 1
    if name == 'transpose':
        return len(shape) == 2
    if name == 'swap_shape':
        return len(shape) == 2 and shape[0] != shape[1]
    if name == 'flatten':
        return len(shape) != 1
    return True


def _binary_applies(name, sa, sb):
    if name == 'matmul':
        return len(sa) == 2 and len(sb) == 2 and sa[1] == sb[0]
    try:
        out = np.broadcast_shapes(sa, sb)
    except ValueError:
        return False
    return out in SHAPES


@st.composite
def programs(draw, max_inputs=3, max_steps=10):
    """Draws ``(input_arrays, steps, output_ids, grad_outputs, wrt_ids)``.

    ``steps`` is a list of ``(name, operand ids)``; value ``i`` is input
    ``i`` for ``i < len(input_arrays)``, else the result of step
    ``i - len(input_arrays)``. ``wrt_ids`` are the values to differentiate
    by: the inputs, and sometimes an intermediate value too.
    """
    n_in = draw(st.integers(1, max_inputs))
    shapes = [draw(st.sampled_from(SHAPES)) for _ in range(n_in)]
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.RandomState(seed)
    inputs = [rng.uniform(-1, 1, s) for s in shapes]
    steps = []
    n_steps = draw(st.integers(1, max_steps))
    for _ in range(n_steps):
        ids = range(len(shapes))
        # prefer recent values, so graphs get deep as well as wide
        a = draw(st.sampled_from(list(ids)[::-1]))
        if draw(st.booleans()):
            names = [n for n in UNARY if _unary_applies(n, shapes[a])]
            name = draw(st.sampled_from(names))
            steps.append((name, (a,)))
            shapes.append(tuple(np.shape(UNARY[name][1](np.zeros(shapes[a])))))
        else:
            partners = [
                (n, b)
                for n in BINARY
                for b in ids
                if _binary_applies(n, shapes[a], shapes[b])
            ]
            if not partners:
                steps.append(('tanh', (a,)))
                shapes.append(shapes[a])
                continue
            name, b = draw(st.sampled_from(partners))
            steps.append((name, (a, b)))
            shapes.append(
                tuple(
                    np.shape(BINARY[name][1](np.zeros(shapes[a]), np.zeros(shapes[b])))
                )
            )
    computed = list(range(n_in, len(shapes)))
    n_out = draw(st.integers(1, min(3, len(computed))))
    outs = draw(
        st.lists(st.sampled_from(computed), min_size=n_out, max_size=n_out, unique=True)
    )
    grad_outputs = [rng.uniform(-1, 1, shapes[o]) for o in outs]
    wrt = list(range(n_in))
    inner = [i for i in computed if i not in outs]
    if inner and draw(st.booleans()):
        wrt.append(draw(st.sampled_from(inner)))
    return inputs, steps, outs, grad_outputs, wrt


def _apply(name, operands, chainer):
    table = UNARY if name in UNARY else BINARY
    return table[name][0 if chainer else 1](*operands)


def run_chainer(inputs, steps):
    """Evaluates the program on Variables; returns every value."""
    values = [chainerlite.Variable(x.copy()) for x in inputs]
    for name, args in steps:
        values.append(_apply(name, [values[i] for i in args], True))
    return values


def run_numpy(inputs, steps, replace=None):
    """Evaluates the program on arrays.

    ``replace`` maps a value id to an array used instead of computing it.
    """
    values = list(inputs)
    for k, (name, args) in enumerate(steps):
        i = len(inputs) + k
        if replace is not None and i in replace:
            values.append(replace[i])
        else:
            values.append(_apply(name, [values[j] for j in args], False))
    return values


def numerical_grads(inputs, steps, outs, grad_outputs, wrt, eps=1e-6):
    """Central differences of ``sum(g_o * y_o)`` by each value in ``wrt``.

    A value in ``wrt`` is perturbed in place of what computes it, so an
    intermediate value gets the derivative along every path from it.
    """
    base = run_numpy(inputs, steps)

    def objective(i, array):
        if i < len(inputs):
            xs = list(inputs)
            xs[i] = array
            values = run_numpy(xs, steps)
        else:
            values = run_numpy(inputs, steps, {i: array})
        return sum(float(np.sum(g * values[o])) for o, g in zip(outs, grad_outputs))

    result = []
    for i in wrt:
        # C order, so that the flat views below write through
        x = np.array(base[i], dtype=np.float64, order='C')
        grad = np.zeros_like(x)
        flat, gflat = x.reshape(-1), grad.reshape(-1)
        for k in range(flat.size):
            orig = flat[k]
            flat[k] = orig + eps
            plus = objective(i, x.copy())
            flat[k] = orig - eps
            minus = objective(i, x.copy())
            flat[k] = orig
            gflat[k] = (plus - minus) / (2 * eps)
        result.append(grad)
    return result


# ------------------------------------------------------------------ tests


class _Recorder(chainerlite.FunctionHook):
    """Overrides the backward callbacks, so backprop takes the hooked path."""

    name = 'recorder'

    def __init__(self):
        self.pre = self.post = 0

    def backward_preprocess(self, function, in_data, out_grad):
        self.pre += 1

    def backward_postprocess(self, function, in_data, out_grad):
        self.post += 1


def _check(actual, expected, what):
    assert len(actual) == len(expected), what
    for i, (a, e) in enumerate(zip(actual, expected)):
        a = np.zeros_like(e) if a is None else np.asarray(a)
        assert a.shape == e.shape, '%s: value %d has shape %s, not %s' % (
            what,
            i,
            a.shape,
            e.shape,
        )
        np.testing.assert_allclose(
            a, e, rtol=RTOL, atol=ATOL, err_msg='%s: value %d' % (what, i)
        )


def _grad_arrays(gs):
    return [None if g is None else g.array for g in gs]


def _by_grad(program, double=False):
    inputs, steps, outs, gos, wrt = program
    values = run_chainer(inputs, steps)
    gs = chainerlite.grad(
        [values[o] for o in outs],
        [values[i] for i in wrt],
        grad_outputs=[g.copy() for g in gos],
        enable_double_backprop=double,
    )
    return _grad_arrays(gs)


def _by_backward_function(program):
    # chainerlite.backward(): gradients land on the leaves
    inputs, steps, outs, gos, wrt = program
    values = run_chainer(inputs, steps)
    chainerlite.backward(
        [values[o] for o in outs], [chainerlite.Variable(g.copy()) for g in gos]
    )
    return [values[i].grad for i in wrt if i < len(inputs)]


def _by_variable_backward(program):
    # one loss, retain_grad for the intermediate value
    inputs, steps, outs, gos, wrt = program
    values = run_chainer(inputs, steps)
    loss = sum(F.sum(values[o] * g) for o, g in zip(outs, gos))
    loss.backward(retain_grad=True)
    return [values[i].grad for i in wrt]


def _by_backward_outputs_alive(program, retain_graph):
    # retain_graph=False: the pass frees what each node retained once its
    # backward ran; the outputs stay alive (as a loss does) while it runs
    inputs, steps, outs, gos, wrt = program
    values = run_chainer(inputs, steps)
    outputs = [values[o] for o in outs]
    wanted = [values[i] for i in wrt]
    del values
    chainerlite.backward(
        outputs,
        [chainerlite.Variable(g.copy()) for g in gos],
        retain_graph=retain_graph,
    )
    return [v.grad for v in wanted if v.creator is None]


def _leaf_part(program, grads):
    n_in = len(program[0])
    return [g for i, g in zip(program[4], grads) if i < n_in]


@given(programs())
def test_every_backprop_path_matches_finite_differences(program):
    inputs, steps, outs, gos, wrt = program
    expected = numerical_grads(inputs, steps, outs, gos, wrt)
    _check(_by_grad(program), expected, 'grad()')
    _check(
        _by_grad(program, double=True), expected, 'grad(enable_double_backprop=True)'
    )
    _check(
        _by_variable_backward(program), expected, 'Variable.backward(retain_grad=True)'
    )
    _check(
        _by_backward_function(program),
        _leaf_part(program, expected),
        'chainerlite.backward()',
    )
    released = _by_backward_outputs_alive(program, False)
    _check(released, _leaf_part(program, expected), 'backward(retain_graph=False)')
    for a, b in zip(released, _by_backward_outputs_alive(program, True)):
        np.testing.assert_array_equal(a, b, 'release changed a gradient')
    hook = _Recorder()
    with hook:
        _check(_by_grad(program), expected, 'grad() with a hook')
        _check(
            _by_backward_function(program),
            _leaf_part(program, expected),
            'backward() with a hook',
        )
    assert hook.pre == hook.post > 0


@given(programs(max_inputs=2, max_steps=6))
def test_double_backprop_matches_finite_differences_of_the_gradient(program):
    # d/dx of sum(v * dL/dx) for a fixed random v, checked numerically by
    # differencing the first-order gradient that grad() computes.
    inputs, steps, outs, gos, wrt = program
    n_in = len(inputs)
    rng = np.random.RandomState(len(steps))
    vs = [rng.uniform(-1, 1, x.shape) for x in inputs]

    def first_order(arrays):
        values = run_chainer(arrays, steps)
        gs = chainerlite.grad(
            [values[o] for o in outs],
            values[:n_in],
            grad_outputs=[g.copy() for g in gos],
        )
        return sum(
            float(np.sum(v * (0 if g is None else g.array))) for v, g in zip(vs, gs)
        )

    values = run_chainer(inputs, steps)
    xs = values[:n_in]
    gs = chainerlite.grad(
        [values[o] for o in outs],
        xs,
        grad_outputs=[g.copy() for g in gos],
        enable_double_backprop=True,
    )
    terms = [F.sum(g * v) for g, v in zip(gs, vs) if g is not None]
    if not terms or all(t.creator is None for t in terms):
        return  # the first-order gradient does not depend on the inputs
    ggs = chainerlite.grad([sum(terms[1:], terms[0])], xs)

    eps = 1e-5
    expected = []
    for i, x in enumerate(inputs):
        grad = np.zeros_like(x)
        for k in range(x.size):
            plus, minus = [a.copy() for a in inputs], [a.copy() for a in inputs]
            plus[i].reshape(-1)[k] += eps
            minus[i].reshape(-1)[k] -= eps
            grad.reshape(-1)[k] = (first_order(plus) - first_order(minus)) / (2 * eps)
        expected.append(grad)
    _check(_grad_arrays(ggs), expected, 'second order grad()')
