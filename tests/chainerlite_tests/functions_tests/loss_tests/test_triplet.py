import numpy
import pytest

import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


@testing.parameterize(
    *testing.product(
        {
            'reduce': ['mean', 'no'],
            'margin': [0.2, 1],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
            # axes after the second hold more triplets of each sample
            'shape': [(5, 3), (4, 3, 2)],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestTriplet(testing.FunctionTestCase):
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

    def _hinge_argument(self, a, p, n):
        return ((a - p) ** 2).sum(axis=1) - ((a - n) ** 2).sum(axis=1) + self.margin

    def generate_inputs(self):
        # Redraw until no triplet sits near the kink of the hinge.
        while True:
            a, p, n = (
                numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
                for _ in range(3)
            )
            dist = self._hinge_argument(*(v.astype(numpy.float64) for v in (a, p, n)))
            if (abs(dist) > 0.1).all():
                return a, p, n

    def forward(self, inputs, device):
        return (F.triplet(*inputs, margin=self.margin, reduce=self.reduce),)

    def forward_expected(self, inputs):
        dist = self._hinge_argument(*(v.astype(numpy.float64) for v in inputs))
        loss = numpy.maximum(dist, 0)
        if self.reduce == 'mean':
            loss = loss.sum() / len(loss)
        return (numpy.asarray(loss, self.dtype),)


@pytest.mark.parametrize(
    'margin, reduce, match',
    [(0, 'mean', 'margin should be positive'), (0.2, 'sum', "'mean' and 'no'")],
)
def test_invalid_options(margin, reduce, match):
    x = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(ValueError, match=match):
        F.triplet(x, x, x, margin, reduce)


@pytest.mark.parametrize(
    'a, p, n',
    [
        (
            numpy.zeros((2, 3), numpy.float32),
            numpy.zeros((2, 3), numpy.float64),
            numpy.zeros((2, 3), numpy.float32),
        ),
        (
            numpy.zeros((2, 3), numpy.float32),
            numpy.zeros((2, 3), numpy.float32),
            numpy.zeros((2, 2), numpy.float32),
        ),
        (
            numpy.zeros((2, 3), numpy.int32),
            numpy.zeros((2, 3), numpy.int32),
            numpy.zeros((2, 3), numpy.int32),
        ),
        (
            numpy.zeros(3, numpy.float32),
            numpy.zeros(3, numpy.float32),
            numpy.zeros(3, numpy.float32),
        ),
    ],
)
def test_invalid_inputs(a, p, n):
    with pytest.raises(type_check.InvalidType, match='Triplet'):
        F.triplet(a, p, n)


@pytest.mark.parametrize(
    'shape, error',
    [
        ((), IndexError),  # Chainer 7.8.1 reads anchor.shape[0]
        ((3,), numpy.exceptions.AxisError),  # and sums over axis 1
        ((0, 3), type_check.InvalidType),  # no triplet
    ],
)
def test_anchor_without_triplets_raises_chainers_type(shape, error):
    x = numpy.zeros(shape, numpy.float32)
    with pytest.raises(error) as info:
        F.triplet(x, x, x)
    assert isinstance(info.value, type_check.InvalidType)
    assert 'Triplet' in str(info.value)
