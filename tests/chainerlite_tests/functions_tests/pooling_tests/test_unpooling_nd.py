import itertools

import numpy
import pytest

import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


def _reference(x, ksize, stride, pad, outs):
    """Copies each input element over its window of the output."""
    y = numpy.zeros(x.shape[:2] + tuple(outs))
    for pos in itertools.product(*[range(d) for d in x.shape[2:]]):
        for tap in itertools.product(*[range(k) for k in ksize]):
            at = tuple(q * s + t - p for q, s, t, p in zip(pos, stride, tap, pad))
            if all(0 <= a < o for a, o in zip(at, outs)):
                y[(Ellipsis,) + at] += x[(Ellipsis,) + pos]
    return y


@testing.parameterize(
    *testing.product(
        {
            'case': [
                # dims, ksize, stride, pad, cover_all, outsize, expected outsize
                ((3,), (2,), (2,), (0,), True, None, (5,)),
                ((2, 3, 2), (3, 2, 2), (2, 1, 2), (1, 0, 0), False, None, (3, 4, 4)),
                ((2, 2), (2, 2), (2, 2), (0, 0), False, (5, 4), (5, 4)),
            ],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestUnpoolingND(testing.FunctionTestCase):
    def setUp(self):
        (
            self.dims,
            self.ksize,
            self.stride,
            self.pad,
            self.cover_all,
            self.outsize,
            self.expected,
        ) = self.case
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
            F.unpooling_nd(
                inputs[0],
                self.ksize,
                self.stride,
                self.pad,
                self.outsize,
                self.cover_all,
            ),
        )

    def forward_expected(self, inputs):
        return (
            _reference(
                inputs[0], self.ksize, self.stride, self.pad, self.expected
            ).astype(self.dtype),
        )


@pytest.mark.parametrize('func, ndim', [(F.unpooling_1d, 1), (F.unpooling_3d, 3)])
def test_fixed_rank_wrappers(func, ndim):
    x = numpy.random.uniform(-1, 1, (1, 2) + (2,) * ndim)
    numpy.testing.assert_array_equal(func(x, 2).array, F.unpooling_nd(x, 2).array)
    with pytest.raises(ValueError, match=func.__name__):
        func(numpy.zeros((1, 2, 4, 4)), 2)


def test_outsize_must_pool_back_to_the_input():
    with pytest.raises(type_check.InvalidType, match='UnpoolingND'):
        F.unpooling_nd(
            numpy.zeros((1, 1, 3), numpy.float32), 2, outsize=(9,), cover_all=False
        )


@pytest.mark.parametrize(
    'func', [F.unpooling_nd, F.max_pooling_nd, F.average_pooling_nd]
)
def test_no_spatial_axis_is_value_error(func):
    # Chainer 7.8.1's type for an input of fewer than 3 axes
    with pytest.raises(ValueError, match='at least one spatial axis'):
        func(numpy.zeros((2, 3), numpy.float32), 1)


def test_outsize_of_another_length_is_value_error_and_invalid_type():
    x = numpy.zeros((3, 2, 4), numpy.float32)
    with pytest.raises(
        type_check.InvalidType, match='outsize must have 1 values'
    ) as info:
        F.unpooling_1d(x, 3, outsize=(3, 3))
    assert isinstance(info.value, ValueError)


def test_negative_output_lengths_are_an_error():
    # Chainer 7.8.1 returns an empty array whose gradient it cannot compute
    x = numpy.zeros((3, 1, 3), numpy.float32)
    with pytest.raises(ValueError, match='unpooling_nd: .* negative lengths'):
        F.unpooling_1d(x, 1, pad=2)
