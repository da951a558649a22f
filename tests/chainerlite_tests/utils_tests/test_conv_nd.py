import itertools

import numpy
import pytest

from chainerlite.utils import conv
from chainerlite.utils import conv_nd


def _im2col_reference(img, ksize, stride, pad, dilate, cover_all):
    """Column array by explicit loops over outputs and taps."""
    dims = img.shape[2:]
    outs = [
        conv.get_conv_outsize(d, k, s, p, cover_all, r)
        for d, k, s, p, r in zip(dims, ksize, stride, pad, dilate)
    ]
    col = numpy.zeros(img.shape[:2] + tuple(ksize) + tuple(outs))
    for ys in itertools.product(*[range(o) for o in outs]):
        for taps in itertools.product(*[range(k) for k in ksize]):
            src = [
                y * s - p + t * r
                for y, s, p, t, r in zip(ys, stride, pad, taps, dilate)
            ]
            if all(0 <= i < d for i, d in zip(src, dims)):
                col[(Ellipsis,) + taps + ys] = img[(Ellipsis,) + tuple(src)]
    return col


@pytest.mark.parametrize(
    'dims, ksize, stride, pad, dilate, cover_all',
    [
        ((7,), (3,), (2,), (1,), (1,), False),
        ((5, 4), (2, 3), (1, 2), (0, 1), (2, 1), True),
        ((4, 3, 5), (2, 1, 2), (2, 1, 3), (1, 0, 1), (1, 1, 2), False),
    ],
)
def test_im2col_col2im_nd(dims, ksize, stride, pad, dilate, cover_all):
    img = numpy.random.uniform(-1, 1, (2, 3) + dims)
    col = conv_nd.im2col_nd_cpu(
        img, ksize, stride, pad, cover_all=cover_all, dilate=dilate
    )
    expected = _im2col_reference(img, ksize, stride, pad, dilate, cover_all)
    numpy.testing.assert_array_equal(col, expected)
    # col2im is the transpose of im2col: <im2col(x), c> == <x, col2im(c)>
    c = numpy.random.uniform(-1, 1, col.shape)
    back = conv_nd.col2im_nd_cpu(c, stride, pad, dims, dilate=dilate)
    assert back.shape == img.shape
    numpy.testing.assert_allclose((col * c).sum(), (img * back).sum())


def test_im2col_nd_pads_with_pval():
    img = numpy.ones((1, 1, 2))
    col = conv_nd.im2col_nd_cpu(img, (2,), (1,), (1,), pval=-5)
    numpy.testing.assert_array_equal(col[0, 0], [[-5, 1, 1], [1, 1, -5]])


def test_2d_functions_match_the_nd_ones():
    img = numpy.random.uniform(-1, 1, (2, 3, 5, 6))
    col = conv.im2col_cpu(img, 3, 2, 2, 1, 1, 0, dy=1, dx=2)
    numpy.testing.assert_array_equal(
        col, conv_nd.im2col_nd_cpu(img, (3, 2), (2, 1), (1, 0), dilate=(1, 2))
    )
    numpy.testing.assert_array_equal(
        conv.col2im_cpu(col, 2, 1, 1, 0, 5, 6, dy=1, dx=2),
        conv_nd.col2im_nd_cpu(col, (2, 1), (1, 0), (5, 6), dilate=(1, 2)),
    )


def test_im2col_given_output_size():
    img = numpy.random.uniform(-1, 1, (1, 1, 4, 4))
    col = conv.im2col_cpu(img, 2, 2, 2, 2, 0, 0, out_h=1, out_w=2)
    assert col.shape == (1, 1, 2, 2, 1, 2)
    numpy.testing.assert_array_equal(col[0, 0, :, :, 0, 1], img[0, 0, :2, 2:])


def test_outsizes_invert_each_other():
    for size in range(1, 9):
        out = conv.get_conv_outsize(size, 3, 2, 1, d=2)
        assert (
            conv.get_conv_outsize(
                conv.get_deconv_outsize(out, 3, 2, 1, d=2), 3, 2, 1, d=2
            )
            == out
        )


def test_as_tuple():
    assert conv_nd.as_tuple(2, 3) == (2, 2, 2)
    assert conv_nd.as_tuple([1, 2], 2) == (1, 2)
    with pytest.raises(AssertionError):
        conv_nd.as_tuple((1, 2), 3)


def test_parameter_ranks_must_match_the_image():
    img = numpy.zeros((1, 1, 4, 4))
    with pytest.raises(AssertionError, match='ksize'):
        conv_nd.im2col_nd_cpu(img, (2,), (1, 1), (0, 0))
    with pytest.raises(AssertionError, match='dims'):
        conv_nd.col2im_nd_cpu(numpy.zeros((1, 1, 2, 2, 3, 3)), (1, 1), (0, 0), (4,))


def test_outputs_of_no_length_are_refused():
    # Chainer asserts that every output length is positive
    img = numpy.ones((1, 1, 4, 3), numpy.float32)
    with pytest.raises(AssertionError, match='Height'):
        conv.im2col_cpu(img, 5, 1, 1, 1, 0, 0)
    with pytest.raises(AssertionError, match='Width'):
        conv.im2col_cpu(img, 1, 4, 1, 1, 0, 0)
    with pytest.raises(AssertionError, match='positive'):
        conv_nd.im2col_nd_cpu(img, (1, 4), (1, 1), (0, 0))
    assert conv_nd.im2col_nd_cpu(img, (4, 3), (1, 1), (0, 0)).shape[-2:] == (1, 1)
