import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


@testing.parameterize(
    *testing.product(
        {
            'train': [True, False],
            'shape': [(3, 2), ()],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestRReLU(testing.FunctionTestCase):
    def setUp(self):
        self.l, self.u = 0.2, 0.6
        self.r = numpy.random.uniform(self.l, self.u, self.shape)
        if self.dtype == numpy.float16:
            self.check_backward_options = {'atol': 5e-4, 'rtol': 5e-3}
            self.check_double_backward_options = {'atol': 5e-4, 'rtol': 5e-3}

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        x[abs(x) < 0.05] = 0.5
        return (x,)

    def forward(self, inputs, device):
        (x,) = inputs
        r = device.send(self.r.astype(x.dtype))
        with chainerlite.using_config('train', self.train):
            return (F.rrelu(x, l=self.l, u=self.u, r=r),)

    def forward_expected(self, inputs):
        (x,) = inputs
        slope = self.r if self.train else (self.l + self.u) / 2
        return (numpy.where(x >= 0, x, x * slope).astype(self.dtype),)


def test_sampled_slopes_lie_between_the_bounds():
    x = -numpy.ones((100,), numpy.float32)
    y, r = F.rrelu(x, l=0.1, u=0.3, return_r=True)
    assert r.shape == x.shape and r.dtype == x.dtype
    assert ((r >= 0.1) & (r <= 0.3)).all()
    numpy.testing.assert_allclose(y.array, -r)


def test_sampled_slopes_of_a_scalar_input_are_an_array():
    _, r = F.rrelu(numpy.array(-1, numpy.float32), return_r=True)
    assert isinstance(r, numpy.ndarray) and r.shape == ()


def test_given_slopes_are_returned_in_training():
    r = numpy.full((2,), 0.5, numpy.float32)
    _, r_out = F.rrelu(numpy.ones((2,), numpy.float32), r=r, return_r=True)
    assert r_out is r


def test_slopes_of_another_shape_are_invalid():
    with pytest.raises(type_check.InvalidType, match='RReLU'):
        F.rrelu(numpy.ones((2, 3), numpy.float32), r=numpy.ones((3,), numpy.float32))


def test_integer_input_is_invalid():
    with pytest.raises(type_check.InvalidType, match='RReLU'):
        F.rrelu(numpy.ones((2,), numpy.int32), r=numpy.ones((2,), numpy.int32))


@pytest.mark.parametrize(
    'l, u, message',
    [
        (1.5, 0.3, 'lower must be in'),
        (-0.1, 0.2, 'lower must be in'),
        (0.1, 1.0, 'upper must be in'),
        (0.3, 0.2, 'lower must be less'),
    ],
)
def test_bounds_outside_0_1_or_unordered_are_refused(l, u, message):
    # Chainer 7.8.1's RReLU(lower, upper, r) refuses these with ValueError.
    with pytest.raises(ValueError, match=message):
        F.rrelu(numpy.ones((2,), numpy.float32), l, u)


def test_test_mode_returns_the_constant_slopes():
    # Chainer 7.8.1 returns the slopes it used: (l + u) / 2 in test mode,
    # even where r was given.
    x = numpy.array([-1.0, 2.0], numpy.float32)
    given = numpy.full((2,), 0.25, numpy.float32)
    with chainerlite.using_config('train', False):
        y, r = F.rrelu(x, 0.1, 0.3, r=given, return_r=True)
    numpy.testing.assert_array_equal(r, numpy.full((2,), 0.2, numpy.float32))
    assert r.dtype == numpy.float32
    numpy.testing.assert_allclose(y.array, [-0.2, 2.0])


def test_slopes_of_another_dtype_are_invalid():
    with pytest.raises(type_check.InvalidType, match='RReLU'):
        F.rrelu(numpy.ones((2,), numpy.float32), r=numpy.ones((2,), numpy.float64))


def test_node_takes_chainers_arguments():
    node = F.activation.rrelu.RReLU(0.2, 0.4)
    assert (node.lower, node.upper, node.r) == (0.2, 0.4, None)
    (y,) = node.apply((-numpy.ones((50,), numpy.float32),))
    assert node.r.shape == (50,) and node.r.dtype == numpy.float32
    assert ((node.r >= 0.2) & (node.r <= 0.4)).all()
    numpy.testing.assert_array_equal(y.array, -node.r)
