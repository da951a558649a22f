"""The activations' backward applies one grad node, on every path.

The plain pass (no hook, no double backprop) runs the grad node
compute-only; a hook sees the same node's real apply nested in backward,
and the gradients are bitwise those of the plain pass.
"""

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import function_hook
from chainerlite import gradient_check
from chainerlite.functions.activation import clipped_relu
from chainerlite.functions.activation import elu
from chainerlite.functions.activation import gelu
from chainerlite.functions.activation import hard_sigmoid
from chainerlite.functions.activation import leaky_relu
from chainerlite.functions.activation import log_softmax
from chainerlite.functions.activation import sigmoid
from chainerlite.functions.activation import softmax
from chainerlite.functions.activation import softplus
from chainerlite.functions.activation import swish

BETA = numpy.array([0.5, 1.0, 2.0])
# name: (function of x, its node class, the grad node class its backward applies)
CASES = {
    'clipped_relu': (
        lambda x: F.clipped_relu(x, 1.5),
        clipped_relu.ClippedReLU,
        clipped_relu.ClippedReLUGrad2,
    ),
    'elu': (lambda x: F.elu(x, 0.7), elu.ELU, elu.ELUGrad),
    'gelu': (F.gelu, gelu.GELU, gelu.GELUGrad),
    'hard_sigmoid': (
        F.hard_sigmoid,
        hard_sigmoid.HardSigmoid,
        hard_sigmoid.HardSigmoidGrad,
    ),
    'leaky_relu': (
        lambda x: F.leaky_relu(x, 0.3),
        leaky_relu.LeakyReLU,
        leaky_relu._LeakyReLUGrad,
    ),
    'log_softmax': (F.log_softmax, log_softmax.LogSoftmax, log_softmax.LogSoftmaxGrad),
    'sigmoid': (F.sigmoid, sigmoid.Sigmoid, sigmoid.SigmoidGrad),
    'softmax': (F.softmax, softmax.Softmax, softmax._SoftmaxGrad),
    'softplus': (
        lambda x: F.softplus(x, 2.0),
        softplus.Softplus,
        softplus.SoftplusGrad,
    ),
    'swish': (lambda x: F.swish(x, BETA.astype(x.dtype)), swish.Swish, swish.SwishGrad),
}


class _Recorder(function_hook.FunctionHook):
    name = 'recorder'

    def __init__(self):
        self.calls = []

    def forward_preprocess(self, function, in_data):
        self.calls.append(('forward', type(function)))

    def backward_preprocess(self, function, in_data, out_grad):
        self.calls.append(('backward', type(function)))


def _gradient(f, x, gy):
    xv = chainerlite.Variable(x)
    y = f(xv)
    y.grad = gy
    y.backward()
    return xv.grad


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('name', sorted(CASES))
def test_hook_sees_the_grad_node_that_the_plain_pass_runs(name, dtype):
    f, node, grad_node = CASES[name]
    assert '_backward_arrays' not in vars(node)
    assert '_backward_arrays' not in vars(grad_node)
    rs = numpy.random.RandomState(0)
    x = rs.uniform(-4, 4, (2, 3, 4)).astype(dtype)
    gy = rs.uniform(-1, 1, x.shape).astype(dtype)
    plain = _gradient(f, x, gy)
    with _Recorder() as hook:
        hooked = _gradient(f, x, gy)
    assert hooked.dtype == plain.dtype == dtype
    assert hooked.tobytes() == plain.tobytes()
    # the grad node's apply runs nested in the node's backward
    assert hook.calls == [('forward', node), ('backward', node), ('forward', grad_node)]


def _swish_of(x=None, beta=None):
    def f(*args):
        args = list(args)
        return F.swish(
            args.pop(0) if x is None else x, args.pop(0) if beta is None else beta
        )

    return f


@pytest.mark.parametrize('wanted', ['x', 'beta'])
def test_swish_grads_of_one_input(wanted):
    rs = numpy.random.RandomState(1)
    x = rs.uniform(-3, 3, (4, 3, 2))
    beta = rs.uniform(0.3, 2, (3,))
    if wanted == 'x':
        f, inputs = _swish_of(beta=beta), (x,)
    else:
        f, inputs = _swish_of(x=x), (beta,)
    gy = rs.uniform(-1, 1, x.shape)
    ggs = tuple(rs.uniform(-1, 1, a.shape) for a in inputs)
    gradient_check.check_backward(f, inputs, gy, atol=1e-6, rtol=1e-5)
    gradient_check.check_double_backward(f, inputs, gy, ggs, atol=1e-5, rtol=1e-4)
    # the node gives only the gradient it is asked for, equal to the one
    # it gives when asked for both
    index = 0 if wanted == 'x' else 1
    shape, axes = (1, 3, 1), (0, 2)
    (one,) = swish.SwishGrad(shape, axes, (index,)).apply((x, beta, gy))
    both = swish.SwishGrad(shape, axes).apply((x, beta, gy))
    assert one.array.tobytes() == both[index].array.tobytes()


def test_swish_grad_by_chainers_constructor():
    # SwishGrad(extended_shape, reduction_axes) applied to (x, beta, gy):
    # gx = gy (s + u s (1 - s)) and gbeta = sum gy x^2 s (1 - s), u = beta x
    rs = numpy.random.RandomState(2)
    x = rs.uniform(-3, 3, (2, 3, 4))
    beta = rs.uniform(0.3, 2, (3,))
    gy = rs.uniform(-1, 1, x.shape)
    gx, gbeta = swish.SwishGrad((1, 3, 1), (0, 2)).apply((x, beta, gy))
    u = beta[None, :, None] * x
    s = 1 / (1 + numpy.exp(-u))
    numpy.testing.assert_allclose(gx.array, gy * (s + u * s * (1 - s)), rtol=1e-12)
    numpy.testing.assert_allclose(
        gbeta.array, (gy * x * x * s * (1 - s)).sum(axis=(0, 2)), rtol=1e-12
    )


def test_swish_second_order_beta_grad_is_finite_where_the_cube_of_x_overflows():
    # x^3 overflows float16 at x = 100, where the sigmoid is saturated
    x = numpy.array([[100.0, -100.0, 1.0]], numpy.float16)
    beta = numpy.array([1.0, 1.0, 1.0], numpy.float16)
    xv, bv = chainerlite.Variable(x), chainerlite.Variable(beta)
    y = F.swish(xv, bv)
    gx, gbeta = chainerlite.grad(
        [y],
        [xv, bv],
        [chainerlite.Variable(numpy.ones_like(x))],
        enable_double_backprop=True,
    )
    F.sum(gbeta).backward()
    assert numpy.isfinite(bv.grad).all()
    assert numpy.isfinite(xv.grad).all()
