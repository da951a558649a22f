"""The nodes of the 2-D window functions carry their arguments under
Chainer's attribute names, as code walking a graph reads them."""

import numpy
import pytest

import chainerlite
import chainerlite.functions as F

X = chainerlite.Variable(numpy.ones((1, 2, 6, 7), numpy.float32))


def _node(y):
    return y.creator_node


def test_convolution_2d_node():
    w = numpy.ones((4, 1, 3, 2), numpy.float32)
    y = F.convolution_2d(X, w, stride=(2, 3), pad=(1, 0), dilate=(1, 2), groups=2)
    node = _node(y)
    assert (node.sy, node.sx, node.ph, node.pw, node.dy, node.dx) == (2, 3, 1, 0, 1, 2)
    assert node.groups == 2 and node.cover_all is False
    assert node.stride == (2, 3) and node.pad == (1, 0) and node.dilate == (1, 2)


def test_deconvolution_2d_and_n_d_nodes():
    w = numpy.ones((2, 3, 3, 3), numpy.float32)
    node = _node(F.deconvolution_2d(X, w, stride=2, pad=1))
    assert (node.sy, node.sx, node.ph, node.pw, node.dy, node.dx) == (2, 2, 1, 1, 1, 1)
    assert node.groups == 1
    node = _node(F.convolution_nd(X, w.transpose(1, 0, 2, 3), cover_all=True))
    assert node.stride == (1, 1) and node.pad == (0, 0) and node.dilate == (1, 1)
    assert node.cover_all is True and node.groups == 1


def test_pooling_nodes():
    node = _node(F.average_pooling_2d(X, (2, 3), stride=(1, 2), pad=(1, 0)))
    assert (node.kh, node.kw, node.sy, node.sx, node.ph, node.pw) == (2, 3, 1, 2, 1, 0)
    node = _node(F.unpooling_2d(X, 2))
    assert (node.kh, node.kw, node.sy, node.sx, node.ph, node.pw) == (2, 2, 2, 2, 0, 0)
    rois = numpy.array([[0, 0, 0, 3, 3]], numpy.float32)
    node = _node(F.roi_pooling_2d(X, rois, 2, 3, 1.0))
    assert (node.outh, node.outw) == (2, 3)


def test_output_sizes_under_chainer_names():
    # None until a forward fills in a size not given, then the size used
    w = numpy.ones((2, 3, 3, 3), numpy.float32)
    node = F.connection.deconvolution_2d.Deconvolution2DFunction(stride=2)
    assert (node.outh, node.outw) == (None, None)
    y = node.apply((X, w))[0]
    assert (node.outh, node.outw) == y.shape[2:] == (13, 15)
    node = _node(F.deconvolution_2d(X, w, stride=2, outsize=(12, 14)))
    assert (node.outh, node.outw) == (12, 14)
    node = _node(F.unpooling_2d(X, 2, cover_all=False))
    assert (node.outh, node.outw) == (12, 14) and node.return_indices is False
    y, indexes = F.max_pooling_2d(X, 2, return_indices=True)
    node = _node(F.upsampling_2d(y, indexes, 2, outsize=(6, 7)))
    assert (node.kh, node.kw, node.sy, node.sx, node.ph, node.pw) == (2, 2, 2, 2, 0, 0)
    assert (node.outh, node.outw) == (6, 7)


def test_other_nodes_keep_chainer_attributes():
    node = _node(F.convolution_2d(X, numpy.ones((3, 2, 3, 3), numpy.float32)))
    assert node.cudnn_fast is False
    assert _node(F.average_pooling_nd(X, 2)).return_indices is False
    assert _node(F.local_response_normalization(X, n=3)).n == 3
    assert _node(F.mean(X, axis=(1, 2))).multiplier == 1.0 / 12


def test_cudnn_fast_is_refused_on_the_cpu():
    w = numpy.ones((3, 2, 3, 3), numpy.float32)
    node = F.connection.convolution_2d.Convolution2DFunction(cudnn_fast=True)
    with pytest.raises(RuntimeError, match='cudnn_fast'):
        node.apply((X, w))


def test_chainer_attributes_of_other_nodes_after_forward():
    x = numpy.ones((2, 3, 4, 4), numpy.float32)
    gamma, beta = numpy.ones(3, numpy.float32), numpy.zeros(3, numpy.float32)
    node = _node(F.batch_normalization(x, gamma, beta))
    assert node.axis == (0, 2, 3) and node.key_axis == (1,)
    node = _node(F.im2col(x, (2, 3), stride=(1, 2), pad=(0, 1), dilate=(2, 1)))
    assert (node.kh, node.kw, node.sy, node.sx, node.ph, node.pw) == (2, 3, 1, 2, 0, 1)
    assert (node.dy, node.dx) == (2, 1)
    node = _node(F.resize_images(x, (5, 6)))
    assert (node.out_H, node.out_W) == (5, 6)
    node = F.split_axis(x, [1, 2], axis=1)[0].creator_node
    assert tuple(node.indices) == (1, 2) and node.sections is None
    node = F.split_axis(x, 3, axis=1)[0].creator_node
    assert (node.indices, node.sections) == (None, 3)
    t = numpy.array([[0, 1, -1], [1, -1, -1]], numpy.int32)
    assert _node(F.sigmoid_cross_entropy(x[:, :, 0, 0], t)).count == 3
    assert _node(F.sigmoid_cross_entropy(x[:, :, 0, 0], t, normalize=False)).count == 2
    assert _node(F.as_strided(x[:, 1:], (2,), (1,))).storage_offset == 16
    assert _node(F.add(x, x, x)).len == 3
    node = _node(F.average_pooling_nd(x, 2, pad=1, pad_value=None))
    numpy.testing.assert_array_equal(node.width, [[1, 2, 1], [2, 4, 2], [1, 2, 1]])
    assert _node(F.average_pooling_nd(x, 2)).width is None
    a = numpy.ones((2, 3), numpy.float32)
    node = _node(F.einsum('ij,jk->ik', a, a.T))
    assert node.in_subs == 'ij,jk' and node.out_sub == 'ik'
    assert _node(F.decorrelated_batch_normalization(x, groups=1)).axis is None
