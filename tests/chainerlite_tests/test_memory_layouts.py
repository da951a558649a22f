"""memory_layouts: shapes and transposition between layouts."""

import numpy
import pytest

from chainerlite import memory_layouts as ml


def test_constants():
    assert ml.CUDNN_CHANNEL_FIRST_X is None
    assert ml.CUDNN_CHANNEL_FIRST_W is None
    assert ml.CUDNN_CHANNEL_LAST_X != ml.CUDNN_CHANNEL_LAST_W


@pytest.mark.parametrize('layout', [ml.CUDNN_CHANNEL_LAST_X, ml.CUDNN_CHANNEL_LAST_W])
def test_channel_last_shapes_and_arrays(layout):
    x = numpy.arange(2 * 3 * 4 * 5).reshape(2, 3, 4, 5)  # (N, C, H, W)
    raw = ml.transpose_array(x, None, layout)
    assert raw.shape == (2, 4, 5, 3) == ml.get_raw_shape(raw)
    numpy.testing.assert_array_equal(raw, numpy.moveaxis(x, 1, -1))
    assert ml.get_semantic_shape(raw, assumed_layout=layout) == x.shape
    assert ml.get_semantic_shape(raw) == raw.shape  # no layout assumed
    numpy.testing.assert_array_equal(ml.transpose_array(raw, layout, None), x)
    numpy.testing.assert_array_equal(ml.transpose_array(raw, layout, layout), raw)


def test_standard_layout_is_the_identity():
    assert ml.get_semantic_shape(numpy.zeros((2, 3)), assumed_layout=None) == (2, 3)
    x = numpy.zeros((2, 3, 4))
    assert ml.transpose_array(x, None, None).shape == (2, 3, 4)


def test_errors():
    with pytest.raises(ValueError, match='unknown memory layout'):
        ml.get_semantic_shape(numpy.zeros((2, 3)), assumed_layout='NHWC')
    with pytest.raises(ValueError, match='2 axes'):
        ml.get_semantic_shape(numpy.zeros(3), assumed_layout=ml.CUDNN_CHANNEL_LAST_X)


def test_shapes_of_variables():
    # Chainer 7.8.1 with no layout set: both shapes are the Variable's
    import chainerlite

    v = chainerlite.Variable(numpy.zeros((2, 3, 4, 5), numpy.float32))
    assert ml.get_raw_shape(v) == ml.get_semantic_shape(v) == (2, 3, 4, 5)
    assert ml.get_semantic_shape(v, assumed_layout=None) == (2, 3, 4, 5)
    with pytest.raises(AssertionError, match='standard layout'):
        ml.get_semantic_shape(v, assumed_layout=ml.CUDNN_CHANNEL_LAST_X)
