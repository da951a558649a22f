import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite import testing
from chainerlite.backends import cuda
from chainerlite.testing import attr

SHAPE = (4, 3, 2)


def _index_array(values):
    return numpy.array(values, dtype=numpy.int64)


SLICES = [
    1,
    -1,
    slice(1, 3),
    (slice(None), 0),
    (Ellipsis, 1),
    (None, slice(None, None, -1), 1),
    (1, None, Ellipsis, None),
    [0, 2],
    [3, 3, 0],
    _index_array([[0, 1], [1, 1]]),
    (slice(None), _index_array([2, 0, 2])),
    (_index_array([0, 1, 1]), slice(None), _index_array([1, 0, 1])),
    (_index_array([3, 0]), _index_array([[0], [2]])),
    numpy.array([True, False, True, True]),
    (slice(None), numpy.array([False, True, True])),
]


@pytest.mark.parametrize('slices', SLICES)
def test_forward_backward_double_backward(slices):
    x = numpy.random.uniform(-1, 1, SHAPE)
    y = F.get_item(x, slices)
    index = (slices,) if isinstance(slices, list) else slices
    expected = x[index]
    assert y.shape == expected.shape
    assert isinstance(y.array, numpy.ndarray)
    numpy.testing.assert_array_equal(y.array, expected)
    gy = numpy.random.uniform(-1, 1, expected.shape)
    ggx = numpy.random.uniform(-1, 1, SHAPE)

    def f(x):
        return F.get_item(x, slices)

    gradient_check.check_backward(f, x, gy)
    gradient_check.check_double_backward(f, x, gy, ggx)


def test_repeated_indices_accumulate():
    x = chainerlite.Variable(numpy.zeros(3, numpy.float32))
    y = F.get_item(x, [0, 2, 0, 0])
    y.grad = numpy.array([1, 2, 3, 4], numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [8, 0, 2])


def test_scalar_result_is_array():
    y = F.get_item(numpy.arange(3, dtype=numpy.float32), 1)
    assert isinstance(y.array, numpy.ndarray)
    assert y.shape == ()


def test_variable_getitem():
    x = chainerlite.Variable(numpy.arange(6, dtype=numpy.float32).reshape(2, 3))
    y = x[:, 1]
    numpy.testing.assert_array_equal(y.array, [1, 4])
    y.grad = numpy.ones(2, numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [[0, 1, 0], [0, 1, 0]])


@testing.parameterize(
    *testing.product(
        {
            'slices': [
                (1, slice(None, None, -2)),
                (Ellipsis, [1, 1, 0]),
                (numpy.array([[True, False, True]] * 4),),
                (),
            ],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestGetItemDtypes(testing.FunctionTestCase):
    def setUp(self):
        if self.dtype != numpy.float64:
            options = {'dtype': numpy.float64, 'atol': 5e-3, 'rtol': 1e-2}
            self.check_backward_options = options
            self.check_double_backward_options = options

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, (4, 3)).astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        return (F.get_item(x, _on_device(self.slices, device.xp)),)

    def forward_expected(self, inputs):
        (x,) = inputs
        return (x[self.slices],)


@pytest.mark.parametrize('slices', [(Ellipsis, Ellipsis), [Ellipsis, 0, Ellipsis]])
def test_more_than_one_ellipsis(slices):
    # Chainer 7.8.1 gets NumPy's IndexError; a ValueError too
    with pytest.raises(IndexError, match='get_item') as info:
        F.get_item(numpy.zeros((2, 3), numpy.float32), slices)
    assert isinstance(info.value, ValueError)


def test_out_of_bounds():
    with pytest.raises(IndexError):
        F.get_item(numpy.zeros(3, numpy.float32), 3)


def _on_device(slices, xp):
    if isinstance(slices, numpy.ndarray):
        return xp.asarray(slices)
    if isinstance(slices, tuple):
        return tuple(_on_device(s, xp) for s in slices)
    return slices


@attr.gpu
@pytest.mark.parametrize('slices', SLICES)
def test_gpu_matches_cpu(slices):
    x = numpy.random.uniform(-1, 1, SHAPE)
    x_cpu = chainerlite.Variable(x)
    x_gpu = chainerlite.Variable(cuda.cupy.asarray(x))
    y_cpu = F.get_item(x_cpu, slices)
    y_gpu = F.get_item(x_gpu, _on_device(slices, cuda.cupy))
    numpy.testing.assert_allclose(cuda.to_cpu(y_gpu.array), y_cpu.array)
    gy = numpy.random.uniform(-1, 1, y_cpu.shape)
    y_cpu.grad = gy
    y_gpu.grad = cuda.cupy.asarray(gy)
    y_cpu.backward()
    y_gpu.backward()
    numpy.testing.assert_allclose(cuda.to_cpu(x_gpu.grad), x_cpu.grad)
