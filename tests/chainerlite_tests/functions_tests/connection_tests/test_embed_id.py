import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


@testing.parameterize(
    *testing.product(
        {
            'x_shape': [(4,), (2, 3)],
            'ignore_label': [None, 1, -1],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestEmbedID(testing.FunctionTestCase):
    def setUp(self):
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
                'atol': 1e-4,
                'rtol': 1e-3,
            }

    def generate_inputs(self):
        # IDs repeat so that gradients of one row accumulate; -1 appears
        # only where it is ignored.
        low = -1 if self.ignore_label == -1 else 0
        x = numpy.random.randint(low, 3, self.x_shape).astype(numpy.int32)
        x.flat[0] = x.flat[1] = 2
        W = numpy.random.uniform(-1, 1, (3, 5)).astype(self.dtype)
        return x, W

    def forward(self, inputs, device):
        x, W = inputs
        return (F.embed_id(x, W, ignore_label=self.ignore_label),)

    def forward_expected(self, inputs):
        x, W = inputs
        y = numpy.zeros(x.shape + (W.shape[1],), self.dtype)
        for index in numpy.ndindex(*x.shape):
            if x[index] != self.ignore_label:
                y[index] = W[x[index]]
        return (y,)


def test_gradient_accumulates_rows_and_skips_ignored_ids():
    W = chainerlite.Variable(numpy.zeros((3, 2), numpy.float32))
    x = numpy.array([2, 0, 2, 1], numpy.int32)
    y = F.embed_id(x, W, ignore_label=1)
    y.grad = numpy.arange(8, dtype=numpy.float32).reshape(4, 2)
    y.backward()
    numpy.testing.assert_array_equal(W.grad, [[2, 3], [0, 0], [4, 6]])


def test_out_of_range_id_raises_in_debug_mode():
    W = numpy.zeros((3, 2), numpy.float32)
    x = numpy.array([0, 3], numpy.int32)
    with chainerlite.using_config('debug', True):
        with pytest.raises(ValueError, match='0 <= x < len'):
            F.embed_id(x, W)
        F.embed_id(numpy.array([0, -1], numpy.int32), W, ignore_label=-1)


@pytest.mark.parametrize(
    'x, w_shape, w_dtype',
    [
        (numpy.zeros(3, numpy.float32), (3, 2), numpy.float32),
        (numpy.array(1, numpy.int32), (3, 2), numpy.float32),
        (numpy.zeros(3, numpy.int32), (3,), numpy.float32),
        (numpy.zeros(3, numpy.int32), (3, 2), numpy.int32),
    ],
)
def test_invalid_inputs(x, w_shape, w_dtype):
    with pytest.raises(type_check.InvalidType, match='EmbedIDFunction'):
        F.embed_id(x, numpy.zeros(w_shape, w_dtype))


@pytest.mark.parametrize('ids, w_shape', [((0,), (4, 3)), ((2,), (4, 0))])
def test_no_ids_or_no_width(ids, w_shape):
    # the gradient's rows were found by a width of -1, which is ambiguous
    # where there is no element (Chainer fails with no ids)
    W = chainerlite.Variable(numpy.ones(w_shape, numpy.float32))
    x = numpy.zeros(ids, numpy.int32)
    y = F.embed_id(x, W)
    (gW,) = chainerlite.grad([F.sum(y * y)], [W], enable_double_backprop=True)
    numpy.testing.assert_array_equal(gW.array, numpy.zeros(w_shape))
    F.sum(gW * gW).backward()
    assert W.grad.shape == w_shape
