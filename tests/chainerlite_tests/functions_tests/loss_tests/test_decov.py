import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


@testing.parameterize(
    *testing.product(
        {
            'reduce': ['half_squared_sum', 'no'],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestDeCov(testing.FunctionTestCase):
    def setUp(self):
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
        return (numpy.random.uniform(-1, 1, (5, 3)).astype(self.dtype),)

    def forward(self, inputs, device):
        (h,) = inputs
        return (F.decov(h, reduce=self.reduce),)

    def forward_expected(self, inputs):
        h = inputs[0].astype(numpy.float64)
        centered = h - h.mean(axis=0)
        cov = centered.T.dot(centered) / len(h)
        numpy.fill_diagonal(cov, 0)
        if self.reduce == 'half_squared_sum':
            cov = 0.5 * (cov**2).sum()
        return (numpy.asarray(cov, self.dtype),)


def test_invalid_reduce():
    with pytest.raises(ValueError, match="'half_squared_sum' and 'no'"):
        F.decov(numpy.zeros((2, 3), numpy.float32), reduce='sum')


@pytest.mark.parametrize(
    'h',
    [
        numpy.zeros((2, 3), numpy.int32),
        numpy.zeros(3, numpy.float32),
        numpy.zeros((2, 3, 1), numpy.float32),
    ],
)
def test_invalid_inputs(h):
    with pytest.raises(type_check.InvalidType, match='DeCov'):
        F.decov(h)


@pytest.mark.parametrize('reduce', ['half_squared_sum', 'no'])
def test_empty_batch_gives_nan_and_an_empty_gradient(reduce):
    # As Chainer 7.8.1 (found by the differential harness, tools/diff_chainer).
    h = chainerlite.Variable(numpy.zeros((0, 3)))
    with numpy.errstate(all='ignore'):
        y = F.decov(h, reduce)
        (gh,) = chainerlite.grad(
            [y], [h], [chainerlite.Variable(numpy.ones_like(y.array))]
        )
    assert numpy.isnan(y.array).all()
    assert gh.shape == (0, 3) and gh.dtype == numpy.float64
