"""The compiled nodes write their backward once: grad nodes applied to
Variables (double backprop) or run compute-only on arrays (plain pass), both
seen by hooks as the same calls."""

import numpy as np
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import function_hook
from chainerlite import gradient_check
from chainerlite._core import ops_math
from chainerlite._core import ops_nn
from chainerlite.functions.activation import relu
from chainerlite.functions.connection import linear

M, N = ops_math, ops_nn
# name: (function of (x, y), node class, grad node classes its backward applies)
CASES = {
    'add': (lambda x, y: x + y, M.Add, []),
    'add_bcast': (lambda x, y: x + y[0], M.Add, ['SumTo']),
    'sub': (lambda x, y: x - y, M.Sub, [M.Neg]),
    'mul': (lambda x, y: x * y, M.Mul, [M.Mul, M.Mul]),
    'mul_bcast': (lambda x, y: x * y[:, :1], M.Mul, [M.Mul, M.Mul, 'SumTo']),
    'div': (lambda x, y: x / y, M.Div, [M.Div, M.Neg, M.Mul, M.Div]),
    'add_c': (lambda x, y: x + 2.0, M.AddConstant, []),
    'sub_from_c': (lambda x, y: 2.0 - x, M.SubFromConstant, [M.Neg]),
    'mul_c': (lambda x, y: x * 1.5, M.MulConstant, [M.MulConstant]),
    'div_from_c': (
        lambda x, y: 2.0 / y,
        M.DivFromConstant,
        [M.MulConstant, M.Mul, M.Div],
    ),
    'pow_c': (
        lambda x, y: y**3.0,
        M.PowVarConst,
        [M.PowVarConst, M.MulConstant, M.Mul],
    ),
    'neg': (lambda x, y: -x, M.Neg, [M.Neg]),
    'abs': (lambda x, y: abs(x), M.Absolute, [M.AbsoluteGrad]),
    'relu': (lambda x, y: F.relu(x), N.ReLU, [N.ReLUGrad]),
    'tanh': (lambda x, y: F.tanh(x), N.Tanh, [N.TanhGrad]),
    'linear': (
        lambda x, y: F.linear(x, y),
        N.LinearFunction,
        [N.LinearGradData, N.LinearGradWeight],
    ),
}


class _Recorder(function_hook.FunctionHook):
    name = 'recorder'

    def __init__(self):
        self.calls = []

    def forward_preprocess(self, function, in_data):
        self.calls.append(('forward', _kind(function)))

    def backward_preprocess(self, function, in_data, out_grad):
        self.calls.append(('backward', _kind(function)))


def _kind(function):
    # a compiled node by its class, a Python one (F.sum_to, F.sum) by name
    cls = type(function)
    return cls if cls.__module__.startswith('chainerlite._core') else cls.__name__


def _inputs(dtype):
    rs = np.random.RandomState(0)
    return (
        rs.uniform(-2, 2, (3, 3)).astype(dtype),
        rs.uniform(0.5, 2, (3, 3)).astype(dtype),
    )


def _grads(f, arrays, gy_seed=1, double=False):
    xs = [chainerlite.Variable(a) for a in arrays]
    y = f(*xs)
    y.grad = np.random.RandomState(gy_seed).uniform(-1, 1, y.shape).astype(y.dtype)
    y.backward(enable_double_backprop=double)
    return [x.grad for x in xs]


@pytest.mark.parametrize('dtype', [np.float16, np.float32, np.float64])
@pytest.mark.parametrize('name', sorted(CASES))
def test_hooks_see_the_grad_nodes_that_the_plain_pass_runs(name, dtype):
    f, node, grad_nodes = CASES[name]
    assert '_backward_arrays' not in vars(node)
    assert 'backward' not in vars(node)
    arrays = _inputs(dtype)
    plain = _grads(f, arrays)
    logs = []
    for double in (False, True):
        with _Recorder() as hook:
            got = _grads(f, arrays, double=double)
        logs.append(hook.calls)
        for a, b in zip(got, plain):
            if b is None:
                assert a is None
                continue
            assert a.dtype == b.dtype == dtype
            assert a.tobytes() == b.tobytes()
    # the compute-only run reports what applying the grad nodes to
    # Variables reports
    assert logs[0] == logs[1]
    start = logs[0].index(('backward', node))
    assert logs[0][start - 1] == ('forward', node)
    nested = logs[0][start + 1 :]
    nested = nested[: [c[0] for c in nested + [('backward',)]].index('backward')]
    assert nested == [('forward', g) for g in grad_nodes]


@pytest.mark.parametrize('name', sorted(set(CASES) - {'linear'}))
def test_gradients_and_double_gradients(name):
    f = CASES[name][0]
    x, y = _inputs(np.float64)
    x = x + np.sign(x) * 0.1  # away from the kinks of abs and relu
    rs = np.random.RandomState(2)
    gy = rs.uniform(-1, 1, f(x, y).shape)
    ggs = (rs.uniform(-1, 1, x.shape), rs.uniform(-1, 1, y.shape))
    gradient_check.check_backward(f, (x, y), gy, dtype=np.float64, atol=1e-4, rtol=1e-4)
    gradient_check.check_double_backward(
        f, (x, y), gy, ggs, dtype=np.float64, atol=1e-4, rtol=1e-4
    )


@pytest.mark.parametrize('w_dtype', [np.float32, np.float64])
def test_linear_gradients_and_double_gradients(w_dtype):
    rs = np.random.RandomState(3)
    x, W, b = rs.uniform(-1, 1, (4, 3)), rs.uniform(-1, 1, (2, 3)), rs.uniform(-1, 1, 2)
    gy = rs.uniform(-1, 1, (4, 2))
    ggs = (rs.uniform(-1, 1, x.shape), rs.uniform(-1, 1, W.shape), rs.uniform(-1, 1, 2))
    gradient_check.check_backward(F.linear, (x, W, b), gy, dtype=np.float64)
    gradient_check.check_double_backward(F.linear, (x, W, b), gy, ggs, dtype=np.float64)
    # the weight's gradient keeps the weight's dtype
    xv = chainerlite.Variable(x.astype(np.float32))
    Wv = chainerlite.Variable(W.astype(w_dtype))
    y = F.linear(xv, Wv)
    y.grad = gy.astype(np.float32)
    y.backward()
    assert xv.grad.dtype == np.float32 and Wv.grad.dtype == w_dtype


@pytest.mark.parametrize(
    'node, inputs',
    [
        (lambda: N.ReLUGrad(np.array([[1.0, -2.0], [0.5, 0.0]])), 1),
        (lambda: M.AbsoluteGrad(np.array([[1.0, -2.0], [0.5, -0.3]])), 1),
        (lambda: N.TanhGrad(), 2),
        (lambda: N.LinearGradData(), 2),
        (lambda: N.LinearGradWeight(np.float64), 2),
    ],
)
def test_grad_nodes_applied_directly(node, inputs):
    rs = np.random.RandomState(4)
    xs = tuple(rs.uniform(-0.9, 0.9, (2, 2)) for _ in range(inputs))

    def f(*xs):
        return node().apply(xs)[0]

    gy = rs.uniform(-1, 1, (2, 2))
    ggs = tuple(rs.uniform(-1, 1, (2, 2)) for _ in range(inputs))
    gradient_check.check_backward(f, xs, gy, dtype=np.float64)
    gradient_check.check_double_backward(f, xs, gy, ggs, dtype=np.float64)


def test_python_names_are_the_compiled_grad_nodes():
    assert relu.ReLUGrad is N.ReLUGrad
    assert linear.LinearGradData is N.LinearGradData
    assert linear.LinearGradWeight is N.LinearGradWeight
    y = np.array([1.0, -1.0, 0.0], np.float32)
    (gx,) = relu.ReLUGrad(y).apply((np.full(3, 2.0, np.float32),))
    assert gx.array.tolist() == [2.0, 0.0, 0.0]
