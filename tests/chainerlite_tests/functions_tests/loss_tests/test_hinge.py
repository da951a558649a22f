import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


def _reference(x, t, norm):
    sign = numpy.ones(x.shape)
    sign[numpy.arange(len(t)), t] = -1
    loss = numpy.maximum(0, 1 + sign * x)
    return loss if norm == 'L1' else loss**2


@testing.parameterize(
    *testing.product(
        {
            'norm': ['L1', 'L2'],
            'reduce': ['mean', 'no'],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestHinge(testing.FunctionTestCase):
    shape = (5, 4)

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-2, 'rtol': 1e-2}
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
        # The margin has a kink where |x| = 1.
        x = numpy.random.uniform(-2, 2, self.shape)
        x[abs(abs(x) - 1) < 0.1] = 0.5
        t = numpy.random.randint(0, self.shape[1], self.shape[0])
        return x.astype(self.dtype), t.astype(numpy.int32)

    def forward(self, inputs, device):
        x, t = inputs
        return (F.hinge(x, t, self.norm, self.reduce),)

    def forward_expected(self, inputs):
        x, t = inputs
        loss = _reference(x.astype(numpy.float64), t, self.norm)
        if self.reduce == 'mean':
            loss = loss.sum() / len(x)
        return (numpy.asarray(loss, self.dtype),)


def test_invalid_norm():
    x = numpy.zeros((2, 3), numpy.float32)
    t = numpy.zeros(2, numpy.int32)
    with pytest.raises(NotImplementedError, match="'L1' or 'L2'"):
        F.hinge(x, t, norm='L3')


def test_invalid_reduce():
    x = numpy.zeros((2, 3), numpy.float32)
    t = numpy.zeros(2, numpy.int32)
    with pytest.raises(ValueError, match="'mean' and 'no'"):
        F.hinge(x, t, reduce='sum')


@pytest.mark.parametrize(
    'x, t',
    [
        (numpy.zeros((2, 3), numpy.int32), numpy.zeros(2, numpy.int32)),
        (numpy.zeros((2, 3), numpy.float32), numpy.zeros(2, numpy.float32)),
        (numpy.zeros((2, 3), numpy.float32), numpy.zeros(3, numpy.int32)),
        (numpy.zeros((2, 3), numpy.float32), numpy.zeros((2, 3), numpy.int32)),
        (numpy.zeros((2, 3, 1), numpy.float32), numpy.zeros(2, numpy.int32)),
    ],
)
def test_invalid_inputs(x, t):
    with pytest.raises(type_check.InvalidType, match='Hinge'):
        F.hinge(x, t)


@pytest.mark.parametrize('norm', ['L1', 'L2'])
def test_gradient_at_special_scores(norm):
    # A NaN score gets a NaN gradient (as in Chainer); the kinks (margin
    # exactly 0) get 0; an infinite score off the true class its sign.
    x = chainerlite.Variable(
        numpy.array([[1.0, -1.0, numpy.nan], [numpy.inf, 1.0, -0.5]], numpy.float32)
    )
    t = numpy.array([0, 1], numpy.int32)
    loss = F.sum(F.hinge(x, t, norm=norm, reduce='no'))
    loss.backward()
    inf_slope = 1.0 if norm == 'L1' else numpy.inf
    # the last score has margin 0.5: slope 1 in both norms
    numpy.testing.assert_array_equal(
        x.grad, [[0.0, 0.0, numpy.nan], [inf_slope, 0.0, 1.0]]
    )


@pytest.mark.parametrize('norm', ['L1', 'L2'])
@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('g', [0.0, -0.0])
def test_zero_gradients_have_chainers_sign(norm, dtype, g):
    # All four scores are inactive: 25 and 2 at the true class, -1 (a
    # margin of exactly 0) and -inf off it. Chainer 7.8.1 multiplies the
    # output gradient by the sign of the margin with the class's sign (+0
    # everywhere) for L1, by that margin itself for L2: +0 off the true
    # class, -0 at it (never NaN for -inf).
    x = chainerlite.Variable(numpy.array([[25, -1], [-numpy.inf, 2]], dtype))
    t = numpy.array([0, 1], numpy.int32)
    y = F.hinge(x, t, norm=norm, reduce='no')
    (gx,) = chainerlite.grad([y], [x], [numpy.full((2, 2), g, dtype)])
    assert not gx.array.any()
    negative = bool(numpy.signbit(g))
    if norm == 'L1':
        expect = [[negative, negative], [negative, negative]]
    else:
        expect = [[not negative, negative], [negative, not negative]]
    assert numpy.signbit(gx.array).tolist() == expect
