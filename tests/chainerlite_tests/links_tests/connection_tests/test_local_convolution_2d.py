import numpy
import pytest

import chainerlite.functions as F
import chainerlite.links as L
from chainerlite import gradient_check


def test_forward_backward_and_shapes():
    link = L.LocalConvolution2D(
        3, 2, in_size=(5, 4), ksize=(3, 2), stride=(2, 1), initial_bias=0.5
    )
    assert link.W.shape == (2, 2, 3, 3, 3, 2) and link.b.shape == (2, 2, 3)
    x = numpy.random.uniform(-1, 1, (2, 3, 5, 4)).astype(numpy.float32)
    y = link(x)
    numpy.testing.assert_allclose(
        y.array, F.local_convolution_2d(x, link.W, link.b, (2, 1)).array
    )
    gradient_check.check_backward(
        link,
        x,
        numpy.random.uniform(-1, 1, y.shape).astype(numpy.float32),
        (link.W, link.b),
        dtype=numpy.float64,
        atol=1e-4,
        rtol=1e-3,
    )


def test_lazy_shapes_from_the_input():
    link = L.LocalConvolution2D(None, 2, ksize=3)
    link(numpy.zeros((1, 3, 4, 5), numpy.float32))
    assert link.W.shape == (2, 2, 3, 3, 3, 3)


@pytest.mark.parametrize('ksize', [None, 1.5])
def test_ksize_not_an_int_is_value_and_type_error(ksize):
    # Chainer 7.8.1 computes with it and fails with a TypeError
    with pytest.raises(ValueError, match='LocalConvolution2D: ksize') as info:
        L.LocalConvolution2D(1, 1, 1, ksize=ksize)
    assert isinstance(info.value, TypeError)


def test_other_keyword_arguments_are_ignored_as_in_chainer():
    link = L.LocalConvolution2D(3, 2, 4, 1, no_such_argument=1)
    assert link.W.shape == (2, 4, 4, 3, 1, 1)
