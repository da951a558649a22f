import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


@testing.parameterize(
    *testing.product(
        {
            'reduce': ['mean', 'no'],
            'margin': [1, 2.5],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestContrastive(testing.FunctionTestCase):
    shape = (5, 3)

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
        # Distances on both sides of the margin, away from it and from 0.
        x0 = numpy.random.uniform(-1, 1, self.shape)
        direction = numpy.random.normal(size=self.shape)
        direction /= numpy.linalg.norm(direction, axis=1, keepdims=True)
        dist = self.margin * numpy.array([0.3, 1.4, 0.6, 1.8, 0.8])
        x1 = x0 + direction * dist[:, None]
        y = numpy.array([0, 0, 1, 1, 0], numpy.int32)
        return x0.astype(self.dtype), x1.astype(self.dtype), y

    def forward(self, inputs, device):
        x0, x1, y = inputs
        return (F.contrastive(x0, x1, y, self.margin, self.reduce),)

    def forward_expected(self, inputs):
        x0, x1, y = inputs
        d = numpy.linalg.norm(x0.astype(numpy.float64) - x1, axis=1)
        loss = y * d**2 + (1 - y) * numpy.maximum(self.margin - d, 0) ** 2
        loss /= 2
        if self.reduce == 'mean':
            loss = loss.mean()
        return (numpy.asarray(loss, self.dtype),)


def test_gradient_is_finite_at_zero_distance():
    x0 = chainerlite.Variable(numpy.ones((2, 3), numpy.float32))
    x1 = chainerlite.Variable(numpy.ones((2, 3), numpy.float32))
    y = numpy.array([1, 0], numpy.int32)
    F.contrastive(x0, x1, y).backward()
    numpy.testing.assert_array_equal(x0.grad, numpy.zeros((2, 3)))
    numpy.testing.assert_array_equal(x1.grad, numpy.zeros((2, 3)))


@pytest.mark.parametrize(
    'margin, reduce, match',
    [
        (0, 'mean', 'margin should be positive'),
        (-1, 'mean', 'margin should be positive'),
        (1, 'sum', "'mean' and 'no'"),
    ],
)
def test_invalid_options(margin, reduce, match):
    x = numpy.zeros((2, 3), numpy.float32)
    y = numpy.zeros(2, numpy.int32)
    with pytest.raises(ValueError, match=match):
        F.contrastive(x, x, y, margin, reduce)


@pytest.mark.parametrize(
    'x0, x1, y',
    [
        (
            numpy.zeros((2, 3), numpy.float32),
            numpy.zeros((2, 3), numpy.float64),
            numpy.zeros(2, numpy.int32),
        ),
        (
            numpy.zeros((2, 3), numpy.float32),
            numpy.zeros((2, 4), numpy.float32),
            numpy.zeros(2, numpy.int32),
        ),
        (
            numpy.zeros((2, 3), numpy.float32),
            numpy.zeros((2, 3), numpy.float32),
            numpy.zeros(3, numpy.int32),
        ),
        (
            numpy.zeros((2, 3), numpy.float32),
            numpy.zeros((2, 3), numpy.float32),
            numpy.zeros(2, numpy.float32),
        ),
        (
            numpy.zeros(3, numpy.float32),
            numpy.zeros(3, numpy.float32),
            numpy.zeros(3, numpy.int32),
        ),
        (
            numpy.zeros((0, 3), numpy.float32),
            numpy.zeros((0, 3), numpy.float32),
            numpy.zeros(0, numpy.int32),
        ),
    ],
)
def test_invalid_inputs(x0, x1, y):
    with pytest.raises(type_check.InvalidType, match='Contrastive'):
        F.contrastive(x0, x1, y)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_gradients_at_special_pairs_follow_chainer():
    x0 = chainerlite.Variable(
        numpy.array(
            [[0.0, 0.0], [1.0, 1.0], [0.0, 0.0], [numpy.inf, 0.0], [numpy.nan, 0.0]],
            numpy.float32,
        )
    )
    x1 = numpy.array([[0, 0], [1, 1], [1, 0], [0, 0], [0, 0]], numpy.float32)
    y = numpy.array([1, 0, 0, 1, 0], numpy.int32)
    gy = numpy.array([1.0, 1.0, 2.0, 1.0, 1.0], numpy.float32)
    loss = F.contrastive(x0, x1, y, margin=1, reduce='no')
    (gx,) = chainerlite.grad([loss], [x0], [gy], enable_double_backprop=True)
    # an infinite difference in a similar pair gives NaN (the push term
    # is computed too: inf / inf); zero distances give 0
    numpy.testing.assert_array_equal(
        gx.array, [[0, 0], [0, 0], [0, 0], [numpy.nan, 0], [numpy.nan, numpy.nan]]
    )
    # the dissimilar pair at distance == margin: the push takes the slope
    # of margin - dist there, so its second order is not 0
    w = numpy.ones((5, 2), numpy.float32)
    (ggx,) = chainerlite.grad([F.sum(gx * w)], [x0])
    numpy.testing.assert_allclose(ggx.array[2], [2.0, 0.0])
