import numpy
import pytest

from chainerlite import initializers


def test_upsampling_filter_values():
    for size, line in ((3, [0.5, 1.0, 0.5]), (4, [0.25, 0.75, 0.75, 0.25])):
        w = numpy.empty((2, 2, size, size), numpy.float32)
        initializers.UpsamplingDeconvFilter()(w)
        expected = numpy.outer(line, line)
        for o in range(2):
            numpy.testing.assert_allclose(w[o, o], expected)
            numpy.testing.assert_array_equal(w[o, 1 - o], 0)


@pytest.mark.parametrize('shape', [(3, 1, 4, 4), (2, 2, 5)])
@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float64])
def test_downsampling_filter_is_normalized(shape, dtype):
    w = numpy.empty(shape, dtype)
    initializers.DownsamplingConvFilter(dtype=dtype)(w)
    assert w.dtype == dtype
    numpy.testing.assert_allclose(w.reshape(shape[0], -1).sum(axis=1), 1, rtol=1e-3)


def test_upsampling_sums_to_stride_product():
    w = initializers.generate_array(
        initializers.UpsamplingDeconvFilter(), (1, 1, 6, 6), numpy
    )
    assert w.sum() == pytest.approx(9.0)


@pytest.mark.parametrize('shape', [(2, 3, 3, 3), (2, 2)])
def test_bad_shapes(shape):
    with pytest.raises(ValueError, match='UpsamplingDeconvFilter'):
        initializers.UpsamplingDeconvFilter()(numpy.empty(shape))


def test_bad_interpolation():
    with pytest.raises(ValueError, match='DownsamplingConvFilter'):
        initializers.DownsamplingConvFilter(interpolation='cubic')


@pytest.mark.parametrize(
    'init', [initializers.UpsamplingDeconvFilter, initializers.DownsamplingConvFilter]
)
@pytest.mark.parametrize(
    'shape, also',
    [
        ((3,), ValueError),  # Chainer 7.8.1 unpacks two channel axes
        ((2, 3, 2), AssertionError),  # and asserts that they fit
        ((2, 3), AssertionError),
        ((2, 2), TypeError),  # then fails on no kernel axis
    ],
)
def test_bad_shapes_raise_chainers_type_too(init, shape, also):
    with pytest.raises(ValueError, match=init.__name__) as info:
        init()(numpy.zeros(shape, numpy.float32))
    assert isinstance(info.value, also)


@pytest.mark.parametrize(
    'init', [initializers.UpsamplingDeconvFilter, initializers.DownsamplingConvFilter]
)
@pytest.mark.parametrize('shape', [(2, 2, 3, 4), (1, 1, 2, 2, 3)])
def test_kernel_axes_of_different_sizes(init, shape):
    # Chainer's filters are of one size on every axis
    with pytest.raises(ValueError, match='one size on every axis'):
        init()(numpy.zeros(shape, numpy.float32))
