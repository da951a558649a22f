import numpy
import pytest

import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite import testing
from chainerlite.utils import type_check


def _det_by_expansion(m):
    # Laplace expansion along the first row, in float64.
    if m.shape[0] == 1:
        return m[0, 0]
    total = 0.0
    for j in range(m.shape[0]):
        minor = numpy.delete(numpy.delete(m, 0, axis=0), j, axis=1)
        total += (-1) ** j * m[0, j] * _det_by_expansion(minor)
    return total


@testing.parameterize(
    *testing.product(
        {
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
            'shape_fn': [((1, 1), 'det'), ((3, 3), 'det'), ((4, 2, 2), 'batch_det')],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestDet(testing.FunctionTestCase):
    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 5e-3, 'rtol': 5e-3}
            self.check_backward_options = {
                'dtype': numpy.float64,
                'atol': 5e-3,
                'rtol': 1e-2,
            }
            self.check_double_backward_options = {
                'dtype': numpy.float64,
                'atol': 1e-2,
                'rtol': 1e-2,
            }
        else:
            self.check_backward_options = {'atol': 5e-4, 'rtol': 5e-4}
            self.check_double_backward_options = {'atol': 1e-3, 'rtol': 1e-3}

    def generate_inputs(self):
        shape, _ = self.shape_fn
        x = numpy.eye(shape[-1]) + numpy.random.uniform(-0.3, 0.3, shape)
        return (x.astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        return (getattr(F, self.shape_fn[1])(x),)

    def forward_expected(self, inputs):
        (x,) = inputs
        flat = x.astype(numpy.float64).reshape((-1,) + x.shape[-2:])
        y = numpy.array([_det_by_expansion(m) for m in flat])
        return (y.reshape(x.shape[:-2]).astype(self.dtype),)


def test_det_of_singular_matrix_is_zero_and_has_no_gradient():
    x = numpy.zeros((2, 2), numpy.float32)
    assert float(F.det(x).array) == 0.0
    with pytest.raises(ValueError):
        gradient_check.check_backward(F.det, x, numpy.float32(1))


@pytest.mark.parametrize(
    'fn,shape',
    [
        ('det', (1, 2, 2)),
        ('det', (2, 3)),
        ('batch_det', (2, 2)),
        ('batch_det', (1, 2, 3)),
    ],
)
def test_bad_shape_is_invalid(fn, shape):
    # det reshapes to a batch of one first, as Chainer's does; the node's
    # label is Chainer's, 'det'
    name = 'Reshape' if shape == (1, 2, 2) else 'in: det '
    with pytest.raises(type_check.InvalidType, match=name):
        getattr(F, fn)(numpy.zeros(shape, numpy.float32))


@pytest.mark.parametrize('shape', [(), (3,)])
def test_batch_det_too_few_axes_fail_the_rank_check(shape):
    with pytest.raises(type_check.InvalidType, match='ndim') as info:
        F.batch_det(numpy.zeros(shape, numpy.float32))
    assert not isinstance(info.value, IndexError)
