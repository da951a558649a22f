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
