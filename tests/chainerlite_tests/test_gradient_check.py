import re

import numpy
import pytest

import chainerlite
from chainerlite import gradient_check
from chainerlite.testing import attr


# Function nodes used as subjects of the checks. Their backward passes are
# built from Variable operations (or from other nodes) so that they can be
# differentiated again.


class Square(chainerlite.FunctionNode):
    def __init__(self, factor=2.0):
        self.factor = factor

    def forward(self, inputs):
        (x,) = inputs
        self.retain_inputs((0,))
        return (x * x,)

    def backward(self, target_input_indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        (gy,) = grad_outputs
        return (gy * x * self.factor,)


def square(x, factor=2.0):
    (y,) = Square(factor).apply((x,))
    return y


class MulAdd(chainerlite.FunctionNode):
    """y = x0 * x1 + x2, with an optional error in the gradient of x2."""

    def __init__(self, x2_grad_scale=1.0):
        self.x2_grad_scale = x2_grad_scale

    def forward(self, inputs):
        x0, x1, x2 = inputs
        self.retain_inputs((0, 1))
        return (x0 * x1 + x2,)

    def backward(self, target_input_indexes, grad_outputs):
        x0, x1 = self.get_retained_inputs()
        (gy,) = grad_outputs
        grads = (gy * x1, gy * x0, gy * self.x2_grad_scale)
        return tuple(grads[i] for i in target_input_indexes)


class SquareAndCube(chainerlite.FunctionNode):
    """Two outputs: x ** 2 and x ** 3."""

    def __init__(self, cube_factor=3.0):
        self.cube_factor = cube_factor

    def forward(self, inputs):
        (x,) = inputs
        self.retain_inputs((0,))
        return x * x, x * x * x

    def backward(self, target_input_indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        g2, g3 = grad_outputs
        gx = None
        if g2 is not None:
            gx = g2 * x * 2.0
        if g3 is not None:
            term = g3 * x * x * self.cube_factor
            gx = term if gx is None else gx + term
        return (gx,)


class SumOfSquares(chainerlite.FunctionNode):
    """Scalar output: sum(x ** 2)."""

    def forward(self, inputs):
        (x,) = inputs
        self.retain_inputs((0,))
        return (numpy.asarray((x * x).sum(), dtype=x.dtype),)

    def backward(self, target_input_indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        (gy,) = grad_outputs
        gy = chainerlite.Variable(numpy.broadcast_to(gy.array, x.shape))
        return (gy * x * 2.0,)


class Cube(chainerlite.FunctionNode):
    """y = x ** 3 whose backward is the node CubeGrad."""

    def __init__(self, second_order_factor=6.0):
        self.second_order_factor = second_order_factor

    def forward(self, inputs):
        (x,) = inputs
        self.retain_inputs((0,))
        return (x * x * x,)

    def backward(self, target_input_indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        (gx,) = CubeGrad(self.second_order_factor).apply((x, grad_outputs[0]))
        return (gx,)


class CubeGrad(chainerlite.FunctionNode):
    """gx = 3 x^2 gy; its own gradient wrt x is factor * x * gy (factor 6)."""

    def __init__(self, factor):
        self.factor = factor

    def forward(self, inputs):
        x, gy = inputs
        self.retain_inputs((0, 1))
        return (3 * x * x * gy,)

    def backward(self, target_input_indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        (ggx,) = grad_outputs
        grads = (ggx * x * gy * self.factor, ggx * x * x * 3.0)
        return tuple(grads[i] for i in target_input_indexes)


class Abs(chainerlite.FunctionNode):
    def forward(self, inputs):
        (x,) = inputs
        self.retain_inputs((0,))
        return (numpy.abs(x),)

    def backward(self, target_input_indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        return (grad_outputs[0] * numpy.sign(x.array),)


def _random(shape, dtype=numpy.float64, low=-1.0, high=1.0, seed=0):
    rng = numpy.random.RandomState(seed)
    return rng.uniform(low, high, shape).astype(dtype)


# numerical_grad


def test_numerical_grad_square():
    x = numpy.array([-1.5, 0.25, 2.0])
    gy = numpy.array([1.0, 2.0, -3.0])
    (gx,) = gradient_check.numerical_grad(lambda: (x * x,), (x,), (gy,))
    numpy.testing.assert_allclose(gx, 2 * x * gy, rtol=1e-6)


def test_numerical_grad_sin_on_a_matrix():
    x = _random((3, 4))
    gy = _random((3, 4), seed=1)
    (gx,) = gradient_check.numerical_grad(lambda: numpy.sin(x), (x,), (gy,))
    numpy.testing.assert_allclose(gx, numpy.cos(x) * gy, atol=1e-6)


def test_numerical_grad_multiple_inputs_and_outputs():
    x = _random((2, 3))
    y = _random((2, 3), seed=1)
    g0 = _random((2, 3), seed=2)
    g1 = _random((2, 3), seed=3)

    def f():
        return x * y, x + 2 * y

    gx, gyy = gradient_check.numerical_grad(f, (x, y), (g0, g1))
    numpy.testing.assert_allclose(gx, y * g0 + g1, atol=1e-7)
    numpy.testing.assert_allclose(gyy, x * g0 + 2 * g1, atol=1e-7)


def test_numerical_grad_ignores_outputs_without_gradient():
    x = numpy.array([1.0, 2.0])
    (gx,) = gradient_check.numerical_grad(
        lambda: (x**3, x * x), (x,), (None, numpy.ones(2))
    )
    numpy.testing.assert_allclose(gx, 2 * x, rtol=1e-6)


def test_numerical_grad_scalar_grad_output():
    x = numpy.array([1.0, 3.0])
    (gx,) = gradient_check.numerical_grad(lambda: x * x, (x,), (2.0,))
    numpy.testing.assert_allclose(gx, 4 * x, rtol=1e-6)


def test_numerical_grad_accepts_variable_outputs():
    x = numpy.array([0.5, 1.5])
    (gx,) = gradient_check.numerical_grad(
        lambda: chainerlite.Variable(x * x), (x,), (numpy.ones(2),)
    )
    numpy.testing.assert_allclose(gx, 2 * x, rtol=1e-6)


def test_numerical_grad_restores_inputs_and_keeps_dtype():
    x = _random((4,), numpy.float32)
    original = x.copy()
    (gx,) = gradient_check.numerical_grad(
        lambda: x * x, (x,), (numpy.ones(4, numpy.float32),)
    )
    numpy.testing.assert_array_equal(x, original)
    assert gx.dtype == numpy.float32
    numpy.testing.assert_allclose(gx, 2 * x, rtol=1e-3, atol=1e-3)


def test_numerical_grad_float16_uses_the_actual_step():
    x = numpy.array([0.3, 1.7, -2.2], dtype=numpy.float16)
    (gx,) = gradient_check.numerical_grad(
        lambda: x.astype(numpy.float64) * 3.0, (x,), (numpy.ones(3),), eps=1e-2
    )
    assert gx.dtype == numpy.float16
    numpy.testing.assert_allclose(gx.astype(numpy.float64), 3.0, rtol=1e-3)


def test_numerical_grad_zero_dim_input():
    x = numpy.array(2.0)
    (gx,) = gradient_check.numerical_grad(lambda: x**3, (x,), (1.0,))
    assert gx.shape == ()
    numpy.testing.assert_allclose(gx, 12.0, rtol=1e-5)


def test_numerical_grad_five_points_is_more_accurate():
    x = numpy.array([1.0])
    exact = 3.0 * numpy.exp(3.0)
    (two,) = gradient_check.numerical_grad(
        lambda: numpy.exp(3 * x), (x,), (numpy.ones(1),), eps=1e-2
    )
    (five,) = gradient_check.numerical_grad(
        lambda: numpy.exp(3 * x),
        (x,),
        (numpy.ones(1),),
        eps=1e-2,
        detect_nondifferentiable=True,
    )
    assert abs(five[0] - exact) < abs(two[0] - exact) / 100


def test_numerical_grad_detects_kink():
    x = numpy.array([0.0, 1.0])
    with pytest.raises(gradient_check.NondifferentiableError):
        gradient_check.numerical_grad(
            lambda: numpy.abs(x), (x,), (numpy.ones(2),), detect_nondifferentiable=True
        )


def test_numerical_grad_detects_jump_between_samples():
    x = numpy.array([0.0015])
    with pytest.raises(gradient_check.NondifferentiableError):
        gradient_check.numerical_grad(
            lambda: (x > 0.001).astype(numpy.float64),
            (x,),
            (numpy.ones(1),),
            detect_nondifferentiable=True,
        )


def test_numerical_grad_smooth_function_passes_detection():
    x = _random((5,))
    (gx,) = gradient_check.numerical_grad(
        lambda: numpy.tanh(x), (x,), (numpy.ones(5),), detect_nondifferentiable=True
    )
    numpy.testing.assert_allclose(gx, 1 - numpy.tanh(x) ** 2, atol=1e-9)


def test_numerical_grad_uses_center_outputs():
    x = numpy.array([1.0])
    calls = []

    def f():
        calls.append(x[0])
        return x * x

    gradient_check.numerical_grad(
        f,
        (x,),
        (numpy.ones(1),),
        detect_nondifferentiable=True,
        center_outputs=(x * x,),
    )
    assert 1.0 not in calls
    assert len(calls) == 4


def test_numerical_grad_rejects_bad_arguments():
    x = numpy.array([1, 2])
    # each error is also the type Chainer 7.8.1 raises (RuntimeError,
    # AssertionError), through check_backward too
    with pytest.raises(TypeError) as info:
        gradient_check.numerical_grad(lambda: x, (x,), (numpy.ones(2),))
    assert isinstance(info.value, RuntimeError)
    y = numpy.array([1.0])
    with pytest.raises(ValueError) as info:
        gradient_check.numerical_grad(lambda: y, (y,), (1.0,), eps=0)
    assert isinstance(info.value, AssertionError)
    with pytest.raises(AssertionError):
        gradient_check.check_backward(lambda v: v * 2.0, y, y, eps=-1e-3)
    with pytest.raises(ValueError):
        gradient_check.numerical_grad(lambda: (y, y), (y,), (1.0,))


# check_backward


def test_check_backward_passes_for_correct_backward():
    x = _random((3, 2))
    gy = _random((3, 2), seed=1)
    gradient_check.check_backward(square, x, gy)


def test_check_backward_fails_for_wrong_backward():
    x = _random((3, 2))
    gy = _random((3, 2), seed=1)
    with pytest.raises(AssertionError) as info:
        gradient_check.check_backward(lambda x: square(x, factor=2.5), x, gy)
    message = str(info.value)
    assert 'check_backward failed' in message
    assert 'backpropagation' in message


def test_check_backward_float32():
    x = _random((4,), numpy.float32)
    gy = _random((4,), numpy.float32, seed=1)
    gradient_check.check_backward(square, x, gy, atol=1e-3, rtol=1e-3)


def test_check_backward_float16_with_float64_numerics():
    x = _random((4,), numpy.float16)
    gy = _random((4,), numpy.float16, seed=1)
    gradient_check.check_backward(
        square, x, gy, dtype=numpy.float64, atol=1e-2, rtol=1e-2
    )
    with pytest.raises(AssertionError):
        gradient_check.check_backward(
            lambda x: square(x, factor=3.0),
            x,
            gy,
            dtype=numpy.float64,
            atol=1e-2,
            rtol=1e-2,
        )


def _numerical_side_dtypes(dtype, x_dtype):
    # The (input, parameter, type_check) seen by every call of func.
    seen = set()
    p = chainerlite.Parameter(numpy.linspace(0.5, 1, 3).astype(x_dtype))
    x = numpy.linspace(-1, 1, 6).reshape(2, 3).astype(x_dtype)

    def f(x):
        seen.add((x.dtype.name, p.dtype.name, bool(chainerlite.config.type_check)))
        return x * chainerlite.functions.broadcast_to(p, x.shape)

    gradient_check.check_backward(
        f,
        x,
        numpy.ones((2, 3), x_dtype),
        params=(p,),
        dtype=dtype,
        eps=0.1,
        atol=5e-2,
        rtol=5e-2,
    )
    return seen


def test_check_backward_numerical_side_keeps_dtypes_without_dtype():
    # As Chainer's check: without ``dtype`` the numerical side runs in the
    # arrays' own dtypes (float16 too), with type checks off.
    seen = _numerical_side_dtypes(None, numpy.float16)
    assert seen == {('float16', 'float16', True), ('float16', 'float16', False)}


def test_check_backward_numerical_side_casts_inputs_and_params():
    seen = _numerical_side_dtypes(numpy.float64, numpy.float32)
    assert seen == {('float32', 'float32', True), ('float64', 'float64', False)}


def test_check_backward_numerical_side_skips_type_checks():
    # A link whose parameters stay float32 meets float64 inputs there (as
    # Chainer's float64 checks of float32 links do); outside it the type
    # check still refuses the mix.
    W = chainerlite.Parameter(numpy.ones((2, 3), numpy.float32))
    b = chainerlite.Parameter(numpy.zeros(2, numpy.float32))
    x = numpy.linspace(-1, 1, 12).reshape(4, 3).astype(numpy.float32)

    def f(x):
        return chainerlite.functions.linear(x, W, b)

    gradient_check.check_backward(
        f,
        x,
        numpy.ones((4, 2), numpy.float32),
        dtype=numpy.float64,
        atol=1e-3,
        rtol=1e-3,
    )
    with pytest.raises(chainerlite.utils.type_check.InvalidType):
        f(x.astype(numpy.float64))


def test_check_backward_float16_with_float64_numerics_catches_errors():
    # float16 data checked with dtype=float64 (as Chainer's float16 tests
    # do): a correct backward passes with float16 tolerances and one that
    # is 25% off fails.
    rng = numpy.random.RandomState(0)
    a = rng.uniform(0.5, 1, (4, 3, 2)).astype(numpy.float16)
    b = rng.uniform(0.5, 1, (3, 2, 5)).astype(numpy.float16)
    gy = rng.uniform(-1, 1, (4, 5)).astype(numpy.float16)

    def f(a, b):
        return chainerlite.functions.tensordot(a, b, axes=2)

    gradient_check.check_backward(
        f, (a, b), gy, dtype=numpy.float64, atol=1e-2, rtol=5e-2
    )
    x = a.ravel()[:6]
    with pytest.raises(AssertionError):
        gradient_check.check_backward(
            lambda x: square(x, factor=2.5),
            x,
            gy.ravel()[:6],
            dtype=numpy.float64,
            atol=1e-2,
            rtol=5e-2,
        )


def test_check_backward_multiple_inputs():
    xs = tuple(_random((2, 3), seed=i) for i in range(3))
    gy = _random((2, 3), seed=5)

    def f(a, b, c):
        return MulAdd().apply((a, b, c))[0]

    gradient_check.check_backward(f, xs, gy)

    def wrong(a, b, c):
        return MulAdd(x2_grad_scale=0.5).apply((a, b, c))[0]

    with pytest.raises(AssertionError):
        gradient_check.check_backward(wrong, xs, gy)


def test_check_backward_no_grads_skips_inputs():
    xs = tuple(_random((2, 3), seed=i) for i in range(3))
    gy = _random((2, 3), seed=5)

    def wrong(a, b, c):
        return MulAdd(x2_grad_scale=0.5).apply((a, b, c))[0]

    gradient_check.check_backward(wrong, xs, gy, no_grads=[False, False, True])
    with pytest.raises(ValueError):
        gradient_check.check_backward(wrong, xs, gy, no_grads=[False])


def test_check_backward_multiple_outputs():
    x = _random((3,))
    gys = (_random((3,), seed=1), _random((3,), seed=2))

    def f(x):
        return SquareAndCube().apply((x,))

    gradient_check.check_backward(f, x, gys)

    def wrong(x):
        return SquareAndCube(cube_factor=2.0).apply((x,))

    with pytest.raises(AssertionError):
        gradient_check.check_backward(wrong, x, gys)
    # Without a gradient for the cube, its wrong derivative is not used.
    gradient_check.check_backward(wrong, x, (gys[0], None))


def test_check_backward_scalar_output_without_y_grad():
    x = _random((2, 2))

    def f(x):
        return SumOfSquares().apply((x,))[0]

    gradient_check.check_backward(f, x, None)
    with pytest.raises(ValueError):
        gradient_check.check_backward(square, x, None)


def test_check_backward_params():
    x = _random((3,))
    w = chainerlite.Variable(_random((3,), seed=1))
    gy = _random((3,), seed=2)
    original = w.array.copy()

    def f(x):
        return MulAdd().apply((x, w, x))[0]

    gradient_check.check_backward(f, x, gy, params=(w,))
    numpy.testing.assert_array_equal(w.array, original)

    def wrong(x):
        # Half of the dependence on w bypasses the graph, so backprop
        # gives half of the true gradient of w.
        return MulAdd().apply((x, w * 0.5 + w.array * 0.5, x))[0]

    with pytest.raises(AssertionError):
        gradient_check.check_backward(wrong, x, gy, params=(w,))


def test_check_backward_rejects_wrong_gradient_shape():
    x = _random((3,))

    class BadShape(chainerlite.FunctionNode):
        def forward(self, inputs):
            return (inputs[0] * 2,)

        def backward(self, indexes, grad_outputs):
            return (chainerlite.Variable(numpy.ones((1, 3))),)

    # The core may catch the mismatch first (with a ValueError, as Chainer
    # does); otherwise check_backward reports it.
    with pytest.raises((AssertionError, ValueError), match='shape'):
        gradient_check.check_backward(
            lambda x: BadShape().apply((x,))[0], x, numpy.ones(3)
        )


def test_check_backward_rejects_mismatched_y_grad():
    x = _random((3,))
    with pytest.raises(ValueError):
        gradient_check.check_backward(square, x, numpy.ones(4))
    with pytest.raises(ValueError):
        gradient_check.check_backward(square, x, (numpy.ones(3), numpy.ones(3)))


def test_check_backward_detects_nondifferentiable_point():
    x = numpy.array([0.0, 1.0])

    def f(x):
        return Abs().apply((x,))[0]

    gradient_check.check_backward(
        f, numpy.array([-0.5, 1.0]), numpy.ones(2), detect_nondifferentiable=True
    )
    with pytest.raises(gradient_check.NondifferentiableError):
        gradient_check.check_backward(
            f, x, numpy.ones(2), detect_nondifferentiable=True
        )


# check_double_backward


def test_check_double_backward_passes_for_variable_built_backward():
    x = _random((2, 3))
    gy = _random((2, 3), seed=1)
    ggx = _random((2, 3), seed=2)
    gradient_check.check_double_backward(square, x, gy, ggx)


def test_check_double_backward_with_grad_node():
    x = _random((4,))
    gy = _random((4,), seed=1)
    ggx = _random((4,), seed=2)

    def f(x):
        return Cube().apply((x,))[0]

    gradient_check.check_backward(f, x, gy)
    gradient_check.check_double_backward(f, x, gy, ggx)

    def wrong(x):
        return Cube(second_order_factor=5.0).apply((x,))[0]

    # The first order gradient is right, only the second order is wrong.
    gradient_check.check_backward(wrong, x, gy)
    with pytest.raises(AssertionError):
        gradient_check.check_double_backward(wrong, x, gy, ggx)


def test_check_double_backward_multiple_inputs_with_params():
    x = _random((3,))
    w = chainerlite.Variable(_random((3,), seed=1))
    gy = _random((3,), seed=2)
    ggx = _random((3,), seed=3)
    ggw = _random((3,), seed=4)

    def f(x):
        return MulAdd().apply((x, w, x * x))[0]

    gradient_check.check_double_backward(
        f, x, gy, ggx, params=(w,), params_grad_grad=(ggw,)
    )
    with pytest.raises(ValueError):
        gradient_check.check_double_backward(
            f, x, gy, ggx, params=(w,), params_grad_grad=()
        )


# GPU


@attr.gpu
def test_numerical_grad_on_gpu():
    from chainerlite.backends import cuda

    cupy = cuda.cupy
    x = cupy.asarray(_random((2, 3)))
    gy = cupy.asarray(_random((2, 3), seed=1))
    (gx,) = gradient_check.numerical_grad(lambda: cupy.sin(x), (x,), (gy,))
    assert isinstance(gx, cupy.ndarray)
    numpy.testing.assert_allclose(
        cupy.asnumpy(gx), cupy.asnumpy(cupy.cos(x) * gy), atol=1e-6
    )
    with pytest.raises(RuntimeError):
        gradient_check.numerical_grad(lambda: x, (x,), (numpy.ones((2, 3)),))


@attr.gpu
def test_check_backward_on_gpu():
    from chainerlite.backends import cuda

    cupy = cuda.cupy
    x = cupy.asarray(_random((3, 2)))
    gy = cupy.asarray(_random((3, 2), seed=1))
    gradient_check.check_backward(square, x, gy)
    with pytest.raises(AssertionError):
        gradient_check.check_backward(lambda x: square(x, 2.5), x, gy)
    gradient_check.check_double_backward(
        square, x, gy, cupy.asarray(_random((3, 2), seed=2))
    )


def test_check_backward_direction_is_one_draw_lifted_away_from_zero():
    shapes = [(2, 3), (), (4,)]
    numpy.random.seed(7)
    drawn = numpy.random.normal(size=(11,))
    numpy.random.seed(7)
    parts = gradient_check._unit_direction(shapes)
    assert [p.shape for p in parts] == shapes
    flat = numpy.concatenate([p.ravel() for p in parts])
    # one draw over all the entries, in order: signs and ranking are the draw's
    numpy.testing.assert_array_equal(numpy.sign(flat), numpy.sign(drawn))
    numpy.testing.assert_array_equal(
        numpy.argsort(abs(flat)), numpy.argsort(abs(drawn))
    )
    numpy.testing.assert_allclose(numpy.square(flat).sum(), 1.0)
    # 1% of the squared length is shared out evenly: no entry is tiny
    assert abs(flat).min() >= numpy.sqrt(0.01 / 11) * (1 - 1e-12)
    numpy.testing.assert_allclose(
        numpy.square(flat), 0.99 * drawn**2 / (drawn**2).sum() + 0.01 / 11
    )
    assert gradient_check._unit_direction([(0,), (2, 0)]) is None


def test_check_backward_checks_along_that_direction():
    x = numpy.linspace(-1, 1, 12).astype(numpy.float32).reshape(3, 4)
    gy = numpy.ones((3, 4), numpy.float32)
    numpy.random.seed(3)
    with pytest.raises(AssertionError) as info:
        gradient_check.check_backward(_off_by_a_little, x, gy)
    numpy.random.seed(3)
    (direction,) = gradient_check._unit_direction([(3, 4)])
    # the gradient is 2.01 everywhere: its derivative along the direction
    reported = re.search(r'backpropagation: *(\S+)', str(info.value)).group(1)
    numpy.testing.assert_allclose(float(reported), 2.01 * direction.sum(), rtol=1e-6)


class _OffByALittle(chainerlite.FunctionNode):
    def forward(self, inputs):
        return (inputs[0] * 2,)

    def backward(self, indexes, grad_outputs):
        return (grad_outputs[0] * 2.01,)


def _off_by_a_little(v):
    return _OffByALittle().apply((v,))[0]
