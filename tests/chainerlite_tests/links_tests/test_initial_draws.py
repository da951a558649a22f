"""Links draw their initial weights as Chainer 7.8.1 does.

A program seeded with ``numpy.random.seed`` gets Chainer's initial weights
only where each link draws the same arrays in the same order; these links
once drew in another order or with another initializer.
"""

import numpy
import pytest

import chainerlite.links as L
from chainerlite import initializers


def _normal_blocks(shapes, seed):
    # what Normal() (scale 0.05) draws for each shape in turn
    rng = numpy.random.RandomState(seed)
    return [rng.normal(0, 0.05, s).astype(numpy.float32) for s in shapes]


def test_lstm_draws_lateral_then_upward_gate_by_gate():
    numpy.random.seed(7)
    link = L.LSTM(
        3, 4, lateral_init=initializers.Normal(), upward_init=initializers.Normal()
    )
    blocks = _normal_blocks([(4, 4), (4, 3)] * 4, 7)
    for g in range(4):
        rows = slice(4 * g, 4 * g + 4)
        numpy.testing.assert_array_equal(link.lateral.W.array[rows], blocks[2 * g])
        numpy.testing.assert_array_equal(link.upward.W.array[rows], blocks[2 * g + 1])


def test_lstm_biases_are_drawn_in_gate_order():
    numpy.random.seed(3)
    link = L.LSTM(
        2,
        3,
        lateral_init=0,
        upward_init=0,
        bias_init=initializers.Normal(),
        forget_bias_init=initializers.Normal(),
    )
    gates = link.upward.b.array.reshape(3, 4)
    draws = _normal_blocks([(3,)] * 4, 3)
    for k in range(4):  # a, i, f, o
        numpy.testing.assert_array_equal(gates[:, k], draws[k])


@pytest.mark.parametrize('cls', [L.LSTM, L.StatelessLSTM])
def test_lazy_lstm_draws_everything_at_its_first_call(cls):
    link = cls(None, 4)
    assert not link.lateral.W.array.any()  # zeros until the input size is known
    numpy.random.seed(5)
    x = numpy.ones((2, 3), numpy.float32)
    link(x) if cls is L.LSTM else link(None, None, x)
    numpy.random.seed(5)
    eager = cls(3, 4)
    numpy.testing.assert_array_equal(link.lateral.W.array, eager.lateral.W.array)
    numpy.testing.assert_array_equal(link.upward.W.array, eager.upward.W.array)


def test_binary_hierarchical_softmax_draws_uniform_weights():
    tree = L.BinaryHierarchicalSoftmax.create_huffman_tree({0: 1, 1: 2, 2: 3})
    numpy.random.seed(11)
    link = L.BinaryHierarchicalSoftmax(5, tree)
    expected = numpy.random.RandomState(11).uniform(-1, 1, (2, 5)).astype(numpy.float32)
    numpy.testing.assert_array_equal(link.W.array, expected)


def test_deformable_convolution_starts_with_zero_sampler_weights():
    numpy.random.seed(13)
    link = L.DeformableConvolution2D(2, 3, 3)
    assert not link.deform_conv.W.array.any()
    numpy.random.seed(13)
    offset = L.Convolution2D(2, 18, 3)
    numpy.testing.assert_array_equal(link.offset_conv.W.array, offset.W.array)
