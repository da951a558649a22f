"""The vectorised sigmoid, ELU and softplus of ``chainerlite._kernels.vec_math``
and the one-pass gradients of ELU and leaky ReLU of ``act``: against the
formulas computed in float64, at special values, in every layout, and
through ``F.sigmoid`` / ``F.elu`` / ``F.softplus`` / ``F.swish``."""

import numpy as np
import pytest

import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite._kernels import act
from chainerlite._kernels import vec_math

vector = pytest.mark.skipif(
    not vec_math.vec_math_available(), reason='no libmvec AVX2 here'
)

SPECIAL = [
    np.nan,
    np.inf,
    -np.inf,
    0.0,
    -0.0,
    1e-30,
    -1e-30,
    0.3,
    -0.3,
    90.0,
    -90.0,
    -800.0,
]


def _wide_range(n, dtype, seed=0):
    # magnitudes from about 1e-9 to 1e3, both signs
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(n) * np.exp(rng.uniform(-20, 5, n))).astype(dtype)


def _wide(x):
    return x.astype(np.longdouble)


def _sigmoid64(x):
    return 1 / (1 + np.exp(-_wide(x)))


def _elu64(x, alpha):
    # alpha rounded to x's dtype, as the functions take it
    a = _wide(np.asarray(alpha, x.dtype))
    return np.where(x >= 0, _wide(x), a * np.expm1(np.minimum(_wide(x), 0)))


def _softplus64(x, beta):
    # t = x * beta rounded to x's dtype first, as the functions compute it
    t = _wide(x * x.dtype.type(beta))
    return (np.maximum(t, 0) + np.log1p(np.exp(-np.abs(t)))) / beta


CASES = [
    ('sigmoid', lambda x: vec_math.sigmoid(x), _sigmoid64),
    ('elu', lambda x: vec_math.elu(x, 1.5), lambda x: _elu64(x, 1.5)),
    (
        'softplus',
        lambda x: vec_math.softplus(x, 2.0, 0.5),
        lambda x: _softplus64(x, 2.0),
    ),
]


def _close(y, ref, ulps):
    # equal (infinities included), or within `ulps` units in the last place
    # of the reference, or an absolute tiny where the result is subnormal
    dtype = y.dtype
    ref = np.asarray(ref, np.longdouble)
    with np.errstate(invalid='ignore'):
        bound = ulps * _wide(np.spacing(np.abs(ref).astype(dtype)))
        bound = np.maximum(bound, np.finfo(dtype).tiny)
        return (_wide(y) == ref) | (np.abs(_wide(y) - ref) <= bound)


@vector
@pytest.mark.parametrize('name, kernel, reference', CASES)
@pytest.mark.parametrize('dtype', [np.float32, np.float64])
def test_accuracy(name, kernel, reference, dtype):
    x = _wide_range(100_003, dtype)  # not a multiple of the vector width
    y = kernel(x)
    assert y.dtype == dtype and y.shape == x.shape and y.flags.c_contiguous
    with np.errstate(over='ignore'):
        ref = reference(x)
    # the formula's own roundings (exp, then a division or a sum)
    assert _close(y, ref, 4).all(), name


@vector
@pytest.mark.parametrize('name, kernel, reference', CASES)
@pytest.mark.parametrize('dtype', [np.float32, np.float64])
def test_special_values(name, kernel, reference, dtype):
    x = np.array(SPECIAL, dtype)
    y = kernel(x)
    with np.errstate(over='ignore', invalid='ignore'):
        ref = reference(x)
    np.testing.assert_array_equal(np.isnan(y), np.isnan(ref))
    kept = ~np.isnan(ref)
    assert _close(y[kept], reference(x)[kept], 4).all()
    if name == 'elu':
        # -0 keeps its sign (the input where x >= 0)
        assert np.signbit(y[4]) and not np.signbit(y[3])


@vector
@pytest.mark.parametrize('n', [0, 1, 7, 8, 9, 17])
def test_tails_and_untouched_neighbours(n):
    buf = np.full(n + 16, 7.0, np.float32)
    x = buf[8 : 8 + n]
    x[:] = np.linspace(-3, 3, n)
    for _, kernel, reference in CASES:
        y = kernel(x)
        assert _close(y, reference(x), 4).all()
    assert (buf[:8] == 7).all() and (buf[8 + n :] == 7).all()


@vector
@pytest.mark.parametrize(
    'make',
    [
        lambda a: a[:, ::2],  # strided
        lambda a: a.T,  # Fortran order
        lambda a: a[0:1, 0].reshape(()),  # 0-d
        lambda a: a[:0],  # empty
    ],
)
def test_layouts(make):
    x = make(_wide_range(12 * 10, np.float32).reshape(12, 10))
    for _, kernel, reference in CASES:
        y = kernel(x)
        assert y.shape == x.shape and y.dtype == x.dtype
        assert _close(y, reference(x), 4).all()


@pytest.mark.parametrize(
    'x',
    [
        np.ones(3, np.float16),
        np.ones(3, np.int32),
        np.ones(3, '>f4'),
        np.float32(1.0),
        [1.0, 2.0],
    ],
)
def test_inputs_the_kernels_do_not_take(x):
    # the callers keep NumPy for these
    assert vec_math.sigmoid(x) is None
    assert vec_math.elu(x, 1.0) is None
    assert vec_math.softplus(x, 1.0, 1.0) is None


@pytest.mark.parametrize('dtype', [np.float16, np.float32, np.float64])
@pytest.mark.parametrize(
    'function, reference',
    [
        (F.sigmoid, _sigmoid64),
        (lambda x: F.elu(x, 0.7), lambda x: _elu64(x, 0.7)),
        (lambda x: F.softplus(x, 1.5), lambda x: _softplus64(x, 1.5)),
    ],
)
def test_functions_forward(function, reference, dtype):
    # the vector path where it runs, NumPy's formulas elsewhere (float16:
    # Chainer's tanh form of the sigmoid, rounded at each step)
    x = _wide_range(1000, dtype, seed=4)
    x = x[np.abs(x.astype(np.float64)) < 60]  # float16: no overflow to inf
    y = function(x).array
    assert y.dtype == dtype
    if dtype == np.float16:  # the tanh form's tail is 0 below about -9.7
        np.testing.assert_allclose(_wide(y), reference(x), rtol=4e-3, atol=2e-4)
    else:
        assert _close(y, reference(x), 4).all()


@pytest.mark.parametrize(
    'function', [F.sigmoid, lambda x: F.elu(x, 0.7), lambda x: F.softplus(x, 1.5)]
)
def test_functions_backward(function):
    rng = np.random.default_rng(5)
    x = rng.uniform(-3, 3, (4, 7))
    x[np.abs(x) < 0.05] = 0.5  # away from ELU's kink
    gy, ggx = rng.standard_normal((2, 4, 7))
    gradient_check.check_backward(function, x, gy, dtype=np.float64)
    gradient_check.check_double_backward(function, x, gy, ggx, dtype=np.float64)


def test_swish_forward_uses_the_sigmoid():
    rng = np.random.default_rng(6)
    x = rng.standard_normal((5, 3, 4)).astype(np.float32)
    beta = rng.uniform(0.5, 2, 3).astype(np.float32)
    y = F.swish(x, beta).array
    bx = beta.reshape(1, 3, 1) * x
    assert _close(y, _wide(x) * _sigmoid64(bx), 5).all()


def _leaky_grad_numpy(x, gy, slope):
    scaled = x * x.dtype.type(slope)
    sloped = (x <= 0) & (scaled == scaled)
    return gy * np.where(sloped, x.dtype.type(slope), x.dtype.type(1))


def _elu_grad_numpy(cond, y, gy, alpha):
    return gy * np.where(cond > 0, y.dtype.type(1), y + y.dtype.type(alpha))


@pytest.mark.parametrize('dtype', [np.float32, np.float64])
@pytest.mark.parametrize('slope', [0.2, 0.0, -0.5, 3.0])
def test_leaky_relu_grad_bitwise(dtype, slope):
    rng = np.random.default_rng(7)
    x = np.concatenate([np.array(SPECIAL, dtype), _wide_range(997, dtype)])
    gy = rng.standard_normal(x.size).astype(dtype)
    gy[:3] = [np.inf, -0.0, np.nan]
    with np.errstate(invalid='ignore'):
        expected = _leaky_grad_numpy(x, gy, slope)
    got = act.leaky_relu_grad(x, gy, slope)
    np.testing.assert_array_equal(got, expected)
    assert (np.signbit(got) == np.signbit(expected))[~np.isnan(expected)].all()


@pytest.mark.parametrize('dtype', [np.float32, np.float64])
@pytest.mark.parametrize('alpha', [1.0, 0.3, -0.5])
def test_elu_grad_bitwise(dtype, alpha):
    rng = np.random.default_rng(8)
    cond = np.concatenate([np.array(SPECIAL, dtype), _wide_range(997, dtype)])
    with np.errstate(over='ignore', invalid='ignore'):
        y = _elu64(cond, alpha).astype(dtype)  # the ELU's output
    gy = rng.standard_normal(cond.size).astype(dtype)
    gy[:3] = [np.inf, -0.0, np.nan]
    with np.errstate(invalid='ignore'):
        expected = _elu_grad_numpy(cond, y, gy, alpha)
        got = act.elu_grad(cond, y, gy, alpha)
    np.testing.assert_array_equal(got, expected)
    assert (np.signbit(got) == np.signbit(expected))[~np.isnan(expected)].all()


def test_elu_grad_takes_only_matching_arrays():
    a = np.ones(4, np.float32)
    assert act.elu_grad(a, a, np.ones(4, np.float64), 1.0) is None
    assert act.elu_grad(a, a, np.ones(5, np.float32), 1.0) is None
    assert act.elu_grad(a.astype(np.float16), a, a, 1.0) is None


@vector
@pytest.mark.parametrize('n', [0, 1, 3, 4, 5, 100_003])
def test_gelu_float32_matches_act_bitwise(n):
    # the same double-precision formula, rounded once: act's loop is the
    # reference (its PRECISION is tested in test_act_kernels)
    rng = np.random.default_rng(9)
    x = _wide_range(n, np.float32, seed=10)
    x[: min(n, len(SPECIAL))] = SPECIAL[: min(n, len(SPECIAL))]
    gy = rng.standard_normal(n).astype(np.float32)
    np.testing.assert_array_equal(vec_math.gelu(x), act.gelu(x))
    np.testing.assert_array_equal(vec_math.gelu_grad(x, gy), act.gelu_grad(x, gy))


def test_gelu_takes_float32_arrays_of_one_shape_only():
    a = np.ones((2, 3), np.float32)
    assert vec_math.gelu(a.astype(np.float64)) is None
    assert vec_math.gelu_grad(a, np.ones((3, 2), np.float32)) is None
    assert vec_math.gelu_grad(a, a.astype(np.float64)) is None
    if vec_math.vec_math_available():
        np.testing.assert_array_equal(vec_math.gelu(a.T), act.gelu(a.T))


@vector
def test_large_arrays_shared_by_the_threads():
    # past PARALLEL_MIN_WORK the elements are split among OpenMP's threads:
    # every one is still computed, once, as alone
    x = _wide_range((1 << 19) + 5, np.float32, seed=11)
    for _, kernel, reference in CASES:
        assert _close(kernel(x), reference(x), 4).all()
    gy = np.random.default_rng(12).standard_normal(x.size).astype(np.float32)
    np.testing.assert_array_equal(vec_math.gelu(x), act.gelu(x))
    np.testing.assert_array_equal(vec_math.gelu_grad(x, gy), act.gelu_grad(x, gy))
