import numpy
import pytest

import chainerlite.functions as F
from chainerlite import testing


def _tolerances(test):
    if test.dtype == numpy.float16:
        test.check_backward_options = {
            'dtype': numpy.float64,
            'atol': 5e-3,
            'rtol': 1e-2,
        }
        test.check_double_backward_options = {
            'dtype': numpy.float64,
            'atol': 5e-3,
            'rtol': 1e-2,
        }
    elif test.dtype == numpy.float32:
        test.check_backward_options = {
            'dtype': numpy.float64,
            'atol': 1e-4,
            'rtol': 1e-3,
        }
        test.check_double_backward_options = {
            'dtype': numpy.float64,
            'atol': 1e-4,
            'rtol': 1e-3,
        }


@testing.parameterize(
    *testing.product(
        {
            'shape_reps': [
                ((3,), 2),
                ((2, 3), (2, 1, 2)),
                ((2, 3, 2), (2, 3)),
                ((2,), (0,)),
                ((), (2,)),
                ((2, 3), 1),
                ((2,), ()),
            ],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestTile(testing.FunctionTestCase):
    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        shape, _ = self.shape_reps
        return (numpy.random.uniform(-1, 1, shape).astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        return (F.tile(x, self.shape_reps[1]),)

    def forward_expected(self, inputs):
        (x,) = inputs
        return (numpy.tile(x, self.shape_reps[1]),)


@pytest.mark.parametrize('reps', [1.0, [2], (1, None)])
def test_reps_type(reps):
    with pytest.raises(TypeError, match='tile'):
        F.tile(numpy.zeros(3, numpy.float32), reps)


@pytest.mark.parametrize('reps', [-1, (1, -2)])
def test_negative_reps(reps):
    with pytest.raises(ValueError, match='tile'):
        F.tile(numpy.zeros(3, numpy.float32), reps)
