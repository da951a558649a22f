import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


@testing.parameterize(
    *testing.product(
        {
            'shape_groups': [
                ((2, 4, 3), 2),
                ((2, 6, 2, 3), 3),
                ((1, 4, 5), 4),
                ((2, 3, 2, 2), 1),
                ((3, 6), 2),
            ],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestGroupNormalization(testing.FunctionTestCase):
    def setUp(self):
        self.shape, self.groups = self.shape_groups
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_backward_options = {
                'dtype': numpy.float64,
                'atol': 5e-2,
                'rtol': 5e-2,
            }
            self.check_double_backward_options = {
                'dtype': numpy.float64,
                'atol': 5e-2,
                'rtol': 5e-2,
            }
        elif self.dtype == numpy.float32:
            self.check_forward_options = {'atol': 1e-4, 'rtol': 1e-4}
            self.check_backward_options = {
                'dtype': numpy.float64,
                'atol': 1e-3,
                'rtol': 1e-3,
            }
            self.check_double_backward_options = {
                'dtype': numpy.float64,
                'atol': 1e-3,
                'rtol': 1e-2,
            }
        else:
            self.check_backward_options = {'atol': 1e-4, 'rtol': 1e-3}
            self.check_double_backward_options = {'atol': 1e-3, 'rtol': 1e-3}

    def generate_inputs(self):
        channels = self.shape[1]
        x = numpy.random.uniform(-1, 1, self.shape)
        gamma = numpy.random.uniform(0.5, 1.5, channels)
        beta = numpy.random.uniform(-1, 1, channels)
        return tuple(a.astype(self.dtype) for a in (x, gamma, beta))

    def forward(self, inputs, device):
        x, gamma, beta = inputs
        return (F.group_normalization(x, self.groups, gamma, beta),)

    def forward_expected(self, inputs):
        x, gamma, beta = (a.astype(numpy.float64) for a in inputs)
        y = numpy.empty_like(x)
        size = x.shape[1] // self.groups
        for n in range(x.shape[0]):
            for g in range(self.groups):
                block = x[n, g * size : (g + 1) * size]
                y[n, g * size : (g + 1) * size] = (block - block.mean()) / numpy.sqrt(
                    block.var() + 1e-5
                )
        shape = (1, -1) + (1,) * (x.ndim - 2)
        y = y * gamma.reshape(shape) + beta.reshape(shape)
        return (y.astype(self.dtype),)


@pytest.mark.parametrize(
    'x_shape, groups, error',
    [((4,), 2, ValueError), ((2, 4, 3), 3, ValueError), ((2, 4, 3), 2.0, TypeError)],
)
def test_invalid_arguments(x_shape, groups, error):
    x = numpy.zeros(x_shape, numpy.float32)
    gamma = beta = numpy.ones(4, numpy.float32)
    with pytest.raises(error, match='groups|batch and a channel'):
        F.group_normalization(x, groups, gamma, beta)


@pytest.mark.parametrize(
    'gamma_shape, beta_shape, dtypes',
    [
        ((3,), (3,), None),
        ((4,), (2,), None),
        ((4, 1), (4, 1), None),
        ((4,), (4,), (numpy.float32, numpy.float64, numpy.float32)),
        ((4,), (4,), (numpy.int32,) * 3),
    ],
)
def test_invalid_inputs(gamma_shape, beta_shape, dtypes):
    x_dtype, g_dtype, b_dtype = dtypes or (numpy.float32,) * 3
    x = numpy.zeros((2, 4, 3), x_dtype)
    gamma = numpy.zeros(gamma_shape, g_dtype)
    beta = numpy.zeros(beta_shape, b_dtype)
    with pytest.raises(type_check.InvalidType, match='GroupNormalization'):
        F.group_normalization(x, 2, gamma, beta)


def test_float16_data_with_float32_parameters():
    from chainerlite import gradient_check

    x = numpy.random.uniform(-1, 1, (2, 4, 3)).astype(numpy.float16)
    gamma = numpy.random.uniform(0.5, 1.5, 4).astype(numpy.float32)
    beta = numpy.random.uniform(-1, 1, 4).astype(numpy.float32)
    y = F.group_normalization(x, 2, gamma, beta)
    assert y.dtype == numpy.float16
    expected = F.group_normalization(
        x.astype(numpy.float64),
        2,
        gamma.astype(numpy.float64),
        beta.astype(numpy.float64),
    )
    numpy.testing.assert_allclose(y.array, expected.array, atol=1e-2)
    gradient_check.check_backward(
        lambda x, g, b: F.group_normalization(x, 2, g, b),
        (x, gamma, beta),
        numpy.random.uniform(-1, 1, x.shape).astype(numpy.float16),
        dtype=numpy.float64,
        atol=5e-2,
        rtol=5e-2,
    )
    xv, gv, bv = (chainerlite.Variable(a) for a in (x, gamma, beta))
    F.sum(F.group_normalization(xv, 2, gv, bv)).backward()
    assert xv.grad.dtype == numpy.float16
    assert gv.grad.dtype == bv.grad.dtype == numpy.float32


@pytest.mark.parametrize('shape', [(4, 5), (3, 2, 3)])
def test_mul_inv_std(shape):
    from chainerlite import gradient_check
    from chainerlite.functions.normalization import group_normalization

    eps = 0.1
    # A gamma of another dtype than the data, as Chainer's own test has.
    gamma = numpy.random.uniform(0.5, 2, shape[0]).astype(numpy.float32)
    axes = tuple(range(1, len(shape)))

    def f(x, y):
        # The node gets the statistics as arrays, computed from x.
        a = chainerlite.as_array(x)
        mean = a.mean(axis=axes)
        inv_std = (a.var(axis=axes) + eps) ** -0.5
        return group_normalization._MulInvStd(eps, mean, inv_std, gamma).apply((x, y))

    x, y, gz, ggx, ggy = (numpy.random.uniform(-1, 1, shape) for _ in range(5))
    scale = gamma / numpy.sqrt(x.var(axis=axes) + eps)
    numpy.testing.assert_allclose(
        f(x, y)[0].array, scale.reshape((-1,) + (1,) * len(axes)) * y, rtol=1e-6
    )
    gradient_check.check_backward(f, (x, y), gz, atol=1e-5, rtol=1e-5)
    gradient_check.check_double_backward(
        f, (x, y), gz, (ggx, ggy), atol=1e-5, rtol=1e-5
    )


@pytest.mark.parametrize('shape', [(2, 4, 0, 0), (0, 4, 3), (2, 4, 0)])
def test_images_without_pixels_give_empty_gradients(shape):
    # the groups' means are over no elements: empty outputs and input
    # gradients (Chainer's), and gamma / beta gradients that sum nothing
    x = chainerlite.Variable(numpy.ones(shape, numpy.float32))
    gamma = chainerlite.Variable(numpy.ones(4, numpy.float32))
    beta = chainerlite.Variable(numpy.ones(4, numpy.float32))
    y = F.group_normalization(x, 2, gamma, beta)
    assert y.shape == shape
    y.grad = numpy.ones(shape, numpy.float32)
    y.backward()
    assert x.grad.shape == shape
    numpy.testing.assert_array_equal(gamma.grad, numpy.zeros(4))
    numpy.testing.assert_array_equal(beta.grad, numpy.zeros(4))
