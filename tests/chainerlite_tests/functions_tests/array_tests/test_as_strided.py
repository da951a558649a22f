import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite.functions.array.as_strided import _stride_array


def _gather(storage, shape, strides, offset):
    # Element by element: y[i] = storage[offset + sum(i_k * s_k)].
    y = numpy.empty(shape, storage.dtype)
    for index in numpy.ndindex(*shape):
        y[index] = storage[offset + sum(i * s for i, s in zip(index, strides))]
    return y


@pytest.mark.parametrize(
    'shape,strides,offset',
    [
        ((4,), (-1,), 3),
        ((2, 3, 4), (0, 4, 1), 0),
        ((3, 3), (-1, 2), 3),
        ((2, 2), (1, 1), 5),
    ],
)
def test_forward_reads_the_storage(shape, strides, offset):
    base = numpy.arange(12, dtype=numpy.float32)
    y = F.as_strided(base, shape, strides, offset)
    numpy.testing.assert_array_equal(y.array, _gather(base, shape, strides, offset))


def test_offset_and_strides_count_from_the_base_array():
    base = numpy.arange(12, dtype=numpy.float32)
    x = base.reshape((3, 4))[::-1]
    numpy.testing.assert_array_equal(F.as_strided(x, (12,), (1,), 0).array, base)
    # Without an offset the view starts at x's first element (base[8]).
    numpy.testing.assert_array_equal(F.as_strided(x, (2,), (1,)).array, [8, 9])


def test_gradient_is_shared_among_elements_viewing_one_location():
    x = _stride_array(numpy.arange(8, dtype=numpy.float64), (3, 3), (-1, 2), 3)
    v = chainerlite.Variable(x)
    y = F.as_strided(v, (3, 3), (1, 2), 0)
    (gx,) = chainerlite.grad((y,), (v,), (numpy.ones((3, 3)),))
    numpy.testing.assert_allclose(
        gx.array, [[0.5, 0.5, 0.0], [2.0, 2.0, 1.0], [1.0, 0.5, 0.5]]
    )


@pytest.mark.parametrize(
    'shape,strides,offset',
    [((3, 2), (1, 2), 0), ((2, 3, 4), (0, 4, 1), 0), ((4,), (-1,), 5)],
)
def test_backward(shape, strides, offset):
    x = numpy.random.uniform(-1, 1, (3, 4))
    gy = numpy.random.uniform(-1, 1, shape)
    ggx = numpy.random.uniform(-1, 1, x.shape)
    f = lambda x: F.as_strided(x, shape, strides, offset)  # NOQA
    gradient_check.check_backward(f, x, gy)
    gradient_check.check_double_backward(f, x, gy, ggx)


@pytest.mark.parametrize('offset', [1, 10])
def test_view_outside_the_storage_raises_value_error(offset):
    with pytest.raises(ValueError, match='as_strided'):
        F.as_strided(numpy.arange(8, dtype=numpy.float32), (3, 3), (-1, 2), offset)


def test_integer_input_has_no_gradient():
    v = chainerlite.Variable(numpy.arange(4, dtype=numpy.int32))
    y = F.as_strided(v, (4,), (-1,), 3)
    with pytest.raises(TypeError, match='as_strided'):
        chainerlite.grad((y,), (v,), (numpy.ones(4, numpy.int32),))
