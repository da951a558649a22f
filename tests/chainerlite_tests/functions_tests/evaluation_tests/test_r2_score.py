import numpy
import pytest

import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


def _r2(pred, true):
    # One output at a time, straight from the definition.
    pred = pred.reshape(len(pred), -1).astype(numpy.float64)
    true = true.reshape(len(true), -1).astype(numpy.float64)
    scores = []
    for j in range(pred.shape[1]):
        res = sum((pred[i, j] - true[i, j]) ** 2 for i in range(len(pred)))
        mean = sum(true[:, j]) / len(true)
        tot = sum((true[i, j] - mean) ** 2 for i in range(len(true)))
        scores.append(0.0 if tot == 0 else 1 - res / tot)
    return numpy.array(scores)


@testing.parameterize(
    *testing.product(
        {
            'shape': [(10,), (10, 3), (6, 2, 2)],
            'target': ['random', 'zero'],
            'multioutput': ['uniform_average', 'raw_values'],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestR2Score(testing.FunctionTestCase):
    skip_backward_test = True
    skip_double_backward_test = True

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-2, 'rtol': 1e-2}

    def generate_inputs(self):
        pred = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        true = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        if self.target == 'zero':
            true[...] = 0
        return pred, true

    def forward(self, inputs, device):
        pred, true = inputs
        return (F.r2_score(pred, true, multioutput=self.multioutput),)

    def forward_expected(self, inputs):
        scores = _r2(*inputs)
        if self.multioutput == 'raw_values':
            y = scores.reshape(self.shape[1:])
        elif (scores == 0).any() and self.target == 'zero':
            y = numpy.array(0.0)
        else:
            y = numpy.array(scores.mean())
        return (y.astype(self.dtype),)


def test_shape_mismatch_is_invalid():
    with pytest.raises(type_check.InvalidType, match='R2_score'):
        F.r2_score(
            numpy.zeros((4, 2), numpy.float32), numpy.zeros((4, 3), numpy.float32)
        )


def test_sample_weight_is_not_supported():
    with pytest.raises(NotImplementedError, match='r2_score'):
        F.r2_score(
            numpy.zeros(4, numpy.float32),
            numpy.zeros(4, numpy.float32),
            sample_weight=numpy.ones(4, numpy.float32),
        )


def test_unknown_multioutput_is_rejected():
    with pytest.raises(ValueError, match='multioutput'):
        F.r2_score(
            numpy.zeros(4, numpy.float32),
            numpy.zeros(4, numpy.float32),
            multioutput='variance_weighted',
        )


@pytest.mark.parametrize(
    'pred_dtype, true_dtype',
    [(numpy.float16, numpy.float64), (numpy.float64, numpy.float16)],
)
def test_mixed_float_dtypes_score_in_pred_dtype(pred_dtype, true_dtype):
    # As Chainer 7.8.1: a mix of float dtypes is accepted, the score has
    # pred's dtype.
    pred = numpy.array([[0.5, 1.0], [1.5, 2.5], [3.0, 2.0]], pred_dtype)
    true = numpy.array([[0.0, 1.0], [2.0, 3.0], [3.0, 1.0]], true_dtype)
    y = F.r2_score(pred, true, multioutput='raw_values')
    assert y.dtype == pred_dtype
    p, t = pred.astype(numpy.float64), true.astype(numpy.float64)
    expected = 1 - ((p - t) ** 2).sum(0) / ((t - t.mean(0)) ** 2).sum(0)
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-2)


def test_integer_true_is_invalid():
    with pytest.raises(type_check.InvalidType, match='R2_score'):
        F.r2_score(numpy.zeros((2, 2), numpy.float32), numpy.zeros((2, 2), numpy.int32))


def test_a_constant_column_scores_0_and_counts_in_the_average():
    pred = numpy.array([[1.0, 2.0], [1.0, 3.0]], numpy.float32)
    true = numpy.array([[1.0, 1.0], [1.0, 2.0]], numpy.float32)
    raw = F.r2_score(pred, true, multioutput='raw_values').array
    numpy.testing.assert_array_equal(raw, [0.0, -3.0])
    assert F.r2_score(pred, true).array == -1.5
    # a NaN in another column makes the average NaN
    pred[1, 1] = numpy.nan
    assert numpy.isnan(F.r2_score(pred, true).array)
