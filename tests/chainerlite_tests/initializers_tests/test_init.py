import numpy
import pytest

import chainerlite
from chainerlite import initializers
from chainerlite.backends import cuda
from chainerlite.testing import attr


def test_get_initializer_none_is_lecun_normal():
    assert isinstance(initializers._get_initializer(None), initializers.LeCunNormal)


@pytest.mark.parametrize('value', [2, 2.5, numpy.float32(1.5)])
def test_get_initializer_scalar_is_constant(value):
    initializer = initializers._get_initializer(value)
    assert isinstance(initializer, initializers.Constant)
    assert initializer.fill_value == value


def test_get_initializer_array_is_constant():
    value = numpy.arange(3, dtype=numpy.float32)
    initializer = initializers._get_initializer(value)
    assert isinstance(initializer, initializers.Constant)
    assert initializer.fill_value is value


def test_get_initializer_keeps_callables():
    one = initializers.One()
    assert initializers._get_initializer(one) is one

    def fill(array):
        array[...] = 7

    assert initializers._get_initializer(fill) is fill


def test_get_initializer_rejects_others():
    with pytest.raises(TypeError):
        initializers._get_initializer(object())
    with pytest.raises(TypeError):
        initializers._get_initializer(chainerlite.Variable(numpy.zeros(2)))


def test_generate_array_dtypes():
    array = initializers.generate_array(initializers.One(), (2, 3), numpy)
    assert array.dtype == numpy.float32
    numpy.testing.assert_array_equal(array, numpy.ones((2, 3)))
    array = initializers.generate_array(initializers.One(numpy.float16), 4, numpy)
    assert array.dtype == numpy.float16
    array = initializers.generate_array(
        initializers.Zero(), (2,), numpy, dtype=numpy.float64
    )
    assert array.dtype == numpy.float64


def test_generate_array_dtype_mismatch():
    with pytest.raises(ValueError, match='dtype mismatch'):
        initializers.generate_array(
            initializers.One(numpy.float16), 2, numpy, dtype=numpy.float32
        )


def test_generate_array_with_cpu_device():
    array = initializers.generate_array(
        initializers.One(), (2,), numpy, device='@numpy'
    )
    assert isinstance(array, numpy.ndarray)


@attr.gpu
@pytest.mark.parametrize(
    'initializer',
    [
        initializers.Constant(numpy.array([1, 2, 3])),
        initializers.Normal(),
        initializers.LeCunNormal(),
        initializers.Uniform(),
        initializers.HeNormal(),
        initializers.GlorotUniform(),
        initializers.Orthogonal(),
    ],
)
def test_generate_array_on_gpu(initializer):
    array = initializers.generate_array(
        initializer, (2, 3), cuda.cupy, device='@cupy:0'
    )
    assert isinstance(array, cuda.cupy.ndarray)
    assert array.device.id == 0
    assert bool(cuda.cupy.isfinite(array).all())


@pytest.mark.parametrize(
    'value, ok',
    [
        (None, True),
        (1, True),
        (numpy.float32(2), True),
        (numpy.zeros(1), True),
        (initializers.Zero(), True),
        (lambda a: None, True),
        ('x', True),  # a scalar to NumPy, as Chainer 7.8.1 lets it through
        ([1, 2], False),
        ((1,), False),
    ],
)
def test_check_is_initializer_like(value, ok):
    if ok:
        initializers._check_is_initializer_like(value)
    else:
        with pytest.raises(TypeError, match='Initializer is of wrong type'):
            initializers._check_is_initializer_like(value)
