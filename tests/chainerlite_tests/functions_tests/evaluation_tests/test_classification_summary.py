import numpy
import pytest

import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check


def _confusion_counts(pred, t, n, ignore):
    tp = numpy.zeros(n)
    predicted = numpy.zeros(n)
    support = numpy.zeros(n, numpy.int32)
    for p, c in zip(pred.ravel(), t.ravel()):
        if c == ignore:
            continue
        support[c] += 1
        predicted[p] += 1
        tp[c] += p == c
    return tp, predicted, support


@testing.parameterize(
    *testing.product(
        {
            'dtype': [numpy.float16, numpy.float32],
            'shapes': [((30, 3), (30,)), ((10, 3, 4), (10, 4))],
            'ignore_label': [-1, 0],
            'beta': [1.0, 2.0],
        }
    )
)
class TestClassificationSummary:
    def test_forward(self):
        y = numpy.random.uniform(-1, 1, self.shapes[0]).astype(self.dtype)
        t = numpy.random.randint(-1, 3, self.shapes[1]).astype(numpy.int32)
        if self.ignore_label == 0:
            t[t < 0] = 2
        t.ravel()[:3] = [0, 1, 2]
        p, r, f, s = F.classification_summary(
            y, t, label_num=3, beta=self.beta, ignore_label=self.ignore_label
        )
        pred = y.argmax(axis=1)
        tp, predicted, support = _confusion_counts(pred, t, 3, self.ignore_label)
        with numpy.errstate(invalid='ignore', divide='ignore'):
            p_exp, r_exp = tp / predicted, tp / support
            b2 = self.beta**2
            f_exp = (1 + b2) * p_exp * r_exp / (b2 * p_exp + r_exp)
        # Chainer 7.8.1's dtypes whatever the dtype of y: float64 ratios of
        # the counts, int64 counts.
        for actual, expected in ((p, p_exp), (r, r_exp), (f, f_exp)):
            assert actual.dtype == numpy.float64
            numpy.testing.assert_allclose(actual.array, expected, rtol=1e-12)
        assert s.dtype == numpy.int64
        numpy.testing.assert_array_equal(s.array, support)


def test_precision_recall_f1_pick_their_part_of_the_summary():
    y = numpy.array([[0.9, 0.1], [0.2, 0.8], [0.6, 0.4]], numpy.float32)
    t = numpy.array([0, 1, 1], numpy.int32)
    p, s = F.precision(y, t)
    r, _ = F.recall(y, t)
    f, _ = F.f1_score(y, t)
    numpy.testing.assert_allclose(p.array, [0.5, 1.0])
    numpy.testing.assert_allclose(r.array, [1.0, 0.5])
    numpy.testing.assert_allclose(f.array, [2 / 3, 2 / 3], rtol=1e-6)
    numpy.testing.assert_array_equal(s.array, [1, 2])


def test_label_num_defaults_to_the_largest_label():
    y = numpy.zeros((2, 2), numpy.float32)
    t = numpy.array([0, 3], numpy.int32)
    _, s = F.precision(y, t)
    numpy.testing.assert_array_equal(s.array, [1, 0, 0, 1])


def test_label_num_default_ignores_the_classes_of_y():
    # As in Chainer 7.8.1: only the labels count (the ignored ones too);
    # results recorded from it.
    y = numpy.eye(6, dtype=numpy.float32)[[0, 1, 2, 1, 0]]
    p, r, f, s = F.classification_summary(y, numpy.array([0, 1, 2, 1, 0], numpy.int32))
    assert [v.shape for v in (p, r, f, s)] == [(3,)] * 4
    t = numpy.array([0, 1, 5], numpy.int32)
    _, s = F.precision(numpy.eye(3, dtype=numpy.float32), t, ignore_label=5)
    numpy.testing.assert_array_equal(s.array, [1, 1, 0, 0, 0, 0])
    p, s = F.precision(
        numpy.ones((2, 2), numpy.float32), numpy.array([-1, -1], numpy.int32)
    )
    assert p.shape == s.shape == (0,)
    assert (p.dtype, s.dtype) == (numpy.float64, numpy.int64)


def test_a_1d_score_array_fails_on_its_class_axis():
    # Chainer 7.8.1: numpy's AxisError from the argmax over axis 1.
    with pytest.raises(numpy.exceptions.AxisError):
        F.precision(numpy.ones(1), numpy.ones(1, numpy.int32))


def test_mismatched_batch_is_invalid():
    with pytest.raises(type_check.InvalidType, match='ClassificationSummary'):
        F.classification_summary(
            numpy.zeros((3, 2), numpy.float32), numpy.zeros((4,), numpy.int32)
        )
