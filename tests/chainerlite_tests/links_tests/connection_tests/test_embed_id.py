import numpy
import pytest

import chainerlite
import chainerlite.links as L
from chainerlite import gradient_check
from chainerlite import initializers


@pytest.mark.parametrize('ignore_label', [None, -1, 2])
def test_forward_matches_lookup(ignore_label):
    embed = L.EmbedID(4, 3, ignore_label=ignore_label)
    x = numpy.array([[0, 2], [3, -1 if ignore_label == -1 else 1]], numpy.int32)
    expected = embed.W.array[x]
    if ignore_label is not None:
        expected[x == ignore_label] = 0
    y = embed(x)
    assert y.shape == (2, 2, 3)
    numpy.testing.assert_array_equal(y.array, expected)


def test_parameter_gradient():
    embed = L.EmbedID(5, 3, ignore_label=-1)
    x = numpy.array([0, 4, 4, -1, 2], numpy.int32)
    gy = numpy.random.uniform(-1, 1, (5, 3)).astype(numpy.float32)
    gradient_check.check_backward(
        embed, x, gy, params=(embed.W,), dtype=numpy.float64, atol=1e-4, rtol=1e-3
    )


def test_gradient_sums_rows_of_repeated_ids():
    embed = L.EmbedID(3, 2)
    embed.cleargrads()  # the gradients start as NaN, as in Chainer
    y = embed(numpy.array([1, 1, 2], numpy.int32))
    y.grad = numpy.ones((3, 2), numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(embed.W.grad, [[0, 0], [2, 2], [1, 1]])


def test_default_initializer_has_unit_deviation():
    numpy.random.seed(0)
    W = L.EmbedID(200, 50).W
    assert W.shape == (200, 50) and W.dtype == numpy.float32
    assert abs(float(W.array.std()) - 1.0) < 0.05


def test_initializers_and_dtype():
    W = numpy.arange(6, dtype=numpy.float32).reshape(3, 2)
    numpy.testing.assert_array_equal(L.EmbedID(3, 2, initialW=W).W.array, W)
    with chainerlite.using_config('dtype', numpy.float64):
        embed = L.EmbedID(3, 2, initialW=initializers.One())
    assert embed.W.dtype == numpy.float64
    assert embed(numpy.array([1], numpy.int32)).dtype == numpy.float64


def test_from_params():
    W = numpy.random.uniform(-1, 1, (5, 3)).astype(numpy.float32)
    embed = L.EmbedID.from_params(chainerlite.Parameter(W), ignore_label=-1)
    assert embed.ignore_label == -1
    numpy.testing.assert_array_equal(embed.W.array, W)
    y = embed(numpy.array([4, -1], numpy.int32)).array
    numpy.testing.assert_array_equal(y, [W[4], numpy.zeros(3)])


def test_link_without_ignore_label_attribute():
    # An EmbedID pickled before ignore_label existed has no such attribute.
    embed = L.EmbedID(3, 2)
    del embed.ignore_label
    assert embed.ignore_label is None
    y = embed(numpy.array([2, 0], numpy.int32)).array
    numpy.testing.assert_array_equal(y, embed.W.array[[2, 0]])
