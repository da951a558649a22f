import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import testing
from chainerlite._kernels import dropout as dropout_kernels
from chainerlite.functions.noise import _random
from chainerlite.utils import type_check


@testing.parameterize(
    *testing.product(
        {
            'shape': [(3, 4), ()],
            'ratio': [0.0, 0.3, 0.9],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestDropoutWithMask(testing.FunctionTestCase):
    """Dropout with a given mask: deterministic, so it can be checked."""

    def setUp(self):
        keep = numpy.random.uniform(size=self.shape) >= self.ratio
        self.mask = (keep / (1 - self.ratio)).astype(self.dtype)
        if self.dtype == numpy.float16:
            self.check_backward_options = {
                'dtype': numpy.float64,
                'atol': 1e-2,
                'rtol': 1e-2,
            }
            self.check_double_backward_options = {
                'dtype': numpy.float64,
                'atol': 1e-2,
                'rtol': 1e-2,
            }
        elif self.dtype == numpy.float32:
            self.check_backward_options = {
                'dtype': numpy.float64,
                'atol': 1e-4,
                'rtol': 1e-3,
            }
            self.check_double_backward_options = {
                'dtype': numpy.float64,
                'atol': 1e-3,
                'rtol': 1e-2,
            }

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        return (F.dropout(x, self.ratio, mask=device.send(self.mask)),)

    def forward_expected(self, inputs):
        (x,) = inputs
        return ((x * self.mask).astype(self.dtype),)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('ratio', [0.0, 0.25, 0.75])
def test_random_mask(dtype, ratio):
    x = numpy.ones((100, 100), dtype)
    y, mask = F.dropout(x, ratio, return_mask=True)
    scale = dtype(1 / (1 - ratio))
    assert y.dtype == dtype and mask.dtype == dtype
    assert set(numpy.unique(mask).tolist()) <= {0.0, float(scale)}
    numpy.testing.assert_array_equal(y.array, x * mask)
    assert abs((mask == 0).mean() - ratio) < 0.02


def test_mask_is_reused():
    x = numpy.random.uniform(-1, 1, (4, 5)).astype(numpy.float32)
    y1, mask = F.dropout(x, return_mask=True)
    y2 = F.dropout(x, mask=mask)
    numpy.testing.assert_array_equal(y1.array, y2.array)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32])
def test_mask_is_drawn_by_the_random_helper(monkeypatch, dtype):
    # one draw of two words: the key of the mask's stream (the kernel's
    # tests check the stream itself), the same for every dtype and layout
    draws = []

    def draw(xp, method, shape):
        draws.append((method, shape))
        return numpy.array([0x89ABCDEF, 0x01234567], numpy.uint32)

    monkeypatch.setattr(_random.random_state, 'draw', draw)
    x = numpy.ones((6, 5), dtype)
    y, mask = F.dropout(x[:, ::-1], 0.5, return_mask=True)
    assert draws == [('bits32', (2,))]
    keep = dropout_kernels.keep_mask((6, 5), 0x0123456789ABCDEF, 2**31)
    numpy.testing.assert_array_equal(mask, keep * dtype(2))
    numpy.testing.assert_array_equal(y.array, keep * dtype(2))


@pytest.mark.parametrize('ratio', [0.0, 0.1, 0.5, 0.9, 1 - 2**-40])
def test_keep_key_threshold(monkeypatch, ratio):
    # kept exactly where the word is at least floor(ratio * 2**32)
    words = numpy.array([5, 7], numpy.uint32)
    monkeypatch.setattr(_random.random_state, 'draw', lambda xp, m, s: words)
    assert _random.keep_key(ratio) == (5 | 7 << 32, int(ratio * 2**32))


def test_dropout_makes_no_scaled_mask_unless_asked(monkeypatch):
    made = []
    original = F.noise.dropout._scaled

    def scaled(keep, scale):
        made.append(keep.shape)
        return original(keep, scale)

    monkeypatch.setattr(F.noise.dropout, '_scaled', scaled)
    x = chainerlite.Variable(numpy.ones((40, 50), numpy.float32))
    y = F.dropout(x, 0.5)
    y.grad = numpy.ones_like(y.array)
    y.backward()
    assert made == []
    F.dropout(x, 0.5, return_mask=True)
    assert made == [(40, 50)]


def test_gradient_of_the_gradient_is_masked():
    # the kept-as-booleans path: the gradient node applies the mask again
    x = chainerlite.Variable(numpy.ones((40, 50), numpy.float32))
    gy = chainerlite.Variable(numpy.full((40, 50), 3, numpy.float32))
    y, mask = F.dropout(x, 0.5, return_mask=True)
    (gx,) = chainerlite.grad([y], [x], [gy], enable_double_backprop=True)
    numpy.testing.assert_array_equal(gx.array, 3 * mask)
    gx.grad = numpy.ones_like(gx.array)
    gx.backward()
    numpy.testing.assert_array_equal(gy.grad, mask)


def test_mask_kept_as_booleans_until_read():
    node = F.noise.dropout.Dropout(0.5)
    x = numpy.ones((40, 50), numpy.float32)
    (y,) = node.apply((x,))
    assert node._mask is None and node._keep.dtype == numpy.bool_
    numpy.testing.assert_array_equal(y.array, node.mask)
    assert node.mask is node.mask and node.mask.dtype == numpy.float32


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_mask_is_made_in_the_dtype_of_x(dtype):
    x = numpy.ones(200000, dtype)
    y, mask = F.dropout(x, 0.25, return_mask=True)
    assert mask.dtype == dtype and y.dtype == dtype
    assert set(numpy.unique(mask).tolist()) == {0.0, float(dtype(1 / 0.75))}
    # 200000 Bernoulli(0.75) draws: the kept fraction is within 6 sigma
    assert abs((mask != 0).mean() - 0.75) < 6 * (0.75 * 0.25 / 200000) ** 0.5


def test_odd_sized_draws_are_replayed_by_forget():
    x = chainerlite.Variable(numpy.ones((3, 5, 7), numpy.float32))
    y = F.forget(lambda a: F.dropout(a, 0.5) * 1, x)
    y.grad = numpy.ones_like(y.array)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, y.array)


def test_gradient_is_masked():
    x = chainerlite.Variable(numpy.ones((3, 3), numpy.float32))
    y, mask = F.dropout(x, 0.5, return_mask=True)
    y.grad = numpy.ones((3, 3), numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, mask)


def test_identity_outside_training():
    x = numpy.random.uniform(-1, 1, (3, 4)).astype(numpy.float32)
    with chainerlite.using_config('train', False):
        y = F.dropout(x, 0.9)
        y_masked, mask = F.dropout(x, 0.9, return_mask=True)
    assert isinstance(y, chainerlite.Variable)
    numpy.testing.assert_array_equal(y.array, x)
    numpy.testing.assert_array_equal(y_masked.array, x)
    assert mask is None


@pytest.mark.parametrize('ratio', [-0.1, 1.0, 1.5])
def test_invalid_ratio(ratio):
    with pytest.raises(ValueError, match='dropout_ratio'):
        F.dropout(numpy.ones(3, numpy.float32), ratio)


def test_mask_of_another_shape_is_invalid():
    with pytest.raises(ValueError, match='mask must have the shape'):
        F.dropout(numpy.ones(3, numpy.float32), mask=numpy.ones(4, numpy.float32))


def test_mask_is_cast_to_the_dtype_of_x():
    y = F.dropout(
        numpy.ones(2, numpy.float16), mask=numpy.array([0.0, 2.0], numpy.float64)
    )
    assert y.dtype == numpy.float16
    numpy.testing.assert_array_equal(y.array, [0, 2])


def test_integer_input_is_invalid():
    with pytest.raises(type_check.InvalidType, match='Dropout'):
        F.dropout(numpy.ones(3, numpy.int32))


@pytest.mark.parametrize('return_mask', [False, True])
def test_node_takes_return_mask_and_makes_the_mask(return_mask):
    # Chainer 7.8.1's Dropout(dropout_ratio, mask=None, return_mask=False):
    # on the CPU the mask is made and kept whatever the flag.
    node = F.noise.dropout.Dropout(0.5, None, return_mask)
    assert node.return_mask is return_mask
    x = numpy.ones((4, 5), numpy.float32)
    (y,) = node.apply((x,))
    assert node.mask.shape == x.shape
    numpy.testing.assert_array_equal(y.array, x * node.mask)


def test_removed_train_argument_is_a_value_error():
    # Chainer 7.8.1's message for code written for Chainer 1
    x = numpy.ones((2, 3), numpy.float32)
    with pytest.raises(ValueError, match='train argument is not supported anymore'):
        F.dropout(x, train=False)
    with pytest.raises(ValueError, match='train argument'):
        F.rrelu(x, train=False)
    with pytest.raises(ValueError, match='train argument'):
        chainerlite.links.StatefulZoneoutLSTM(3, 2, train=True)
    with pytest.raises(TypeError, match='no_such'):
        F.dropout(x, no_such=1)
    with pytest.raises(TypeError, match='no_such'):
        F.rrelu(x, no_such=1)
