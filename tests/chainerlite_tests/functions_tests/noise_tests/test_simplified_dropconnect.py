import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


def _reference(x, W, b, mask, ratio, batchwise):
    w = W.astype(numpy.float64) * mask / (1 - ratio)
    x2 = x.reshape(len(x), -1).astype(numpy.float64)
    if batchwise:
        y = numpy.stack([w[n].dot(x2[n]) for n in range(len(x))])
    else:
        y = x2.dot(w.T)
    if b is not None:
        y = y + b
    return y


@testing.parameterize(
    *testing.product(
        {
            'dtypes': [
                (numpy.float32, numpy.float32),
                (numpy.float64, numpy.float16),
                (numpy.float16, numpy.float32),
            ],
            'batchwise': [True, False],
            'nobias': [True, False],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSimplifiedDropconnect(testing.FunctionTestCase):
    ratio = 0.4

    def setUp(self):
        x_dtype, w_dtype = self.dtypes
        shape = (4, 2, 3) if self.batchwise else (2, 3)
        self.mask = numpy.random.uniform(size=shape) >= self.ratio
        self.check_backward_options = {
            'dtype': numpy.float64,
            'atol': 1e-3,
            'rtol': 1e-3,
        }
        self.check_double_backward_options = {
            'dtype': numpy.float64,
            'atol': 1e-3,
            'rtol': 1e-3,
        }
        if numpy.float16 in self.dtypes:
            self.check_forward_options = {'atol': 1e-2, 'rtol': 1e-2}
            self.check_backward_options.update(atol=1e-2, rtol=1e-2)
            self.check_double_backward_options.update(atol=5e-2, rtol=5e-2)

    def generate_inputs(self):
        x_dtype, w_dtype = self.dtypes
        x = numpy.random.uniform(-1, 1, (4, 3)).astype(x_dtype)
        W = numpy.random.uniform(-1, 1, (2, 3)).astype(w_dtype)
        if self.nobias:
            return x, W
        return x, W, numpy.random.uniform(-1, 1, 2).astype(x_dtype)

    def forward(self, inputs, device):
        x, W = inputs[:2]
        b = inputs[2] if len(inputs) == 3 else None
        return (
            F.simplified_dropconnect(
                x, W, b, self.ratio, True, device.send(self.mask), self.batchwise
            ),
        )

    def forward_expected(self, inputs):
        x, W = inputs[:2]
        b = inputs[2] if len(inputs) == 3 else None
        y = _reference(x, W, b, self.mask, self.ratio, self.batchwise)
        return (y.astype(x.dtype),)


@pytest.mark.parametrize('batchwise', [True, False])
def test_drawn_mask_shape_and_ratio(batchwise):
    x = numpy.ones((50, 20), numpy.float32)
    W = numpy.ones((10, 20), numpy.float32)
    y = F.simplified_dropconnect(x, W, ratio=0.25, use_batchwise_mask=batchwise)
    mask = y.creator.mask
    assert mask.shape == ((50, 10, 20) if batchwise else (10, 20))
    assert abs(1 - mask.mean() - 0.25) < 0.05
    numpy.testing.assert_allclose(
        y.array, _reference(x, W, None, mask, 0.25, batchwise), rtol=1e-5
    )


def test_not_train_is_linear():
    x = numpy.random.uniform(-1, 1, (3, 4)).astype(numpy.float32)
    W = numpy.random.uniform(-1, 1, (2, 4)).astype(numpy.float32)
    b = numpy.random.uniform(-1, 1, 2).astype(numpy.float32)
    y = F.simplified_dropconnect(x, W, b, train=False)
    numpy.testing.assert_allclose(y.array, x.dot(W.T) + b, atol=1e-6)
    assert y.creator.mask.all()


@pytest.mark.parametrize(
    'x_shape, mask_shape, batchwise',
    [((4, 2), None, True), ((4, 3), (2, 3), True), ((4, 3), (4, 2, 3), False)],
)
def test_invalid_shapes(x_shape, mask_shape, batchwise):
    x = numpy.zeros(x_shape, numpy.float32)
    W = numpy.zeros((2, 3), numpy.float32)
    mask = None if mask_shape is None else numpy.ones(mask_shape, bool)
    with pytest.raises(type_check.InvalidType):
        F.simplified_dropconnect(x, W, mask=mask, use_batchwise_mask=batchwise)


@pytest.mark.parametrize('ratio', [1, -1.0, 2.0])
def test_invalid_ratio(ratio):
    with pytest.raises(ValueError, match='simplified_dropconnect: ratio'):
        F.simplified_dropconnect(
            numpy.zeros((1, 1), numpy.float32),
            numpy.zeros((1, 1), numpy.float32),
            ratio=ratio,
        )


@pytest.mark.parametrize('ratio', [1, -1.0, 2.0])
def test_ratio_is_unused_outside_training(ratio):
    # As Chainer 7.8.1 does, train=False ignores the ratio: the plain linear.
    x = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    W = numpy.arange(12, dtype=numpy.float32).reshape(4, 3)
    y = F.simplified_dropconnect(x, W, ratio=ratio, train=False)
    numpy.testing.assert_allclose(y.array, x.dot(W.T))


def test_bad_inputs_are_reported_before_a_bad_ratio():
    x = numpy.zeros((2, 3), numpy.float32)
    W = numpy.zeros((4, 5), numpy.float32)
    with pytest.raises(type_check.InvalidType, match='W.shape'):
        F.simplified_dropconnect(x, W, ratio=2.0)


def test_link_defers_and_masks():
    link = chainerlite.links.SimplifiedDropconnect(None, 2, ratio=0.5)
    x = numpy.random.uniform(-1, 1, (3, 2, 2)).astype(numpy.float32)
    mask = numpy.random.uniform(size=(3, 2, 4)) >= 0.5
    y = link(x, mask=mask)
    assert link.W.shape == (2, 4)
    numpy.testing.assert_allclose(
        y.array, _reference(x, link.W.array, link.b.array, mask, 0.5, True), rtol=1e-5
    )
    y.grad = numpy.ones_like(y.array)
    y.backward()
    assert link.W.grad.shape == (2, 4)


@pytest.mark.parametrize('batchwise', [True, False])
def test_a_weight_wider_than_x_is_multiplied_in_its_dtype(batchwise):
    # as Chainer 7.8.1: the products with a float32 W are taken in float32
    # and cast to x's float16 (before the bias), so are the gradient of x
    # and the second order with respect to W through it
    rng = numpy.random.RandomState(3)
    x = rng.uniform(-2, 2, (3, 4)).astype(numpy.float16)
    W = rng.uniform(-2, 2, (2, 4)).astype(numpy.float32)
    b = rng.uniform(-2, 2, 2).astype(numpy.float16)
    gy = rng.uniform(-2, 2, (3, 2)).astype(numpy.float16)
    wx = rng.uniform(-2, 2, (3, 4)).astype(numpy.float16)
    xv, Wv = chainerlite.Variable(x), chainerlite.Variable(W)
    y = F.simplified_dropconnect(xv, Wv, b, train=False, use_batchwise_mask=batchwise)
    wide = x.astype(numpy.float32) @ W.T
    numpy.testing.assert_array_equal(y.array, wide.astype(numpy.float16) + b)
    (gx,) = chainerlite.grad([y], [xv], [gy], enable_double_backprop=True)
    expected = (gy.astype(numpy.float32) @ W).astype(numpy.float16)
    numpy.testing.assert_array_equal(gx.array, expected)
    (gW,) = chainerlite.grad([F.sum(gx * wx)], [Wv])
    assert gW.dtype == numpy.float32
    numpy.testing.assert_allclose(
        gW.array, gy.astype(numpy.float32).T @ wx.astype(numpy.float32), rtol=1e-6
    )


def test_outside_training_a_given_mask_applies_unscaled():
    # Chainer passes ratio 0 outside training: nothing is dropped by a
    # drawn mask, and a mask given still applies, without the 1/(1-ratio)
    x = numpy.ones((2, 3), numpy.float32)
    W = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    y = F.simplified_dropconnect(x, W, ratio=0.5, train=False)
    numpy.testing.assert_array_equal(y.array, [[3, 12], [3, 12]])
    assert y.creator.ratio == 0 and y.creator.mask.all()
    mask = numpy.array([[True, False, True], [False, True, True]])
    y = F.simplified_dropconnect(
        x, W, ratio=0.5, train=False, mask=mask, use_batchwise_mask=False
    )
    numpy.testing.assert_array_equal(y.array, [[2, 9], [2, 9]])
    # a ratio out of range does not matter outside training
    y = F.simplified_dropconnect(x, W, ratio=1.5, train=False)
    numpy.testing.assert_array_equal(y.array, [[3, 12], [3, 12]])


@pytest.mark.parametrize('x_shape', [(0, 3), (0, 3, 1)])
def test_empty_batch(x_shape):
    # a batch of no rows flattened with a width of -1 (ambiguous; Chainer
    # fails where x has more than two axes)
    x = chainerlite.Variable(numpy.ones(x_shape, numpy.float32))
    W = chainerlite.Variable(numpy.ones((4, 3), numpy.float32))
    y = F.simplified_dropconnect(x, W, ratio=0.5)
    assert y.shape == (0, 4)
    gx, gW = chainerlite.grad([F.sum(y * y)], [x, W], enable_double_backprop=True)
    assert gx.shape == x_shape
    numpy.testing.assert_array_equal(gW.array, numpy.zeros((4, 3)))
    F.sum(gW * gW).backward()
    assert W.grad.shape == (4, 3)
