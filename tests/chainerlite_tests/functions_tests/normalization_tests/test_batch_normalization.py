import warnings

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite import testing
from chainerlite.utils import type_check

# x shape, parameter shape, axis
_CASES = [
    ((5, 3), (3,), None),
    ((2, 3, 4, 2), (3,), None),
    ((2, 3, 4, 2), (3, 4), None),
    ((2, 3, 4, 2), (3, 4), (0, 3)),
    ((2, 3, 4, 2), (3, 4), (-4, -1)),
    ((4, 3), (4,), 1),
]


def _reduced_axes(x_ndim, param_ndim, axis):
    if axis is None:
        return (0,) + tuple(range(param_ndim + 1, x_ndim))
    if isinstance(axis, int):
        axis = (axis,)
    return tuple(a % x_ndim for a in axis)


def _expand(param, x_shape, axes):
    return param.reshape([1 if i in axes else n for i, n in enumerate(x_shape)])


def _normalize(x, gamma, beta, mean, var, eps, axes):
    x, gamma, beta, mean, var = (
        a.astype(numpy.float64) for a in (x, gamma, beta, mean, var)
    )
    e = lambda p: _expand(p, x.shape, axes)  # NOQA: E731
    return e(gamma) * (x - e(mean)) / numpy.sqrt(e(var) + eps) + e(beta)


def _tolerances(test):
    if test.dtype == numpy.float16:
        test.check_forward_options = {'atol': 1e-2, 'rtol': 1e-2}
        test.check_backward_options = {
            'dtype': numpy.float64,
            'atol': 5e-2,
            'rtol': 5e-2,
        }
        test.check_double_backward_options = {
            'dtype': numpy.float64,
            'atol': 5e-2,
            'rtol': 5e-2,
        }
    elif test.dtype == numpy.float32:
        test.check_forward_options = {'atol': 1e-4, 'rtol': 1e-4}
        test.check_backward_options = {
            'dtype': numpy.float64,
            'atol': 1e-3,
            'rtol': 1e-3,
        }
        test.check_double_backward_options = {
            'dtype': numpy.float64,
            'atol': 1e-3,
            'rtol': 1e-2,
        }
    else:
        test.check_backward_options = {'atol': 1e-4, 'rtol': 1e-3}
        test.check_double_backward_options = {'atol': 1e-3, 'rtol': 1e-3}


@testing.parameterize(
    *testing.product(
        {
            'case': _CASES,
            'eps': [2e-5, 0.5],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_ideep': 'always'}, {'use_cuda': True}])
class TestBatchNormalization(testing.FunctionTestCase):
    def setUp(self):
        self.x_shape, self.param_shape, self.axis = self.case
        _tolerances(self)

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.x_shape)
        gamma = numpy.random.uniform(0.5, 1.5, self.param_shape)
        beta = numpy.random.uniform(-1, 1, self.param_shape)
        return tuple(a.astype(self.dtype) for a in (x, gamma, beta))

    def forward(self, inputs, device):
        x, gamma, beta = inputs
        return (F.batch_normalization(x, gamma, beta, eps=self.eps, axis=self.axis),)

    def forward_expected(self, inputs):
        x, gamma, beta = inputs
        axes = _reduced_axes(x.ndim, gamma.ndim, self.axis)
        mean = x.astype(numpy.float64).mean(axis=axes)
        var = x.astype(numpy.float64).var(axis=axes)
        y = _normalize(x, gamma, beta, mean, var, self.eps, axes)
        return (y.astype(self.dtype),)


@testing.parameterize(
    *testing.product(
        {'case': _CASES[:4], 'dtype': [numpy.float16, numpy.float32, numpy.float64]}
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestFixedBatchNormalization(testing.FunctionTestCase):
    def setUp(self):
        self.x_shape, self.param_shape, self.axis = self.case
        _tolerances(self)

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.x_shape)
        gamma = numpy.random.uniform(0.5, 1.5, self.param_shape)
        beta = numpy.random.uniform(-1, 1, self.param_shape)
        mean = numpy.random.uniform(-0.5, 0.5, self.param_shape)
        var = numpy.random.uniform(0.5, 1.5, self.param_shape)
        return tuple(a.astype(self.dtype) for a in (x, gamma, beta, mean, var))

    def forward(self, inputs, device):
        return (F.fixed_batch_normalization(*inputs, axis=self.axis),)

    def forward_expected(self, inputs):
        x, gamma = inputs[:2]
        axes = _reduced_axes(x.ndim, gamma.ndim, self.axis)
        return (_normalize(*inputs, eps=2e-5, axes=axes).astype(self.dtype),)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32])
def test_running_statistics_are_updated_in_place(dtype):
    x = numpy.random.uniform(-1, 1, (4, 3, 2))
    gamma, beta = numpy.ones(3, dtype), numpy.zeros(3, dtype)
    running_mean = numpy.full(3, 0.5, dtype)
    running_var = numpy.full(3, 2.0, dtype)
    mean_before, var_before = running_mean, running_var
    F.batch_normalization(
        x.astype(dtype),
        gamma,
        beta,
        running_mean=running_mean,
        running_var=running_var,
        decay=0.75,
    )
    assert running_mean is mean_before and running_var is var_before
    assert running_mean.dtype == dtype and running_var.dtype == dtype
    x = x.astype(dtype).astype(numpy.float64)
    unbiased_var = x.var(axis=(0, 2)) * 8 / 7
    tol = 1e-3 if dtype == numpy.float16 else 1e-6
    numpy.testing.assert_allclose(
        running_mean, 0.75 * 0.5 + 0.25 * x.mean(axis=(0, 2)), atol=tol
    )
    numpy.testing.assert_allclose(
        running_var, 0.75 * 2.0 + 0.25 * unbiased_var, atol=tol
    )


def test_running_mean_alone_is_updated():
    x = numpy.array([[1.0, 2.0], [3.0, 6.0]])
    running_mean = numpy.zeros(2)
    F.batch_normalization(x, numpy.ones(2), numpy.zeros(2), running_mean=running_mean)
    numpy.testing.assert_allclose(running_mean, [0.2, 0.4])


def test_mixed_precision_keeps_dtypes():
    x = numpy.random.uniform(-1, 1, (5, 3)).astype(numpy.float16)
    gamma = numpy.random.uniform(0.5, 1.5, 3).astype(numpy.float32)
    beta = numpy.random.uniform(-1, 1, 3).astype(numpy.float32)
    y = F.batch_normalization(x, gamma, beta)
    assert y.dtype == numpy.float16
    mean, var = x.astype(numpy.float64).mean(0), x.astype(numpy.float64).var(0)
    numpy.testing.assert_allclose(
        y.array, _normalize(x, gamma, beta, mean, var, 2e-5, (0,)), atol=1e-2, rtol=1e-2
    )
    gy = numpy.random.uniform(-1, 1, (5, 3)).astype(numpy.float16)
    gradient_check.check_backward(
        F.batch_normalization,
        (x, gamma, beta),
        gy,
        dtype=numpy.float64,
        atol=5e-2,
        rtol=5e-2,
    )


@pytest.mark.parametrize(
    'x_dtype, p_dtype',
    [
        (numpy.float32, numpy.float16),
        (numpy.float64, numpy.float16),
        (numpy.float64, numpy.float32),
    ],
)
def test_gamma_narrower_than_x_sums_the_gradients_in_its_dtype(x_dtype, p_dtype):
    # As Chainer 7.8.1: the sums of gy and gy * xhat are taken in gamma's
    # dtype and gx uses them (and 1 / m) so rounded. At a constant channel
    # (inv_std = eps ** -0.5, about 224) that rounding shows in gx.
    x = numpy.array([[1.0, 0.5, 2.0], [1.0, -0.5, 0.0], [1.0, 0.25, 1.0]], x_dtype)
    gamma = numpy.array([1.0, 2.0, 0.5], p_dtype)
    beta = numpy.zeros(3, p_dtype)
    gy = numpy.array([[0.3, -0.7, 0.1], [-0.9, 0.2, 0.6], [0.35, 0.4, -0.2]], x_dtype)
    xv, gv, bv = (chainerlite.Variable(a) for a in (x, gamma, beta))
    y = F.batch_normalization(xv, gv, bv)
    gx, ggamma, gbeta = chainerlite.grad([y], [xv, gv, bv], [chainerlite.Variable(gy)])
    mean, var = x.mean(0), x.var(0)
    inv_std = (var + 2e-5) ** -0.5
    xhat = (x - mean) * inv_std
    sum_gy = gy.sum(0, dtype=p_dtype)
    sum_gy_xhat = (gy * xhat).sum(0, dtype=p_dtype)
    inv_m = p_dtype(1.0 / 3)
    expected = gamma * inv_std * (gy - (sum_gy + xhat * sum_gy_xhat) * inv_m)
    assert gx.dtype == x_dtype and ggamma.dtype == gbeta.dtype == p_dtype
    numpy.testing.assert_allclose(gx.array, expected, rtol=1e-5)
    numpy.testing.assert_array_equal(gbeta.array, sum_gy)
    # the sums in x's dtype would give another gx in the constant channel
    exact = gy.sum(0)[0] * inv_std[0] / 3
    if p_dtype == numpy.float16:
        assert abs(gx.array[0, 0] - (gy[0, 0] * inv_std[0] - exact)) > 1e-3


def test_second_order_of_a_wider_gamma_with_float16_x_is_chainers():
    # gx is linear in gamma: its derivative along ggx is sum(gx * ggx) /
    # gamma, which Chainer 7.8.1 computes in float16 from the float16 gx;
    # where gamma is 0 the formula's derivative stands (Chainer's is NaN).
    rng = numpy.random.RandomState(3)
    x = chainerlite.Variable(rng.uniform(-1, 1, (4, 3)).astype(numpy.float16))
    gamma = chainerlite.Variable(numpy.array([1.5, 0.0, -0.5], numpy.float32))
    beta = numpy.zeros(3, numpy.float32)
    gy = rng.uniform(-1, 1, (4, 3)).astype(numpy.float16)
    ggx = rng.uniform(-1, 1, (4, 3)).astype(numpy.float16)
    y = F.batch_normalization(x, gamma, beta)
    (gx,) = chainerlite.grad(
        [y], [x], [chainerlite.Variable(gy)], enable_double_backprop=True
    )
    (ggamma,) = chainerlite.grad([gx], [gamma], [chainerlite.Variable(ggx)])
    assert ggamma.dtype == numpy.float32
    narrow = gamma.array.astype(numpy.float16)
    expected = (gx.array * ggx).sum(0) / numpy.where(narrow == 0, 1, narrow)
    numpy.testing.assert_array_equal(ggamma.array[[0, 2]], expected[[0, 2]])
    # at gamma 0, the derivative in float64
    x64 = chainerlite.Variable(x.array.astype(numpy.float64))
    g64 = chainerlite.Variable(gamma.array.astype(numpy.float64))
    y64 = F.batch_normalization(x64, g64, beta.astype(numpy.float64))
    (gx64,) = chainerlite.grad(
        [y64],
        [x64],
        [chainerlite.Variable(gy.astype(numpy.float64))],
        enable_double_backprop=True,
    )
    (gg64,) = chainerlite.grad(
        [gx64], [g64], [chainerlite.Variable(ggx.astype(numpy.float64))]
    )
    numpy.testing.assert_allclose(ggamma.array[1], gg64.array[1], rtol=2e-2)
    assert gg64.array[1] != 0


def test_arguments_may_be_positional():
    x = numpy.random.uniform(-1, 1, (4, 3))
    running_mean = numpy.zeros(3)
    y = F.batch_normalization(
        x, numpy.ones(3), numpy.zeros(3), 0.0, running_mean, None, 0.0, None
    )
    numpy.testing.assert_allclose(running_mean, x.mean(axis=0))
    numpy.testing.assert_allclose(y.array, (x - x.mean(0)) / x.std(0), rtol=1e-6)


@pytest.mark.parametrize(
    'x_shape, gamma_shape, beta_shape, dtypes, axis',
    [
        ((2, 3), (4,), (4,), None, None),
        ((3,), (3,), (3,), None, None),
        ((2, 3), (3,), (2,), None, None),
        ((2, 3), (3,), (3,), (numpy.float32, numpy.float32, numpy.float64), None),
        ((2, 3), (3,), (3,), (numpy.int32, numpy.float32, numpy.float32), None),
        ((2, 3), (3,), (3,), None, 2),
        ((2, 3, 4), (3,), (3,), None, 0),
    ],
)
def test_invalid_inputs(x_shape, gamma_shape, beta_shape, dtypes, axis):
    x_dtype, g_dtype, b_dtype = dtypes or (numpy.float32,) * 3
    x = numpy.zeros(x_shape, x_dtype)
    gamma = numpy.zeros(gamma_shape, g_dtype)
    beta = numpy.zeros(beta_shape, b_dtype)
    with pytest.raises(type_check.InvalidType, match='in: BatchNormalization'):
        F.batch_normalization(x, gamma, beta, axis=axis)


@pytest.mark.parametrize(
    'mean_shape, var_shape, var_dtype',
    [
        ((4,), (3,), numpy.float32),
        ((3,), (3, 1), numpy.float32),
        ((3,), (3,), numpy.float64),
    ],
)
def test_fixed_invalid_inputs(mean_shape, var_shape, var_dtype):
    x = numpy.zeros((2, 3), numpy.float32)
    gamma = beta = numpy.zeros(3, numpy.float32)
    mean = numpy.zeros(mean_shape, numpy.float32)
    var = numpy.zeros(var_shape, var_dtype)
    with pytest.raises(type_check.InvalidType, match='FixedBatchNormalization'):
        F.fixed_batch_normalization(x, gamma, beta, mean, var)


@pytest.mark.parametrize(
    ('shape', 'warns'),
    [((1, 3), True), ((1, 3, 1, 1), True), ((2, 3), False), ((1, 3, 2), False)],
)
def test_one_sample_batch_warns(shape, warns):
    # A UserWarning as in Chainer 7.8.1: the output is all zeros (found by
    # the differential harness, tools/diff_chainer).
    x = numpy.ones(shape, numpy.float32)
    gamma, beta = numpy.ones(3, numpy.float32), numpy.zeros(3, numpy.float32)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        F.batch_normalization(x, gamma, beta)
    found = [w for w in caught if 'no more than one sample' in str(w.message)]
    assert len(found) == warns and all(w.category is UserWarning for w in found)


def test_0d_input_fails_the_rank_check():
    # Chainer 7.8.1: x needs an axis to take the statistics over
    x = numpy.zeros((), numpy.float32)
    with pytest.raises(type_check.InvalidType, match='ndim') as info:
        F.batch_normalization(x, x, x)
    assert not isinstance(info.value, IndexError)


@pytest.mark.parametrize(
    ('axis', 'message'),
    [
        ((0, 0), 'ascending'),
        ((2, 0), 'ascending'),
        ((0, -1), 'ascending'),  # compared as given, as Chainer does
        (1.5, 'must be int, tuple of int or None'),
        (numpy.int64(0), 'must be int, tuple of int or None'),  # not an int
    ],
)
def test_axis_arguments_chainer_refuses(axis, message):
    # RuntimeError when the node is made, as Chainer 7.8.1's
    x = numpy.ones((4, 3, 2), numpy.float32)
    g = numpy.ones(3, numpy.float32)
    with pytest.raises(RuntimeError, match=message):
        F.batch_normalization(x, g, g, axis=axis)
    with pytest.raises(RuntimeError, match=message):
        F.fixed_batch_normalization(x, g, g, g, g, axis=axis)
    with pytest.raises(RuntimeError, match=message):
        chainerlite.links.BatchNormalization(3, axis=axis)(x)
