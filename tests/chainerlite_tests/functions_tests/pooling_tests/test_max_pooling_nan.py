"""Max pooling over windows with NaN, ties and infinities: outputs and
gradients as Chainer 7.8.1 gives them (values recorded from its CPU path:
NaN propagates, and the gradient goes to the first NaN of a window, else to
its first maximum, as ``numpy.argmax``). Every copy agrees: the compiled
kernel (float32/float64 images), the NumPy path (float16, 1-d and 3-d),
with a function hook registered, and through double backprop."""

import numpy as np
import pytest

import chainerlite
import chainerlite.functions as F

nan, inf = np.nan, np.inf

# a 2x2 window: its pixels, then Chainer's output and gradient (gy = 1)
WINDOWS = [
    ([1, nan, 3, 3], nan, [0, 1, 0, 0]),
    ([nan, 2, nan, 1], nan, [1, 0, 0, 0]),
    ([inf, inf, -inf, -inf], inf, [1, 0, 0, 0]),
    ([-inf, nan, 5, 5], nan, [0, 1, 0, 0]),
    ([2, 2, 2, 2], 2, [1, 0, 0, 0]),
    ([nan, nan, 1, 1], nan, [1, 0, 0, 0]),
    ([-inf, -inf, -inf, -inf], -inf, [1, 0, 0, 0]),
    ([0, -0.0, 1, 1], 1, [0, 0, 1, 0]),
]
# overlapping padded windows (ksize 2, stride 1, pad 1) over a 3x3 image:
# Chainer's outputs, and its gradient for gy = 1, 2, ..., 16
IMAGE = [[1, nan, 3], [4, 5, nan], [7, 8, 9]]
IMAGE_Y = [1, nan, nan, 3, 4, nan, nan, nan, 7, 8, nan, nan, 7, 8, 9, 9]
IMAGE_GX = [1, 18, 4, 5, 0, 31, 22, 24, 31]

DTYPES = [np.float16, np.float32, np.float64]


class _Watch(chainerlite.FunctionHook):
    name = 'watch'

    def forward_preprocess(self, function, in_data):
        pass


def _pool(x, ndim, hook, **kw):
    shape = x.shape[:2] + (1,) * (ndim - 2) + x.shape[2:]
    v = chainerlite.Variable(x.reshape(shape))
    pool = F.max_pooling_2d if ndim == 2 else F.max_pooling_nd
    if hook:
        with _Watch():
            y = pool(v, **kw)
    else:
        y = pool(v, **kw)
    return v, y


@pytest.mark.parametrize('hook', [False, True])
@pytest.mark.parametrize('ndim', [2, 3])
@pytest.mark.parametrize('dtype', DTYPES)
@pytest.mark.parametrize('pixels, value, grad', WINDOWS)
def test_window(pixels, value, grad, dtype, ndim, hook):
    x = np.array(pixels, dtype).reshape(1, 1, 2, 2)
    v, y = _pool(x, ndim, hook, ksize=2)
    np.testing.assert_array_equal(y.array.ravel(), [value])
    y.grad = np.ones_like(y.array)
    y.backward()
    np.testing.assert_array_equal(v.grad.ravel(), grad)


@pytest.mark.parametrize('ndim', [2, 3])
@pytest.mark.parametrize('dtype', DTYPES)
def test_overlapping_windows(dtype, ndim):
    x = np.array(IMAGE, dtype).reshape(1, 1, 3, 3)
    flat = (1,) * (ndim - 2)  # a depth of one, not padded
    v, y = _pool(
        x, ndim, False, ksize=flat + (2, 2), stride=1, pad=(0,) * (ndim - 2) + (1, 1)
    )
    np.testing.assert_array_equal(y.array.ravel(), IMAGE_Y)
    y.grad = np.arange(1, 17, dtype=dtype).reshape(y.shape)
    gy = y.grad_var  # the pass takes it from y
    y.backward(enable_double_backprop=True)
    np.testing.assert_array_equal(v.grad.ravel(), IMAGE_GX)
    # double backprop: the gradient's gradient reads each window's NaN or
    # maximum, as the forward chose
    gx = v.grad_var
    v.cleargrad()
    (ggy,) = chainerlite.grad([gx], [gy], grad_outputs=[chainerlite.Variable(v.array)])
    np.testing.assert_array_equal(ggy.array, y.array)


def test_spatial_pyramid_pooling():
    x = np.array(IMAGE, np.float32).reshape(1, 1, 3, 3)
    v = chainerlite.Variable(x)
    y = F.spatial_pyramid_pooling_2d(v, 2, pooling='max')
    np.testing.assert_array_equal(y.array.ravel(), [nan, nan, nan, 8, 9])
    y.grad = np.arange(1, 6, dtype=np.float32).reshape(y.shape)
    y.backward()
    np.testing.assert_array_equal(v.grad.ravel(), [0, 3, 0, 0, 0, 3, 0, 4, 5])
