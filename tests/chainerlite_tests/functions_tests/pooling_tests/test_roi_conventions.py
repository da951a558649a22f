"""What the ROI functions give at NaN, infinities, ties, empty bins, box
corners on half pixels and out-of-range image indices (Chainer 7.8.1's
conventions, values checked against it)."""

import numpy
import pytest

import chainerlite
import chainerlite.functions as F

nan, inf = numpy.nan, numpy.inf
ONE_IMAGE = numpy.array([0], numpy.int32)


def _ramp_with_nan_corner():
    x = numpy.arange(16, dtype=numpy.float32).reshape(1, 1, 4, 4)
    x[0, 0, 0, 0] = nan
    return x


def _boxes(*rows):
    return numpy.array(rows, numpy.float32)


@pytest.mark.parametrize(
    'name', ['roi_max_pooling_2d', 'roi_average_pooling_2d', 'roi_max_align_2d']
)
def test_nan_pixel_stays_out_of_boxes_that_do_not_read_it(name):
    y = getattr(F, name)(
        _ramp_with_nan_corner(), _boxes([2, 2, 4, 4]), ONE_IMAGE, 2, 1.0
    ).array
    assert not numpy.isnan(y).any()


def test_max_pooling_takes_the_first_nan_of_a_bin():
    y = F.roi_max_pooling_2d(
        _ramp_with_nan_corner(), _boxes([0, 0, 4, 4]), ONE_IMAGE, 2, 1.0
    )
    numpy.testing.assert_array_equal(y.array.ravel(), [nan, 7, 13, 15])


def test_empty_bin_is_minus_infinity_for_max_pooling_and_zero_for_roi_pooling():
    x = numpy.ones((1, 1, 4, 4), numpy.float32)
    v = chainerlite.Variable(x)
    y = F.roi_max_pooling_2d(v, _boxes([0, 5, 2, 7]), ONE_IMAGE, 2, 1.0)
    numpy.testing.assert_array_equal(y.array.ravel(), [-inf] * 4)
    (gx,) = chainerlite.grad([y], [v], [numpy.ones(y.shape, numpy.float32)])
    numpy.testing.assert_array_equal(gx.array, 0)
    y = F.roi_pooling_2d(x, _boxes([0, 5, 0, 7, 2]), 2, 2, 1.0)
    numpy.testing.assert_array_equal(y.array.ravel(), [0] * 4)


def test_box_corners_round_half_to_even():
    # [0.5, 2.5] -> pixels [0, 2), [1.5, 3.5] -> [2, 4)
    x = numpy.arange(16, dtype=numpy.float32).reshape(1, 1, 4, 4)
    y = F.roi_average_pooling_2d(
        x,
        _boxes([0.5, 0.5, 2.5, 2.5], [1.5, 1.5, 3.5, 3.5]),
        numpy.array([0, 0], numpy.int32),
        1,
        1.0,
    )
    numpy.testing.assert_array_equal(y.array.ravel(), [2.5, 12.5])


def test_tied_maximum_gives_its_gradient_to_the_first_pixel():
    x = chainerlite.Variable(numpy.ones((1, 1, 2, 2), numpy.float32))
    y = F.roi_max_pooling_2d(x, _boxes([0, 0, 2, 2]), ONE_IMAGE, 1, 1.0)
    (gx,) = chainerlite.grad([y], [x])
    numpy.testing.assert_array_equal(gx.array.ravel(), [1, 0, 0, 0])


def test_max_align_never_chooses_a_nan_or_minus_infinity_sample():
    x = chainerlite.Variable(
        numpy.array([nan, -inf, 1, 2], numpy.float32).reshape(1, 1, 2, 2)
    )
    y = F.roi_max_align_2d(x, _boxes([0, 0, 2, 2]), ONE_IMAGE, 1, 1.0, 2)
    (gx,) = chainerlite.grad([y], [x])
    numpy.testing.assert_array_equal(y.array.ravel(), [2])
    numpy.testing.assert_array_equal(gx.array.ravel(), [0, 0, 0, 1])
    # nothing to choose: -inf, and no gradient
    x = chainerlite.Variable(numpy.full((1, 1, 2, 2), nan, numpy.float32))
    y = F.roi_max_align_2d(x, _boxes([0, 0, 2, 2]), ONE_IMAGE, 1, 1.0, 2)
    (gx,) = chainerlite.grad([y], [x])
    numpy.testing.assert_array_equal(y.array.ravel(), [-inf])
    numpy.testing.assert_array_equal(gx.array, 0)


def test_align_sample_on_a_pixel_skips_its_neighbours():
    x = numpy.array([1, nan, 3, 4], numpy.float32).reshape(1, 1, 2, 2)
    y = F.roi_average_align_2d(x, _boxes([-0.5, -0.5, 0.5, 0.5]), ONE_IMAGE, 1, 1.0, 1)
    numpy.testing.assert_array_equal(y.array.ravel(), [1])


def test_negative_image_index_counts_from_the_end():
    x = numpy.arange(32, dtype=numpy.float32).reshape(2, 1, 4, 4)
    y = F.roi_max_pooling_2d(
        x, _boxes([2, 2, 4, 4]), numpy.array([-1], numpy.int32), 1, 1.0
    )
    numpy.testing.assert_array_equal(y.array.ravel(), [31])


def test_image_index_out_of_range_raises_index_error():
    x = numpy.zeros((1, 1, 4, 4), numpy.float32)
    with pytest.raises(IndexError, match='roi_max_pooling_2d'):
        F.roi_max_pooling_2d(
            x, _boxes([0, 0, 2, 2]), numpy.array([1], numpy.int32), 1, 1.0
        )
    with pytest.raises(IndexError, match='roi_pooling_2d'):
        F.roi_pooling_2d(x, _boxes([1, 0, 0, 2, 2]), 1, 1, 1.0)


@pytest.mark.parametrize('value, error', [(nan, ValueError), (inf, OverflowError)])
def test_non_finite_box_corner_raises_as_int_does(value, error):
    x = numpy.zeros((1, 1, 4, 4), numpy.float32)
    with pytest.raises(error, match='roi_max_pooling_2d'):
        F.roi_max_pooling_2d(x, _boxes([value, 0, 1, 1]), ONE_IMAGE, 1, 1.0)
    with pytest.raises(error, match='roi_pooling_2d'):
        F.roi_pooling_2d(x, _boxes([0, 0, value, 1, 1]), 1, 1, 1.0)


def test_roi_pooling_gradient_of_a_malformed_box_goes_to_its_pixels():
    # x_max < x_min: the box pools the column at x_min; that column gets the
    # gradient (Chainer gives none, see docs/differences.rst)
    x = chainerlite.Variable(numpy.arange(16, dtype=numpy.float32).reshape(1, 1, 4, 4))
    y = F.roi_pooling_2d(x, _boxes([0, 2, 0, 1, 1]), 1, 1, 1.0)
    (gx,) = chainerlite.grad([y], [x])
    assert y.array.ravel()[0] == 6
    expected = numpy.zeros((4, 4), numpy.float32)
    expected[1, 2] = 1
    numpy.testing.assert_array_equal(gx.array[0, 0], expected)


@pytest.mark.parametrize(
    'name', ['roi_max_pooling_2d', 'roi_average_pooling_2d', 'roi_max_align_2d']
)
@pytest.mark.parametrize(
    'outsize, scale', [(0, 1.0), ((2, 0), 1.0), (2.0, 1.0), (2, 0.0), (2, -1.0)]
)
def test_bad_outsize_or_scale_is_a_type_error(name, outsize, scale):
    # as Chainer's checks: a non-positive or non-int outsize, a scale <= 0
    x = numpy.zeros((1, 1, 4, 4), numpy.float32)
    with pytest.raises(TypeError, match=name):
        getattr(F, name)(x, _boxes([0, 0, 2, 2]), ONE_IMAGE, outsize, scale)


def test_bad_sampling_ratio_is_also_a_type_error():
    x = numpy.zeros((1, 1, 4, 4), numpy.float32)
    for ratio in (0, 2.0, (1, -1)):
        with pytest.raises(TypeError, match='roi_max_align_2d: sampling_ratio'):
            F.roi_max_align_2d(x, _boxes([0, 0, 2, 2]), ONE_IMAGE, 2, 1.0, ratio)


def test_roi_pooling_output_lengths_and_any_real_scale():
    x = numpy.arange(16, dtype=numpy.float32).reshape(1, 1, 4, 4)
    box = _boxes([0, 0, 0, 3, 3])
    with pytest.raises(ZeroDivisionError, match='roi_pooling_2d: outh'):
        F.roi_pooling_2d(x, box, 0, 2, 1.0)
    with pytest.raises(TypeError, match='roi_pooling_2d: outw'):
        F.roi_pooling_2d(x, box, 2, 2.0, 1.0)
    # Chainer does not check the scale: 0 puts the box on pixel 0
    y = F.roi_pooling_2d(x, box, 1, 1, 0.0)
    numpy.testing.assert_array_equal(y.array.ravel(), [0])


@pytest.mark.parametrize('value, error', [(nan, ValueError), (inf, OverflowError)])
def test_align_with_a_non_finite_box_corner_raises(value, error):
    x = numpy.zeros((1, 1, 4, 4), numpy.float32)
    with pytest.raises(error, match='roi_average_align_2d'):
        F.roi_average_align_2d(x, _boxes([0, 0, value, 1]), ONE_IMAGE, 1, 1.0)
