"""Cross entropy of sigmoid activations and binary labels."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite.functions.array import broadcast
from chainerlite.functions.loss import _count
from chainerlite.functions.loss import _logistic
from chainerlite.functions.rnn import _formula
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class SigmoidCrossEntropy(function_node.FunctionNode):
    """Sigmoid activation followed by a cross entropy loss; labels equal
    to ``ignore_label`` count for nothing."""

    ignore_label = -1
    # Chainer's attribute: the divisor of the mean, set by a forward with
    # reduce='mean'
    count = None

    def __init__(self, normalize=True, reduce='mean'):
        if reduce not in ('mean', 'no'):
            raise ValueError(
                "only 'mean' and 'no' are valid for 'reduce', but '%s' is "
                'given' % reduce
            )
        self.normalize = normalize
        self.reduce = reduce

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x', 't'))
        x_type, t_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            t_type.dtype.kind == 'i',
            x_type.shape == t_type.shape,
        )

    def forward(self, inputs):
        x, t = inputs
        xp = backend.get_array_module(x)
        # as Chainer's node: x and t are kept, backward reads both
        self.retain_inputs((0, 1))
        # the mask of the labels that count is kept for backward (None when
        # all count), the targets are taken again from the retained t
        counts = t != self.ignore_label
        n_counted = t.size if counts.all() else int(xp.count_nonzero(counts))
        valid = None if n_counted == t.size else counts.astype(x.dtype)
        self._valid = valid
        target = t.astype(x.dtype)
        if valid is not None:
            target *= valid
        loss = _logistic.softplus_array(xp, x) - x * target
        if valid is not None:
            loss *= valid
        if self.reduce == 'mean':
            count = n_counted if self.normalize else len(x)
            self.count = max(count, 1)
            loss = _count.scaled_sum(loss, 1.0 / self.count, x.dtype)
        return (utils.force_array(loss, x.dtype),)

    def backward(self, indexes, grad_outputs):
        x, t = self.get_retained_inputs()
        count = self.count if self.reduce == 'mean' else None
        grad = SigmoidCrossEntropyGrad(self.reduce, count, self._valid, t.array)
        # its formula on Variables, no node of its own: as cheap as before
        return grad.formula(x, grad_outputs[0])[0], None


class SigmoidCrossEntropyGrad(_formula.FormulaNode):
    """Gradient of :class:`SigmoidCrossEntropy`, applied to ``(x, gy)``:
    ``gy (sigmoid(x) - t)`` where ``ignore_mask`` holds (None: everywhere),
    divided by ``count`` for ``reduce='mean'``. Its backward differentiates
    that formula.

    Args:
        reduce (str): ``'mean'`` or ``'no'``.
        count (int): The divisor of the mean (the labels counted).
        ignore_mask (numpy.ndarray or cupy.ndarray or None): Where the
            labels count (booleans or 0/1 of ``x``'s shape).
        t (numpy.ndarray or cupy.ndarray): The labels.
    """

    def __init__(self, reduce, count, ignore_mask, t):
        self.reduce = reduce
        self.count = count
        self.ignore_mask = ignore_mask
        self.t = t

    def formula(self, x, gy):
        # an ignored label's target does not matter: its gradient is
        # multiplied by 0
        target = self.t.astype(x.dtype)
        if self.reduce == 'mean':
            gy = broadcast.broadcast_to(gy * (1.0 / self.count), x.shape)
        gx = gy * (_logistic.sigmoid(x) - target)
        if self.ignore_mask is not None:
            gx = gx * self.ignore_mask.astype(x.dtype)
        return (gx,)


def sigmoid_cross_entropy(
    x: Variable | NdArray, t: Variable | NdArray, normalize=True, reduce='mean'
) -> Variable:
    """Cross entropy loss of pre-sigmoid activations and binary labels.

    Each element of ``x`` is the logit of the probability that the matching
    label of ``t`` is :math:`1`:

    .. math::
        \\ell_i = -t_i \\log \\sigma(x_i) - (1 - t_i) \\log(1 - \\sigma(x_i)),

    computed stably as :math:`\\log(1 + e^{x_i}) - t_i x_i`. Elements whose
    label is ``-1`` are ignored (their loss is zero).

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Logits of shape
            ``(N, ...)`` and a floating point dtype.
        t (Variable or numpy.ndarray or cupy.ndarray): Signed integer labels
            of the shape of ``x``: ``0``, ``1``, or ``-1`` to ignore. They get
            no gradient.
        normalize (bool): With ``reduce='mean'``, if ``True`` the summed loss
            is divided by the number of labels that are not ignored; if
            ``False``, by the batch size ``N``.
        reduce (str): ``'mean'`` returns the normalized sum; ``'no'`` returns
            the elementwise losses (``normalize`` is then not used). Other
            values raise :class:`ValueError`.

    Returns:
        Variable: A scalar if ``reduce`` is ``'mean'``, else the losses of
        the shape of ``x``; of the dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[0., 2.], [-1., 0.]], np.float32)
        >>> t = np.array([[1, 1], [0, -1]], np.int32)
        >>> F.sigmoid_cross_entropy(x, t, reduce='no').array.round(4)
        array([[0.6931, 0.1269],
               [0.3133, 0.    ]], dtype=float32)

    """
    return SigmoidCrossEntropy(normalize, reduce).apply((x, t))[0]
