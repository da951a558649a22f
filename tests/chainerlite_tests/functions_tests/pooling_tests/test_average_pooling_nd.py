import itertools

import numpy
import pytest

import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


def _reference(x, ksize, stride, pad, pad_value):
    dims = x.shape[2:]
    starts = [
        range(-p, d + p - k + 1, s) for d, k, s, p in zip(dims, ksize, stride, pad)
    ]
    outs = tuple(len(r) for r in starts)
    y = numpy.zeros(x.shape[:2] + outs)
    for index, xs in zip(
        itertools.product(*[range(o) for o in outs]), itertools.product(*starts)
    ):
        window = tuple(
            slice(max(a, 0), min(a + k, d)) for a, k, d in zip(xs, ksize, dims)
        )
        part = x[(Ellipsis,) + window]
        count = numpy.prod(ksize) if pad_value == 0 else numpy.prod(part.shape[2:])
        y[(Ellipsis,) + index] = part.sum(axis=tuple(range(2, x.ndim))) / count
    return y


@testing.parameterize(
    *testing.product(
        {
            'case': [
                ((5,), (3,), (2,), (1,)),
                ((3, 4, 3), (2, 3, 2), (1, 2, 2), (1, 1, 0)),
            ],
            'pad_value': [0, None],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestAveragePoolingND(testing.FunctionTestCase):
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
        return (numpy.random.uniform(-1, 1, (2, 3) + self.dims).astype(self.dtype),)

    def forward(self, inputs, device):
        return (
            F.average_pooling_nd(
                inputs[0], self.ksize, self.stride, self.pad, self.pad_value
            ),
        )

    def forward_expected(self, inputs):
        return (
            _reference(
                inputs[0], self.ksize, self.stride, self.pad, self.pad_value
            ).astype(self.dtype),
        )


@pytest.mark.parametrize(
    'func, ndim', [(F.average_pooling_1d, 1), (F.average_pooling_3d, 3)]
)
def test_fixed_rank_wrappers(func, ndim):
    x = numpy.random.uniform(-1, 1, (1, 2) + (4,) * ndim)
    numpy.testing.assert_array_equal(func(x, 2).array, F.average_pooling_nd(x, 2).array)
    with pytest.raises(ValueError, match=func.__name__):
        func(numpy.zeros((1, 2, 4, 4)), 2)


def test_invalid_pad_value():
    with pytest.raises(ValueError, match='average_pooling_nd: pad_value'):
        F.average_pooling_nd(numpy.zeros((1, 1, 4)), 2, pad_value=1)


def test_node_refuses_cover_all():
    # Chainer 7.8.1's AveragePoolingND(ndim, ksize, stride, pad, cover_all,
    # pad_value) raises ValueError for cover_all=True.
    from chainerlite.functions.pooling.average_pooling_nd import AveragePoolingND

    with pytest.raises(ValueError, match='cover_all'):
        AveragePoolingND(2, 2, cover_all=True)
    node = AveragePoolingND(2, 2, None, 0, False, None)
    assert node.pad_value is None and node.cover_all is False
    x = numpy.arange(16, dtype=numpy.float32).reshape(1, 1, 4, 4)
    numpy.testing.assert_array_equal(
        node.apply((x,))[0].array, [[[[2.5, 4.5], [10.5, 12.5]]]]
    )


@pytest.mark.parametrize('func', [F.average_pooling_nd, F.average_pooling_1d])
def test_empty_input_is_refused(func):
    # As in Chainer 7.8.1, whose N-d pooling type-checks a non-empty input
    # (its average_pooling_2d computes one: test_average_pooling_2d.py).
    x = numpy.zeros((2, 0, 3), numpy.float32)
    with pytest.raises(type_check.InvalidType, match=r'x\.size > 0'):
        func(x, 1)
