import numpy
import pytest

import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


@testing.parameterize(
    *testing.product(
        {
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
            'shape_fn': [((1, 1), 'inv'), ((4, 4), 'inv'), ((3, 4, 4), 'batch_inv')],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestInv(testing.FunctionTestCase):
    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-3, 'rtol': 1e-3}
            self.check_backward_options = {
                'dtype': numpy.float64,
                'atol': 5e-3,
                'rtol': 5e-3,
            }
            self.check_double_backward_options = {
                'dtype': numpy.float64,
                'atol': 5e-3,
                'rtol': 5e-3,
            }
        else:
            self.check_backward_options = {'atol': 5e-4, 'rtol': 5e-4}
            self.check_double_backward_options = {'atol': 5e-4, 'rtol': 5e-4}

    def generate_inputs(self):
        shape, _ = self.shape_fn
        x = numpy.eye(shape[-1]) + numpy.random.uniform(-0.1, 0.1, shape)
        return (x.astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        return (getattr(F, self.shape_fn[1])(x),)

    def forward_expected(self, inputs):
        (x,) = inputs
        x = x.astype(numpy.float64)
        # Cofactor-free reference: solve A Y = I for each matrix.
        flat = x.reshape((-1,) + x.shape[-2:])
        eye = numpy.eye(x.shape[-1])
        y = numpy.stack([numpy.linalg.solve(m, eye) for m in flat])
        return (y.reshape(x.shape).astype(self.dtype),)


@pytest.mark.parametrize(
    'fn,shape',
    [
        ('inv', (1, 2, 2)),
        ('inv', (2, 3)),
        ('batch_inv', (2, 2)),
        ('batch_inv', (1, 2, 3)),
    ],
)
def test_bad_shape_is_invalid(fn, shape):
    name = 'BatchInv' if fn == 'batch_inv' else 'Inv'
    with pytest.raises(type_check.InvalidType, match=name):
        getattr(F, fn)(numpy.zeros(shape, numpy.float32))


def test_integer_input_is_invalid():
    with pytest.raises(type_check.InvalidType, match='Inv'):
        F.inv(numpy.eye(2, dtype=numpy.int32))


@pytest.mark.parametrize('fn,shape', [('inv', (2, 2)), ('batch_inv', (2, 2, 2))])
def test_singular_matrix_raises_value_error(fn, shape):
    with pytest.raises(ValueError, match=fn + ': the input matrix is singular'):
        getattr(F, fn)(numpy.zeros(shape, numpy.float32))


@pytest.mark.parametrize(
    'func, shape',
    [(F.inv, ()), (F.inv, (3,)), (F.batch_inv, ()), (F.batch_inv, (2, 2))],
)
def test_too_few_axes_fail_the_rank_check(func, shape):
    # the rank is checked before the last two axes are read: InvalidType
    # (as in Chainer 7.8.1), not an IndexError from the shape
    with pytest.raises(type_check.InvalidType, match='ndim') as info:
        func(numpy.zeros(shape, numpy.float32))
    assert not isinstance(info.value, IndexError)
