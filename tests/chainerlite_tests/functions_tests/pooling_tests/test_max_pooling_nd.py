import itertools

import numpy
import pytest

import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


def _windows(dims, ksize, stride, pad, cover_all):
    """Slices of the input that each output element pools over."""
    starts = []
    for d, k, s, p in zip(dims, ksize, stride, pad):
        stop = d + p - k + (s if cover_all else 1)
        starts.append(range(-p, stop, s))
    return [
        tuple(slice(max(a, 0), min(a + k, d)) for a, k, d in zip(xs, ksize, dims))
        for xs in itertools.product(*starts)
    ]


def _out_shape(dims, ksize, stride, pad, cover_all):
    return tuple(
        len(range(-p, d + p - k + (s if cover_all else 1), s))
        for d, k, s, p in zip(dims, ksize, stride, pad)
    )


@testing.parameterize(
    *testing.product(
        {
            'case': [
                # dims, ksize, stride, pad
                ((5,), (2,), (2,), (0,)),
                ((4, 3, 5), (2, 2, 3), (2, 1, 2), (1, 0, 1)),
            ],
            'cover_all': [True, False],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestMaxPoolingND(testing.FunctionTestCase):
    def setUp(self):
        self.dims, self.ksize, self.stride, self.pad = self.case
        tol = 1e-2 if self.dtype == numpy.float16 else 1e-4
        self.check_forward_options = {'atol': tol, 'rtol': tol}
        self.check_backward_options = {'dtype': numpy.float64, 'atol': tol, 'rtol': tol}
        self.check_double_backward_options = {
            'dtype': numpy.float64,
            'atol': tol,
            'rtol': tol,
        }

    def generate_inputs(self):
        # distinct values far apart: the maximum of a window is unique
        size = 2 * 3 * numpy.prod(self.dims)
        x = numpy.random.permutation(size).reshape((2, 3) + self.dims)
        return ((x / size).astype(self.dtype),)

    def forward(self, inputs, device):
        return (
            F.max_pooling_nd(
                inputs[0], self.ksize, self.stride, self.pad, self.cover_all
            ),
        )

    def forward_expected(self, inputs):
        (x,) = inputs
        out = _out_shape(self.dims, self.ksize, self.stride, self.pad, self.cover_all)
        y = numpy.array(
            [
                x[(Ellipsis,) + w].reshape(2, 3, -1).max(axis=2)
                for w in _windows(
                    self.dims, self.ksize, self.stride, self.pad, self.cover_all
                )
            ]
        )
        return (numpy.moveaxis(y, 0, -1).reshape((2, 3) + out),)


def test_indices_are_positions_in_the_windows():
    x = numpy.array([[[3.0, 1.0, 4.0, 1.0, 5.0, 9.0]]])
    y, indices = F.max_pooling_nd(x, 3, return_indices=True)
    numpy.testing.assert_array_equal(y.array, [[[4.0, 9.0]]])
    numpy.testing.assert_array_equal(indices, [[[2, 2]]])


@pytest.mark.parametrize('func, ndim', [(F.max_pooling_1d, 1), (F.max_pooling_3d, 3)])
def test_fixed_rank_wrappers(func, ndim):
    x = numpy.random.uniform(-1, 1, (1, 2) + (4,) * ndim)
    numpy.testing.assert_array_equal(func(x, 2).array, F.max_pooling_nd(x, 2).array)
    with pytest.raises(ValueError, match=func.__name__):
        func(numpy.zeros((1, 2, 4, 4)), 2)


def test_invalid_inputs():
    with pytest.raises(type_check.InvalidType, match='MaxPoolingND'):
        F.max_pooling_nd(numpy.zeros((1, 2, 4), numpy.int32), 2)
    with pytest.raises(ValueError, match='max_pooling_nd: ksize'):
        F.max_pooling_nd(numpy.zeros((1, 2, 4)), (2, 2))


@pytest.mark.parametrize('cover_all', [True, False])
def test_gradient_of_the_gradient_node_is_checked_twice(cover_all):
    # The gradient of max pooling is linear in gy (x fixed): gx(gy). Its
    # backward pools with the saved argmax positions, and that pooling's
    # backward is the gradient again; check both numerically (the third
    # order of max_pooling_nd).
    import chainerlite
    from chainerlite import gradient_check

    rng = numpy.random.RandomState(0)
    x = chainerlite.Variable(rng.permutation(2 * 3 * 60).reshape(2, 3, 4, 3, 5) / 360.0)
    args = ((2, 2, 3), (2, 1, 2), (1, 0, 1), cover_all)
    y = F.max_pooling_nd(x, *args)

    def gx_of(gy):
        (gx,) = chainerlite.grad(
            [y], [x], grad_outputs=[gy], enable_double_backprop=True
        )
        return gx

    gy = rng.uniform(-1, 1, y.shape)
    ggx = rng.uniform(-1, 1, x.shape)
    gggy = rng.uniform(-1, 1, y.shape)
    gradient_check.check_double_backward(
        gx_of, gy, ggx, gggy, dtype=numpy.float64, atol=1e-6, rtol=1e-6
    )


@pytest.mark.parametrize('return_indices', [False, True])
def test_node_takes_return_indices(return_indices):
    # Chainer 7.8.1's MaxPoolingND(ndim, ksize, stride, pad, cover_all,
    # return_indices): the node keeps its indexes whatever the flag.
    from chainerlite.functions.pooling.max_pooling_nd import MaxPoolingND

    x = numpy.arange(16, dtype=numpy.float32).reshape(1, 1, 4, 4)
    node = MaxPoolingND(2, 2, return_indices=return_indices)
    assert node.return_indices is return_indices and node.cover_all is True
    (y,) = node.apply((x,))
    numpy.testing.assert_array_equal(y.array, [[[[5, 7], [13, 15]]]])
    numpy.testing.assert_array_equal(node.indexes, numpy.full((1, 1, 2, 2), 3))


@pytest.mark.parametrize('shape', [(0, 2, 3), (2, 0, 3), (1, 2, 0, 4)])
def test_empty_input_is_refused(shape):
    # As in Chainer 7.8.1, whose N-d pooling type-checks a non-empty input.
    x = numpy.zeros(shape, numpy.float32)
    with pytest.raises(type_check.InvalidType, match=r'x\.size > 0'):
        F.max_pooling_nd(x, 1)
