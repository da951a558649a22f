import math

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


def _kl(mean, ln_var):
    return 0.5 * (mean * mean + numpy.exp(ln_var) - ln_var - 1)


def _bernoulli(x, y):
    p = 1 / (1 + numpy.exp(-y))
    return -(x * numpy.log(p) + (1 - x) * numpy.log(1 - p))


def _gaussian(x, mean, ln_var):
    var = numpy.exp(ln_var)
    return 0.5 * numpy.log(2 * math.pi * var) + (x - mean) ** 2 / (2 * var)


# name: (function, NumPy reference, number of inputs, class name)
FUNCTIONS = {
    'gaussian_kl_divergence': (
        F.gaussian_kl_divergence,
        _kl,
        2,
        'GaussianKLDivergence',
    ),
    'bernoulli_nll': (F.bernoulli_nll, _bernoulli, 2, 'BernoulliNLL'),
    'gaussian_nll': (F.gaussian_nll, _gaussian, 3, 'GaussianNLL'),
}


@testing.parameterize(
    *testing.product(
        {
            'name': sorted(FUNCTIONS),
            'shape': [(3, 2), ()],
            'reduce': ['sum', 'mean', 'no'],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestVAELosses(testing.FunctionTestCase):
    def setUp(self):
        self.function, self.reference, self.n_inputs, _ = FUNCTIONS[self.name]
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_backward_options = {
                'dtype': numpy.float64,
                'atol': 1e-2,
                'rtol': 1e-2,
            }
            self.check_double_backward_options = {
                'dtype': numpy.float64,
                'atol': 1e-2,
                'rtol': 5e-2,
            }
        elif self.dtype == numpy.float32:
            self.check_backward_options = {
                'dtype': numpy.float64,
                'atol': 1e-4,
                'rtol': 1e-3,
            }
            self.check_double_backward_options = {
                'dtype': numpy.float64,
                'atol': 1e-3,
                'rtol': 1e-2,
            }

    def generate_inputs(self):
        return tuple(
            numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
            for _ in range(self.n_inputs)
        )

    def forward(self, inputs, device):
        return (self.function(*inputs, reduce=self.reduce),)

    def forward_expected(self, inputs):
        loss = self.reference(*(x.astype(numpy.float64) for x in inputs))
        if self.reduce == 'sum':
            loss = loss.sum()
        elif self.reduce == 'mean':
            loss = loss.mean()
        return (numpy.asarray(loss, self.dtype),)


def test_bernoulli_nll_is_stable_for_large_logits():
    x = numpy.array([1.0, 0.0], numpy.float32)
    y = numpy.array([-100.0, -100.0], numpy.float32)
    loss = F.bernoulli_nll(x, y, reduce='no')
    numpy.testing.assert_allclose(loss.array, [100.0, 0.0], atol=1e-6)


def test_default_reduce_is_sum():
    x = numpy.ones((2, 2), numpy.float32)
    assert F.gaussian_kl_divergence(x, x).shape == ()
    assert F.bernoulli_nll(x, x).shape == ()
    assert F.gaussian_nll(x, x, x).shape == ()


@pytest.mark.parametrize('name', sorted(FUNCTIONS))
def test_mean_is_one_mean_node(name):
    # as Chainer's F.average: a Mean node over the elementwise loss (its
    # float16 mean accumulates in float32)
    function, _, n_inputs, class_name = FUNCTIONS[name]
    rng = numpy.random.RandomState(0)
    xs = [rng.uniform(-1, 1, (40, 50)).astype(numpy.float16) for _ in range(n_inputs)]
    loss = function(*xs, reduce='mean')
    assert loss.creator.label == 'Mean'
    assert loss.creator.inputs[0].creator.label == class_name
    elementwise = function(*xs, reduce='no').array
    assert loss.array == elementwise.mean()
    assert loss.dtype == numpy.float16


@pytest.mark.parametrize('name', sorted(FUNCTIONS))
def test_invalid_reduce(name):
    function, _, n_inputs, _ = FUNCTIONS[name]
    x = numpy.zeros(3, numpy.float32)
    with pytest.raises(ValueError, match="'sum', 'mean' and 'no'"):
        function(*([x] * n_inputs), reduce='max')


@pytest.mark.parametrize('name', sorted(FUNCTIONS))
def test_invalid_inputs(name):
    function, _, n_inputs, class_name = FUNCTIONS[name]
    x = numpy.zeros(3, numpy.float32)
    with pytest.raises(type_check.InvalidType, match=class_name):
        function(*([x] * (n_inputs - 1) + [numpy.zeros(3, numpy.float64)]))
    # shapes that do not broadcast
    with pytest.raises(type_check.InvalidType, match='broadcast'):
        function(*([x] * (n_inputs - 1) + [numpy.zeros(2, numpy.float32)]))


@pytest.mark.parametrize('name', sorted(FUNCTIONS))
@pytest.mark.parametrize('reduce', ['sum', 'mean', 'no'])
def test_inputs_of_broadcastable_shapes(name, reduce):
    # as in Chainer 7.8.1, whose losses are broadcasting arithmetic: the
    # same as the inputs broadcast first, gradients summed back
    function, _, n_inputs, _ = FUNCTIONS[name]
    shapes = [(2, 3), (3,), (2, 1)][:n_inputs]
    arrays = [numpy.random.uniform(0.1, 1, s).astype(numpy.float32) for s in shapes]
    inputs = [chainerlite.Variable(a) for a in arrays]
    wide = [chainerlite.Variable(numpy.broadcast_to(a, (2, 3)).copy()) for a in arrays]
    y, want = function(*inputs, reduce=reduce), function(*wide, reduce=reduce)
    numpy.testing.assert_allclose(y.array, want.array, rtol=1e-6)
    chainerlite.functions.sum(y).backward()
    chainerlite.functions.sum(want).backward()
    for v, w in zip(inputs, wide):
        assert v.grad.shape == v.shape
        numpy.testing.assert_allclose(v.grad, _sum_to(w.grad, v.shape), rtol=1e-5)


def _sum_to(a, shape):
    lead = a.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(
        lead + i for i, n in enumerate(shape) if n == 1 and a.shape[lead + i] != 1
    )
    return a.sum(axis=axes, keepdims=True).reshape(shape)


@pytest.mark.parametrize('name', sorted(FUNCTIONS))
def test_integer_inputs_are_invalid(name):
    function, _, n_inputs, class_name = FUNCTIONS[name]
    x = numpy.zeros(3, numpy.int32)
    with pytest.raises(type_check.InvalidType, match=class_name):
        function(*([x] * n_inputs))


def test_bernoulli_nll_second_order_in_y_follows_softplus():
    # d2/dy2 of softplus(y) - x y is sigmoid'(y): NaN at y = +inf as
    # Chainer's softplus second order gives, 0 at -inf
    x = chainerlite.Variable(numpy.array([0.3, 1.0, 0.5]))
    y = chainerlite.Variable(numpy.array([numpy.inf, -numpy.inf, 0.0]))
    loss = F.bernoulli_nll(x, y, reduce='no')
    gx, gy = chainerlite.grad([loss], [x, y], enable_double_backprop=True)
    ggx, ggy = chainerlite.grad([F.sum(gy)], [x, y])
    assert numpy.isnan(ggy.array[0])
    numpy.testing.assert_array_equal(ggy.array[1:], [0.0, 0.25])
    numpy.testing.assert_array_equal(ggx.array, [-1.0, -1.0, -1.0])
