"""Per-class precision, recall, F-beta score and support."""

from __future__ import annotations

import numpy
import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite.functions.evaluation import accuracy

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class ClassificationSummary(function_node.FunctionNode):
    """Per-class precision, recall, F-beta score and support (no gradient)."""

    def __init__(self, label_num, beta, ignore_label):
        self.label_num = label_num
        self.beta = beta
        self.ignore_label = ignore_label

    # The same inputs as accuracy: scores and integer labels.
    check_type_forward = accuracy.Accuracy.check_type_forward

    def forward(self, inputs):
        y, t = inputs
        # Both inputs kept, as Chainer's (an old-style Function) keeps them.
        self.retain_inputs((0, 1))
        xp = backend.get_array_module(y)
        label_num = self.label_num
        if label_num is None:
            # All labels count, the ignored ones too (as in Chainer 7.8.1).
            label_num = int(t.max()) + 1
        pred = y.argmax(axis=1).reshape(t.shape).ravel()
        t = t.ravel()
        used = t != self.ignore_label
        pred, t = pred[used], t[used].astype(numpy.int64)
        hit = pred == t
        support = xp.bincount(t, minlength=label_num)[:label_num]
        predicted = xp.bincount(pred, minlength=label_num)[:label_num]
        true_pos = xp.bincount(t[hit], minlength=label_num)[:label_num]
        # The ratios of the counts are float64 and the counts int64 (the
        # platform's index type) whatever the dtype of y, as in Chainer
        # 7.8.1. 0/0 is NaN, as for a class never predicted or never present.
        with numpy.errstate(divide='ignore', invalid='ignore'):
            precision = true_pos / predicted
            recall = true_pos / support
            b2 = self.beta * self.beta
            fbeta = (1 + b2) * precision * recall / (b2 * precision + recall)
        return precision, recall, fbeta, support


def classification_summary(y, t, label_num=None, beta=1.0, ignore_label=-1):
    """Calculates per-class precision, recall, F-beta score and support.

    The class predicted for a sample is the index of the largest score along
    the second axis of ``y``. For a class :math:`c`, precision is the
    fraction of the samples predicted as :math:`c` that are :math:`c`,
    recall the fraction of the samples of class :math:`c` predicted as
    :math:`c`, and

    .. math::
        F_\\beta = \\frac{(1 + \\beta^2) \\, \\mathrm{precision} \\,
                         \\mathrm{recall}}
                        {\\beta^2 \\, \\mathrm{precision} + \\mathrm{recall}}.

    A ratio with a zero denominator is NaN.

    Args:
        y (Variable or numpy.ndarray or cupy.ndarray): Scores of shape
            ``(batch, n_classes, ...)``.
        t (Variable or numpy.ndarray or cupy.ndarray): Integer labels of
            shape ``(batch, ...)``.
        label_num (int): The number of classes; ``None`` takes
            ``t.max() + 1`` (over all labels, ignored ones included).
        beta (float): The weight :math:`\\beta` of recall in the F-score.
        ignore_label (int): Samples with this label are skipped.

    Returns:
        tuple of Variable: ``(precision, recall, fbeta_score, support)``,
        each of shape ``(label_num,)``; ``support`` (the number of samples
        of each class) has the platform's index dtype (int64 on 64-bit
        systems), the others are float64, as in Chainer.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> y = np.array([[0.9, 0.1], [0.2, 0.8], [0.6, 0.4]], np.float32)
        >>> t = np.array([0, 1, 1], np.int32)
        >>> p, r, f, s = F.classification_summary(y, t)
        >>> p.array
        array([0.5, 1. ])
        >>> r.array
        array([1. , 0.5])
        >>> s.array
        array([1, 2])

    """
    return ClassificationSummary(label_num, beta, ignore_label).apply((y, t))


def precision(
    y: Variable | NdArray, t: Variable | NdArray, label_num=None, ignore_label=-1
) -> tuple[Variable, Variable]:
    """Per-class precision and support; see :func:`classification_summary`.

    Returns:
        tuple of Variable: ``(precision, support)``.

    """
    summary = classification_summary(
        y, t, label_num=label_num, ignore_label=ignore_label
    )
    return summary[0], summary[3]


def recall(
    y: Variable | NdArray, t: Variable | NdArray, label_num=None, ignore_label=-1
) -> tuple[Variable, Variable]:
    """Per-class recall and support; see :func:`classification_summary`.

    Returns:
        tuple of Variable: ``(recall, support)``.

    """
    summary = classification_summary(
        y, t, label_num=label_num, ignore_label=ignore_label
    )
    return summary[1], summary[3]


def fbeta_score(
    y: Variable | NdArray,
    t: Variable | NdArray,
    label_num=None,
    beta=1.0,
    ignore_label=-1,
) -> tuple[Variable, Variable]:
    """Per-class F-beta score and support; see :func:`classification_summary`.

    Returns:
        tuple of Variable: ``(fbeta_score, support)``.

    """
    summary = classification_summary(
        y, t, label_num=label_num, beta=beta, ignore_label=ignore_label
    )
    return summary[2], summary[3]


def f1_score(
    y: Variable | NdArray, t: Variable | NdArray, label_num=None, ignore_label=-1
) -> tuple[Variable, Variable]:
    """Per-class F1 score and support; see :func:`classification_summary`.

    Returns:
        tuple of Variable: ``(f1_score, support)``.

    """
    summary = classification_summary(
        y, t, label_num=label_num, beta=1.0, ignore_label=ignore_label
    )
    return summary[2], summary[3]
