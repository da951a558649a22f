import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


def _reference(x, gamma, beta, rmean, rvar, rmax, dmax, eps):
    x = x.astype(numpy.float64)
    axis = (0,) + tuple(range(2, x.ndim))
    shape = (1, -1) + (1,) * (x.ndim - 2)
    mean = x.mean(axis=axis).reshape(shape)
    std = numpy.sqrt(x.var(axis=axis).reshape(shape) + eps)
    rstd = numpy.sqrt(rvar.reshape(shape) + eps)
    r = numpy.clip(std / rstd, 1 / rmax, rmax)
    d = numpy.clip((mean - rmean.reshape(shape)) / rstd, -dmax, dmax)
    return ((x - mean) / std * r + d) * gamma.reshape(shape) + beta.reshape(shape)


@testing.parameterize(
    *testing.product(
        {
            'shape': [(5, 3), (4, 3, 2, 2)],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestBatchRenormalization(testing.FunctionTestCase):
    """The running statistics saturate r and d, so that they are constant
    near the inputs and the numerical gradients see the same function."""

    rmax, dmax, eps = 2.0, 0.5, 2e-5

    def setUp(self):
        self.running_mean = numpy.full(3, 100.0, self.dtype)
        self.running_var = numpy.full(3, 1e-3, self.dtype)
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 2e-2, 'rtol': 2e-2}
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
        else:
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

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        gamma = numpy.random.uniform(0.5, 1, 3).astype(self.dtype)
        beta = numpy.random.uniform(-1, 1, 3).astype(self.dtype)
        return x, gamma, beta

    def forward(self, inputs, device):
        x, gamma, beta = inputs
        return (
            F.batch_renormalization(
                x,
                gamma,
                beta,
                self.rmax,
                self.dmax,
                self.eps,
                device.send(self.running_mean),
                device.send(self.running_var),
            ),
        )

    def forward_expected(self, inputs):
        y = _reference(
            *inputs, self.running_mean, self.running_var, self.rmax, self.dmax, self.eps
        )
        return (y.astype(self.dtype),)


def test_r_and_d_between_bounds_and_statistics_update():
    x = numpy.random.uniform(-1, 1, (6, 2)).astype(numpy.float64)
    gamma, beta = numpy.ones(2), numpy.zeros(2)
    rmean, rvar = numpy.array([0.1, -0.1]), numpy.array([0.5, 0.4])
    y = F.batch_renormalization(x, gamma, beta, 3, 5, 1e-5, rmean.copy(), rvar.copy())
    numpy.testing.assert_allclose(
        y.array, _reference(x, gamma, beta, rmean, rvar, 3, 5, 1e-5)
    )
    mean, var = rmean.copy(), rvar.copy()
    F.batch_renormalization(
        x, gamma, beta, 3, 5, 1e-5, mean, var, decay=0.5, update_statistics=True
    )
    numpy.testing.assert_allclose(mean, 0.5 * rmean + 0.5 * x.mean(0))
    numpy.testing.assert_allclose(var, 0.5 * rvar + 0.5 * x.var(0, ddof=1))


def test_gradient_treats_r_and_d_as_constants():
    x = numpy.random.uniform(-1, 1, (5, 2))
    gamma, beta = numpy.ones(2), numpy.zeros(2)
    rmean, rvar = numpy.zeros(2), numpy.ones(2)
    xv = chainerlite.Variable(x)
    y = F.batch_renormalization(xv, gamma, beta, 10, 10, 0, rmean, rvar)
    r = y.creator.r
    gy = numpy.random.uniform(-1, 1, x.shape)
    y.grad = gy
    y.backward()
    bn = F.batch_normalization(chainerlite.Variable(x), gamma, beta, eps=0)
    (gx_bn,) = chainerlite.grad(
        [bn], [bn.creator.inputs[0].get_variable()], [chainerlite.Variable(gy * r)]
    )
    numpy.testing.assert_allclose(xv.grad, gx_bn.array, atol=1e-12)


def test_node_retains_every_input_as_chainers():
    # Chainer's node is an old-style Function, which keeps all its inputs.
    x = numpy.random.uniform(-1, 1, (4, 3)).astype(numpy.float32)
    gamma, beta = numpy.ones(3, numpy.float32), numpy.zeros(3, numpy.float32)
    y = F.batch_renormalization(
        x, gamma, beta, 2, 1, running_mean=beta.copy(), running_var=gamma.copy()
    )
    node = y.creator
    assert tuple(node._input_indexes_to_retain) == (0, 1, 2)
    assert node._output_indexes_to_retain is None
    retained = node.get_retained_inputs()
    assert [v.array is a for v, a in zip(retained, (x, gamma, beta))] == [True] * 3


@pytest.mark.parametrize(
    'x_dtype, p_dtype',
    [
        (numpy.float64, numpy.float16),
        (numpy.float32, numpy.float16),
        (numpy.float64, numpy.float32),
    ],
)
def test_statistics_in_the_dtype_of_a_narrower_gamma(x_dtype, p_dtype):
    # As Chainer 7.8.1: the batch mean and variance are taken in gamma's
    # dtype, the rest in x's.
    x = numpy.array([[1.0, 2.0, 0.3], [1.0, 0.1, 0.7], [0.2, 0.4, 0.9]], x_dtype)
    gamma, beta = numpy.full(3, 1.5, p_dtype), numpy.full(3, 0.25, p_dtype)
    rmean = numpy.array([0.5, 0.2, 0.1], p_dtype)
    rvar = numpy.array([0.3, 2.0, 0.1], p_dtype)
    y = F.batch_renormalization(
        x, gamma, beta, 2.0, 0.5, running_mean=rmean, running_var=rvar
    )
    mean = x.mean(axis=0, dtype=p_dtype)
    std = (x.var(axis=0, dtype=p_dtype) + 2e-5) ** 0.5
    rstd = (rvar + 2e-5) ** 0.5
    r = numpy.clip(std / rstd, 0.5, 2.0)
    d = numpy.clip((mean - rmean) / rstd, -0.5, 0.5)
    expected = gamma * ((x - mean) / std * r + d) + beta
    assert y.dtype == x_dtype
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-6)
    if p_dtype == numpy.float16:  # float16 statistics show in the result
        exact = _reference(x, gamma, beta, rmean, rvar, 2.0, 0.5, 2e-5)
        assert numpy.abs(y.array - exact).max() > 1e-5


def test_fixed_is_fixed_batch_normalization():
    x = numpy.random.uniform(-1, 1, (3, 2)).astype(numpy.float32)
    p = [numpy.random.uniform(0.5, 1, 2).astype(numpy.float32) for _ in range(4)]
    with pytest.warns(DeprecationWarning):
        y = F.fixed_batch_renormalization(x, *p)
    numpy.testing.assert_array_equal(y.array, F.fixed_batch_normalization(x, *p).array)


def test_invalid_gamma_shape():
    x = numpy.zeros((3, 2), numpy.float32)
    g = numpy.ones(3, numpy.float32)
    with pytest.raises(type_check.InvalidType):
        F.batch_renormalization(x, g, g, 1, 0, running_mean=g, running_var=g)


@pytest.mark.parametrize('missing', ['running_mean', 'running_var'])
def test_running_statistics_are_required(missing):
    x = numpy.zeros((3, 2), numpy.float32)
    g = numpy.ones(2, numpy.float32)
    stats = {'running_mean': g, 'running_var': g, missing: None}
    with pytest.raises(
        TypeError, match='batch_renormalization: {} is required'.format(missing)
    ):
        F.batch_renormalization(x, g, g, 1, 0, **stats)
