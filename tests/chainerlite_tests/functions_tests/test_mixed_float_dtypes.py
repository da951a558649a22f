"""Mixes of float dtypes that Chainer 7.8.1 accepts (issue 28).

The output dtypes were recorded from Chainer 7.8.1 on the same calls. Each
gradient has its input's dtype (Chainer's own ``Variable.backward`` refuses
any other), and its values are those of the same call in float64.
"""

import numpy
import pytest

import chainerlite
import chainerlite.functions as F

F16, F32, F64 = numpy.float16, numpy.float32, numpy.float64
RNG = numpy.random.RandomState(0)
A = RNG.uniform(-1, 1, (3, 4))
B = RNG.uniform(-1, 1, (3, 4))

LABELS = numpy.array([0, 1, 2], numpy.int32)
SAMPLES = numpy.array([[1, 2], [3, 4], [0, 1]], numpy.int32)
EMBED = RNG.uniform(-1, 1, (5, 4))

VEC4 = RNG.uniform(-1, 1, 4)


def _renorm(x, gamma, beta):
    # statistics kept in float32 whatever the dtypes of x and gamma
    with chainerlite.using_config('train', True):
        return F.batch_renormalization(
            x,
            gamma,
            beta,
            1.5,
            0.5,
            running_mean=numpy.full(4, 0.1, F32),
            running_var=numpy.full(4, 0.5, F32),
        )


# name -> (function, inputs as (array, dtype), Chainer's output dtype)
CASES = {
    'arctan2_64_32': (F.arctan2, ((A, F64), (B, F32)), F64),
    'arctan2_16_32': (F.arctan2, ((A, F16), (B, F32)), F32),
    'scatter_add_32_16': (
        lambda a, b: F.scatter_add(a, (slice(None), 0), b),
        ((A, F32), (B[:, 0], F16)),
        F32,
    ),
    'scatter_add_repeated_16_64': (
        lambda a, b: F.scatter_add(a, ([0, 0, 1], 1), b),
        ((A, F16), (B[:, 1], F64)),
        F16,
    ),
    'black_out_32_16': (
        lambda x, w: F.black_out(x, LABELS, w, SAMPLES),
        ((A, F32), (EMBED, F16)),
        F32,
    ),
    'black_out_16_64': (
        lambda x, w: F.black_out(x, LABELS, w, SAMPLES, reduce='no'),
        ((A, F16), (EMBED, F64)),
        F64,
    ),
    'batch_renormalization_16_32': (
        lambda x, g, b: _renorm(x, g, b),
        ((A, F16), (VEC4 + 1.5, F32), (VEC4, F32)),
        F16,
    ),
    'batch_renormalization_64_32': (
        lambda x, g, b: _renorm(x, g, b),
        ((A, F64), (VEC4 + 1.5, F32), (VEC4, F32)),
        F64,
    ),
    'transpose_sequence_64_32': (
        lambda *xs: F.concat(F.transpose_sequence(xs), axis=0),
        ((A, F64), (B[:2], F32), (B[:1], F16)),
        F64,
    ),
    'transpose_sequence_32_64': (
        lambda *xs: F.concat(F.transpose_sequence(xs), axis=0),
        ((A, F32), (B, F64)),
        F32,
    ),
}


def _rnn(hx, w0, w1, b0, b1, x0, x1):
    hy, ys = F.n_step_rnn(1, 0.0, hx, [[w0, w1]], [[b0, b1]], [x0, x1])
    return F.concat((F.flatten(hy),) + tuple(F.flatten(y) for y in ys), axis=0)


SQ = RNG.uniform(-1, 1, (2, 2))
VEC = RNG.uniform(-1, 1, 2)
RNN_CASE = ((SQ[None], F32), (SQ, F16), (SQ.T, F16), (VEC, F32), (VEC, F32))
RNN_CASE += ((SQ, F32), (SQ[::-1], F32))
CASES['n_step_rnn_weights_16_x_32'] = (_rnn, RNN_CASE, F32)


def _run(func, inputs):
    xs = [chainerlite.Variable(a.astype(dt)) for a, dt in inputs]
    y = func(*xs)
    gy = numpy.linspace(-1, 1, y.size).reshape(y.shape).astype(y.dtype)
    gxs = chainerlite.grad([y], xs, [chainerlite.Variable(gy)])
    return y, gxs


@pytest.mark.parametrize('name', sorted(CASES))
def test_output_dtype_is_chainers_and_gradients_match_float64(name):
    func, inputs, out_dtype = CASES[name]
    y, gxs = _run(func, inputs)
    assert y.dtype == out_dtype
    for gx, (a, dt) in zip(gxs, inputs):
        assert gx.dtype == dt
    # the same values as in float64 (up to the narrowest dtype's rounding)
    widest = [(a.astype(dt).astype(F64), F64) for a, dt in inputs]
    y64, gxs64 = _run(func, widest)
    tol = 2e-3 if any(dt == F16 for _, dt in inputs) else 1e-6
    numpy.testing.assert_allclose(y.array, y64.array, rtol=tol, atol=tol)
    for gx, gx64 in zip(gxs, gxs64):
        numpy.testing.assert_allclose(gx.array, gx64.array, rtol=tol, atol=tol)


def test_local_convolution_2d_input_gradient_keeps_float64():
    # a float64 x and a float32 W: the input's gradient is computed in
    # float64 (W exactly widened), as Chainer's, not rounded through float32
    x = RNG.uniform(-1, 1, (1, 2, 3, 3))
    w = RNG.uniform(-1, 1, (2, 2, 2, 2, 2, 2)).astype(F32)
    _, (gx, _) = _run(F.local_convolution_2d, ((x, F64), (w, F32)))
    _, (gx64, _) = _run(F.local_convolution_2d, ((x, F64), (w, F64)))
    assert gx.dtype == F64
    numpy.testing.assert_allclose(gx.array, gx64.array, rtol=1e-14, atol=1e-15)


def test_tensordot_gradient_of_a_float64_operand_is_not_rounded_to_float16():
    # the output (and its gradient) is a float64 scalar: the gradient of
    # the float64 operand is gy * b in float64, whatever NumPy would do
    # with a 0-d operand
    a, b = A[:2, :2], B[:2, :2].astype(F16)
    _, (ga, gb) = _run(F.tensordot, ((a, F64), (b, F16)))
    assert ga.dtype == F64 and gb.dtype == F16
    numpy.testing.assert_array_equal(ga.array, b.astype(F64) * -1.0)
