import numpy
import pytest

import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


def _cholesky_banachiewicz(a):
    # Row-by-row Cholesky factorisation in float64.
    n = a.shape[0]
    low = numpy.zeros((n, n))
    for i in range(n):
        for j in range(i + 1):
            s = a[i, j] - low[i, :j] @ low[j, :j]
            low[i, j] = numpy.sqrt(s) if i == j else s / low[j, j]
    return low


@testing.parameterize(
    *testing.product({'dtype': [numpy.float32, numpy.float64], 'n': [1, 4]})
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestCholesky(testing.FunctionTestCase):
    def setUp(self):
        self.check_forward_options = {'atol': 1e-4, 'rtol': 1e-4}
        self.check_backward_options = {'atol': 1e-3, 'rtol': 1e-3, 'eps': 1e-4}
        self.check_double_backward_options = {'atol': 1e-3, 'rtol': 1e-3, 'eps': 1e-4}

    def generate_inputs(self):
        m = numpy.random.uniform(-1, 1, (self.n, self.n))
        a = m @ m.T + self.n * numpy.eye(self.n)
        return (a.astype(self.dtype),)

    def forward(self, inputs, device):
        (a,) = inputs
        # The gradient is defined for symmetric inputs: symmetrise first.
        return (F.cholesky((a + a.T) * 0.5),)

    def forward_expected(self, inputs):
        (a,) = inputs
        a = a.astype(numpy.float64)
        return (_cholesky_banachiewicz((a + a.T) / 2).astype(self.dtype),)


@pytest.mark.parametrize('shape', [(2, 3), (1, 2, 2)])
def test_bad_shape_is_invalid(shape):
    with pytest.raises(type_check.InvalidType, match='cholesky'):
        F.cholesky(numpy.ones(shape, numpy.float32))


def test_not_positive_definite_raises_value_error():
    with pytest.raises(ValueError, match='cholesky'):
        F.cholesky(-numpy.eye(2, dtype=numpy.float32))


def test_0d_input_fails_the_rank_check():
    with pytest.raises(type_check.InvalidType, match='ndim') as info:
        F.cholesky(numpy.zeros((), numpy.float32))
    assert not isinstance(info.value, IndexError)


@pytest.mark.parametrize('shape', [(2, 3), (0, 3)])
def test_matrix_not_square_is_also_linalg_error(shape):
    # Chainer 7.8.1 does not check it; NumPy's factorisation refuses it
    with pytest.raises(type_check.InvalidType, match='cholesky') as info:
        F.cholesky(numpy.ones(shape, numpy.float32))
    assert isinstance(info.value, numpy.linalg.LinAlgError)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32])
def test_not_positive_definite_float16_is_also_type_error(dtype):
    # Chainer 7.8.1 refuses every float16 matrix with NumPy's TypeError
    with pytest.raises(numpy.linalg.LinAlgError, match='positive definite') as info:
        F.cholesky(-numpy.eye(2, dtype=dtype))
    assert isinstance(info.value, TypeError) == (dtype == numpy.float16)
