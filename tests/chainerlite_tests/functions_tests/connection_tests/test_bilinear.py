import numpy
import pytest

import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


@testing.parameterize(
    *testing.product(
        {
            # e1 shape, e2 shape (J = 4, K = 3 after flattening), L = 2
            'shapes': [((5, 4), (5, 3)), ((5, 2, 2), (5, 3, 1))],
            'nobias': [False, True],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestBilinear(testing.FunctionTestCase):
    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-2, 'rtol': 1e-2}
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
        elif self.dtype == numpy.float32:
            self.check_forward_options = {'atol': 1e-5, 'rtol': 1e-4}
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
        e1_shape, e2_shape = self.shapes
        shapes = [e1_shape, e2_shape, (4, 3, 2)]
        if not self.nobias:
            shapes += [(4, 2), (3, 2), (2,)]
        return tuple(numpy.random.uniform(-1, 1, s).astype(self.dtype) for s in shapes)

    def forward(self, inputs, device):
        return (F.bilinear(*inputs),)

    def forward_expected(self, inputs):
        e1, e2, W = (a.astype(numpy.float64) for a in inputs[:3])
        e1 = e1.reshape(len(e1), -1)
        e2 = e2.reshape(len(e2), -1)
        y = numpy.zeros((len(e1), W.shape[2]))
        for i, j, k in numpy.ndindex(len(e1), *W.shape[:2]):
            y[i] += e1[i, j] * e2[i, k] * W[j, k]
        if not self.nobias:
            V1, V2, b = inputs[3:]
            y += e1.dot(V1) + e2.dot(V2) + b
        return (y.astype(self.dtype),)


@pytest.mark.parametrize('missing', [(3,), (4,), (5,), (3, 5)])
def test_linear_terms_are_all_or_nothing(missing):
    args = [
        numpy.zeros(s, numpy.float32)
        for s in [(2, 4), (2, 3), (4, 3, 2), (4, 2), (3, 2), (2,)]
    ]
    for i in missing:
        args[i] = None
    with pytest.raises(ValueError):
        F.bilinear(*args)


@pytest.mark.parametrize(
    'shapes, dtypes',
    [
        ([(2, 4), (3, 3), (4, 3, 2)], None),
        ([(2, 5), (2, 3), (4, 3, 2)], None),
        ([(2, 4), (2, 3), (4, 3)], None),
        ([(4,), (2, 3), (4, 3, 2)], None),
        ([(2, 4), (2, 3), (4, 3, 2)], [numpy.float32, numpy.float64, numpy.float32]),
        ([(2, 4), (2, 3), (4, 3, 2)], [numpy.int32] * 3),
        ([(2, 4), (2, 3), (4, 3, 2), (4, 3), (3, 2), (2,)], None),
        ([(2, 4), (2, 3), (4, 3, 2), (4, 2), (3, 2), (3,)], None),
    ],
)
def test_invalid_inputs(shapes, dtypes):
    dtypes = dtypes or [numpy.float32] * len(shapes)
    args = [numpy.zeros(s, d) for s, d in zip(shapes, dtypes)]
    with pytest.raises(type_check.InvalidType, match='BilinearFunction'):
        F.bilinear(*args)
