"""Coefficient of determination of a regression."""

from chainerlite import backend
from chainerlite import function_node
from chainerlite.utils import type_check


class R2_score(function_node.FunctionNode):
    """Coefficient of determination (no gradient)."""

    def __init__(self, sample_weight, multioutput):
        if sample_weight is not None:
            raise NotImplementedError('r2_score: sample_weight is not supported')
        if multioutput not in ('uniform_average', 'raw_values'):
            raise ValueError(
                "r2_score: multioutput must be 'uniform_average' or "
                "'raw_values', not {!r}".format(multioutput)
            )
        self.multioutput = multioutput

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('pred', 'true'))
        pred_type, true_type = in_types
        type_check.expect(
            pred_type.dtype.kind == 'f',
            true_type.dtype.kind == 'f',  # a mix scores in pred's dtype
            pred_type.shape == true_type.shape,
        )

    def forward(self, inputs):
        pred, true = inputs
        # Both inputs kept, as Chainer's (an old-style Function) keeps them.
        self.retain_inputs((0, 1))
        xp = backend.get_array_module(pred)
        residual = ((pred - true) ** 2).sum(axis=0)
        total = ((true - true.mean(axis=0)) ** 2).sum(axis=0)
        # A constant target has no variance to explain: its column scores 0
        # (and counts in the average, as in Chainer).
        constant = total == 0
        score = xp.where(constant, 0, 1 - residual / xp.where(constant, 1, total))
        score = score.astype(pred.dtype, copy=False)
        if self.multioutput == 'uniform_average':
            score = score.mean()
        return (xp.asarray(score),)


def r2_score(pred, true, sample_weight=None, multioutput='uniform_average'):
    """Computes the coefficient of determination :math:`R^2`.

    .. math::
        R^2 = 1 - \\frac{\\sum_i (\\hat{y}_i - y_i)^2}
                        {\\sum_i (y_i - \\bar{y})^2},

    summed over the first axis, for each output. An output whose target is
    constant scores 0.

    Args:
        pred (Variable or numpy.ndarray or cupy.ndarray): Predictions.
        true (Variable or numpy.ndarray or cupy.ndarray): Targets, of the
            shape and dtype of ``pred``.
        sample_weight: Not supported; must be ``None``.
        multioutput (str): ``'uniform_average'`` averages the scores of the
            outputs (0 if any target is constant); ``'raw_values'`` returns
            one score per output.

    Returns:
        Variable: A scalar, or an array of shape ``pred.shape[1:]`` with
        ``'raw_values'``; of ``pred``'s dtype.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> true = np.array([1, 2, 3, 4], np.float32)
        >>> pred = np.array([1, 2, 3, 5], np.float32)
        >>> round(float(F.r2_score(pred, true).array), 4)
        0.8

    """
    return R2_score(sample_weight, multioutput).apply((pred, true))[0]
