"""The compiled ReLU, tanh and linear nodes against plain NumPy references."""

import numpy as np
import pytest

import chainerlite
from chainerlite import gradient_check
from chainerlite._core import ops_nn
from chainerlite.utils import type_check


@pytest.fixture
def data():
    rng = np.random.RandomState(0)
    return (rng.randn(3, 4), rng.randn(5, 4), rng.randn(5), rng.randn(3, 5), rng)


def test_linear_forward_backward_double_backward(data):
    x, W, b, gy, rng = data
    np.testing.assert_allclose(ops_nn.linear2d(x, W, b).array, x @ W.T + b)
    np.testing.assert_allclose(ops_nn.linear2d(x, W).array, x @ W.T)
    gradient_check.check_backward(ops_nn.linear2d, (x, W, b), gy)
    gradient_check.check_double_backward(
        ops_nn.linear2d, (x, W, b), gy, (rng.randn(3, 4), rng.randn(5, 4), rng.randn(5))
    )


def test_relu_forward_backward_double_backward(data):
    x, _, _, _, rng = data
    np.testing.assert_allclose(ops_nn.relu(x).array, np.maximum(x, 0))
    gradient_check.check_backward(ops_nn.relu, (x,), rng.randn(3, 4))
    gradient_check.check_double_backward(
        ops_nn.relu, (x,), rng.randn(3, 4), rng.randn(3, 4)
    )


@pytest.mark.parametrize('dtype', [np.float32, np.float64])
def test_tanh_forward_backward_double_backward(data, dtype):
    x, _, _, _, rng = data
    x = x.astype(dtype)
    y = ops_nn.tanh(x)
    assert y.dtype == dtype and isinstance(y.creator, ops_nn.Tanh)
    np.testing.assert_allclose(y.array, np.tanh(x), rtol=1e-6)
    gy, ggx = rng.randn(3, 4).astype(dtype), rng.randn(3, 4).astype(dtype)
    gradient_check.check_backward(
        ops_nn.tanh, (x,), gy, dtype=np.float64, atol=1e-4, rtol=1e-3
    )
    gradient_check.check_double_backward(
        ops_nn.tanh, (x,), gy, ggx, dtype=np.float64, atol=1e-3, rtol=1e-2
    )
    v = chainerlite.Variable(x)
    chainerlite.functions.sum(ops_nn.tanh(v) * gy).backward()  # array path
    np.testing.assert_allclose(v.grad, gy * (1 - np.tanh(x) ** 2), rtol=1e-5)


def test_tanh_of_a_0d_array_and_int_input():
    y = ops_nn.tanh(np.array(0.5, np.float32))
    assert isinstance(y.array, np.ndarray) and y.array.dtype == np.float32
    np.testing.assert_allclose(y.array, np.tanh(np.float32(0.5)))
    with pytest.raises(type_check.InvalidType, match='Tanh'):
        ops_nn.tanh(np.arange(3))


@pytest.mark.parametrize('dtype', [np.float16, np.float32, np.float64])
def test_raw_path_grads_match_reference(data, dtype):
    x, W, b, _, _ = data
    xv, Wv, bv = (chainerlite.Variable(a.astype(dtype)) for a in (x, W, b))
    y = ops_nn.relu(ops_nn.linear2d(xv, Wv, bv))
    assert y.dtype == dtype
    chainerlite.functions.sum(y * 2.0).backward()
    mask = (x @ W.T + b) > 0
    tol = {
        np.float16: dict(rtol=1e-2, atol=1e-2),
        np.float32: dict(rtol=1e-5, atol=1e-6),
    }.get(dtype, {})
    np.testing.assert_allclose(bv.grad, (2.0 * mask).sum(0), **tol)
    np.testing.assert_allclose(Wv.grad, (2.0 * mask).T @ x, **tol)
    np.testing.assert_allclose(xv.grad, (2.0 * mask) @ W, **tol)
    assert xv.grad.dtype == dtype


def test_hooks_see_compiled_nodes(data):
    x, W, b, _, _ = data
    seen = []

    class Hook(chainerlite.FunctionHook):
        name = 'seen'

        def forward_postprocess(self, function, in_data):
            seen.append((function.label, len(in_data)))

        def backward_preprocess(self, function, in_data, out_grad):
            seen.append(('b:' + function.label, len(in_data)))

    with Hook():
        y = ops_nn.relu(ops_nn.linear2d(x, chainerlite.Variable(W), b))
        chainerlite.functions.sum(y).backward()
    assert seen[:2] == [('LinearFunction', 3), ('ReLU', 1)]
    assert ('b:ReLU', 1) in seen and ('b:LinearFunction', 3) in seen


@pytest.mark.parametrize(
    'shapes',
    [((3, 4), (5, 3), (5,)), ((3, 4), (5, 4), (4,)), ((3, 4, 1), (5, 4), (5,))],
)
def test_linear_bad_shapes_raise_invalid_type(shapes):
    xs, ws, bs = shapes
    with pytest.raises(type_check.InvalidType) as info:
        ops_nn.linear2d(np.ones(xs), np.ones(ws), np.ones(bs))
    assert 'LinearFunction' in str(info.value)


def test_relu_int_input_raises_invalid_type():
    with pytest.raises(type_check.InvalidType):
        ops_nn.relu(np.array([1, -1]))


@pytest.mark.parametrize(
    'make, inputs',
    [
        (ops_nn.LinearFunction, (np.zeros(4),)),
        (ops_nn.LinearFunction, (np.zeros(4), np.zeros((2, 4)), np.zeros(2))),
        (ops_nn.ReLU, (np.zeros(2), np.zeros(2))),
        (chainerlite.functions.math.basic_math.Mul, (np.zeros(2),)),
        (chainerlite.functions.math.basic_math.Add, ()),
    ],
)
def test_wrong_arity_or_rank_raises_instead_of_crashing(make, inputs):
    # Regression: indexing short tuples in compiled code read out of bounds
    # (a segfault) before bounds checks were kept on.
    # (IndexError: a type check reading ``shape[1]`` of a 1-d input, as in
    # Chainer 7.8.1)
    with pytest.raises((type_check.InvalidType, ValueError, TypeError, IndexError)):
        make().apply(inputs)
