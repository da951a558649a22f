import numpy
import pytest

import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check

# name: (function, NumPy reference, range of the inputs)
FUNCTIONS = {
    'sin': (F.sin, numpy.sin, (-3, 3)),
    'cos': (F.cos, numpy.cos, (-3, 3)),
    'tan': (F.tan, numpy.tan, (-1, 1)),
    'arcsin': (F.arcsin, numpy.arcsin, (-0.9, 0.9)),
    'arccos': (F.arccos, numpy.arccos, (-0.9, 0.9)),
    'arctan': (F.arctan, numpy.arctan, (-3, 3)),
}


def _tolerances(test):
    if test.dtype == numpy.float16:
        test.check_forward_options = {'atol': 1e-3, 'rtol': 1e-3}
        test.check_backward_options = {
            'dtype': numpy.float64,
            'atol': 5e-3,
            'rtol': 1e-2,
        }
        test.check_double_backward_options = {
            'dtype': numpy.float64,
            'atol': 1e-2,
            'rtol': 5e-2,
        }
    elif test.dtype == numpy.float32:
        test.check_backward_options = {
            'dtype': numpy.float64,
            'atol': 1e-4,
            'rtol': 1e-3,
        }
        test.check_double_backward_options = {
            'dtype': numpy.float64,
            'atol': 1e-3,
            'rtol': 1e-2,
        }


@testing.parameterize(
    *testing.product(
        {
            'name': sorted(FUNCTIONS),
            'shape': [(), (3, 2)],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestUnaryTrigonometric(testing.FunctionTestCase):
    def setUp(self):
        self.function, self.reference, self.bounds = FUNCTIONS[self.name]
        _tolerances(self)

    def generate_inputs(self):
        return (numpy.random.uniform(*self.bounds, self.shape).astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        return (self.function(x),)

    def forward_expected(self, inputs):
        (x,) = inputs
        return (self.reference(x),)


@testing.parameterize(
    *testing.product(
        {
            'shapes': [
                ((), ()),
                ((3, 2), (3, 2)),
                ((3, 2), (2,)),
                ((3, 1), (1, 2)),
                ((), (2,)),
            ],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestArctan2(testing.FunctionTestCase):
    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        # Keep the points away from the origin, where arctan2 is singular,
        # and from the negative x axis, where it jumps from pi to -pi.
        x1_shape, x2_shape = self.shapes
        x1 = numpy.random.uniform(-1, 1, x1_shape)
        x2 = numpy.random.uniform(0.5, 1, x2_shape)
        return x1.astype(self.dtype), x2.astype(self.dtype)

    def forward(self, inputs, device):
        x1, x2 = inputs
        return (F.arctan2(x1, x2),)

    def forward_expected(self, inputs):
        x1, x2 = inputs
        return (numpy.arctan2(x1, x2),)


def test_arctan2_quadrants():
    x1 = numpy.array([1.0, 1.0, -1.0, -1.0])
    x2 = numpy.array([1.0, -1.0, -1.0, 1.0])
    numpy.testing.assert_allclose(
        F.arctan2(x1, x2).array / numpy.pi, [0.25, 0.75, -0.75, -0.25]
    )


@pytest.mark.parametrize('name', sorted(FUNCTIONS))
def test_integer_input_is_invalid(name):
    with pytest.raises(type_check.InvalidType, match=name):
        FUNCTIONS[name][0](numpy.arange(3, dtype=numpy.int32))


@pytest.mark.parametrize(
    'x1, x2',
    [
        (numpy.zeros(3, numpy.int32), numpy.ones(3, numpy.int32)),
        (numpy.zeros(3, numpy.float32), numpy.ones(3, numpy.int32)),
        (numpy.zeros(3, numpy.float32), numpy.ones(2, numpy.float32)),
    ],
)
def test_arctan2_invalid_inputs(x1, x2):
    # shapes that do not broadcast: Chainer's message lists them
    with pytest.raises(type_check.InvalidType, match='arctan2|cannot broadcast'):
        F.arctan2(x1, x2)
