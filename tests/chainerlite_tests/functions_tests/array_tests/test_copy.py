import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import testing
from chainerlite.backends import cuda
from chainerlite.testing import attr


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
        {'shape': [(), (3, 2)], 'dtype': [numpy.float16, numpy.float32, numpy.float64]}
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestCopyToSameDevice(testing.FunctionTestCase):
    def setUp(self):
        _tolerances(self)

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        return (F.copy(x, device),)

    def forward_expected(self, inputs):
        (x,) = inputs
        return (x.copy(),)


@pytest.mark.parametrize('dst', [-1, '@numpy', cuda.DummyDevice])
def test_host_specifiers(dst):
    x = chainerlite.Variable(numpy.arange(3, dtype=numpy.float32))
    y = F.copy(x, dst)
    assert isinstance(y.array, numpy.ndarray)
    numpy.testing.assert_array_equal(y.array, x.array)
    F.sum(y).backward()
    numpy.testing.assert_array_equal(x.grad, [1, 1, 1])


def test_invalid_specifier():
    with pytest.raises(ValueError, match='copy'):
        F.copy(numpy.zeros(3, numpy.float32), '@nowhere')
    with pytest.raises(TypeError, match='device specifier'):
        F.copy(numpy.zeros(3, numpy.float32), numpy)  # a module is none


@attr.gpu
@pytest.mark.parametrize('dst', [0, '@cupy:0'])
def test_host_to_gpu_and_back(dst):
    x = chainerlite.Variable(numpy.arange(3, dtype=numpy.float32))
    y = F.copy(x, dst)
    assert isinstance(y.array, cuda.cupy.ndarray)
    z = F.copy(y * 2, -1)
    assert isinstance(z.array, numpy.ndarray)
    numpy.testing.assert_array_equal(z.array, [0, 2, 4])
    F.sum(z).backward()
    assert isinstance(x.grad, numpy.ndarray)
    numpy.testing.assert_array_equal(x.grad, [2, 2, 2])


@attr.gpu
def test_gpu_to_host_double_backward():
    x = chainerlite.Variable(cuda.cupy.arange(3, dtype=cuda.cupy.float32))
    y = F.copy(x, '@numpy') ** 2
    (gx,) = chainerlite.grad([F.sum(y)], [x], enable_double_backprop=True)
    assert isinstance(gx.array, cuda.cupy.ndarray)
    F.sum(gx).backward()
    numpy.testing.assert_array_equal(cuda.to_cpu(x.grad), [2, 2, 2])
