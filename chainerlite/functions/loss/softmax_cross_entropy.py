"""Cross entropy of softmax activations and labels (or soft targets)."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite import variable
from chainerlite._kernels import sce
from chainerlite.backends import cuda
from chainerlite.functions.activation import _kernels as _softmax_kernels
from chainerlite.functions.array import broadcast
from chainerlite.functions.array import reshape
from chainerlite.functions.loss import _count
from chainerlite.functions.loss import _kernels
from chainerlite.functions.math import exponential
from chainerlite.functions.math import sum as sum_mod
from chainerlite.utils import type_check
from chainerlite.utils._chainer_errors import IndexValueError

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


def _check_class_weight(class_weight):
    if class_weight is None:
        return
    if isinstance(class_weight, variable.Variable):
        raise ValueError(
            'class_weight should be a numpy.ndarray or cupy.ndarray, not a Variable'
        )
    if class_weight.ndim != 1:
        raise ValueError('class_weight.ndim should be 1')
    if class_weight.dtype.kind != 'f':
        raise ValueError("the dtype of class_weight should be of kind 'f'")


def _check_labels(labels, n_class, ignore_label):
    """Raises IndexValueError unless every label is a class.

    A ValueError, and the IndexError Chainer 7.8.1 fails with where it
    indexes the class axis with a label too large.

    Args:
        labels: The labels with those equal to ``ignore_label`` replaced
            by ``0``.
        n_class (int): Number of classes.
        ignore_label (int): For the message.
    """
    if labels.size == 0:
        return
    low, high = int(labels.min()), int(labels.max())
    if low >= 0 and high < n_class:
        return
    raise IndexValueError(
        'softmax_cross_entropy: each label `t` must satisfy '
        '`0 <= t < x.shape[1]` (x.shape[1] is {}) or `t == {}` '
        '(ignore_label), but label {} is given'.format(
            n_class, ignore_label, low if low < 0 else high
        )
    )


def _log_softmax(xp, x):
    shifted = x - x.max(axis=1, keepdims=True)
    return shifted - xp.log(xp.exp(shifted).sum(axis=1, keepdims=True))


def _trailing_size(x):
    # the size of the axes after the class axis
    return x.size // max(x.shape[0] * x.shape[1], 1)


def _class_axis_shape(ndim, n_classes):
    """Shape that puts a vector of class values along axis 1."""
    return (1, n_classes) + (1,) * (ndim - 2)


class SoftmaxCrossEntropy(function_node.FunctionNode):
    """Softmax activation followed by a cross entropy loss.

    The loss of one sample is written :math:`-\\sum_c w_c \\log y_c` with
    weights :math:`w` built from the target (the one-hot label times its
    class weight, or the soft target), so the gradient is
    :math:`y \\sum_c w_c - w`.
    """

    _stats = None  # (max, sum of exponentials) of the fused GPU path
    _gpu_weight = None  # the class weights of x's dtype on the GPU path
    _cpu_stats = None  # what the compiled CPU gradient needs (sce_kernels)
    # With double backprop, hard labels and reduce='mean', the node gives
    # the losses of the samples already scaled and the function sums them
    # (as Chainer builds that loss: its last node is a sum)
    _sum_outside = False
    _y = _t = None
    soft_target = False  # Chainer's flag: set by a forward on soft targets
    # added to a soft target under the log of its KL divergence (Chainer's
    # attribute; the GPU kernel uses this default)
    eps = 1e-7

    def __init__(
        self,
        normalize=True,
        cache_score=True,
        class_weight=None,
        ignore_label=-1,
        reduce='mean',
        soft_target_loss='cross-entropy',
        enable_double_backprop=False,
    ):
        _check_class_weight(class_weight)
        if reduce not in ('mean', 'no'):
            raise ValueError(
                "only 'mean' and 'no' are valid for 'reduce', but '%s' is "
                'given' % reduce
            )
        if soft_target_loss not in ('cross-entropy', 'kl-divergence'):
            raise ValueError(
                "soft_target_loss must be 'cross-entropy' or 'kl-divergence'."
            )
        self.normalize = normalize
        self.cache_score = cache_score and not enable_double_backprop
        self.class_weight = class_weight
        self.ignore_label = ignore_label
        self.reduce = reduce
        self.soft_target_loss = soft_target_loss
        self.enable_double_backprop = enable_double_backprop

    @property
    def y(self):
        """Chainer's attribute: after a forward with ``cache_score``, the
        softmax of ``x`` along axis 1 (computed when read where the forward
        kept other statistics), else None."""
        if self._y is not None:
            return self._y
        if not self.cache_score or self._t is None:
            return None
        x = self.get_retained_inputs()[0].array
        xp = backend.get_array_module(x)
        return xp.exp(_log_softmax(xp, x))

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x', 't'))
        x_type, t_type = in_types
        # The types Chainer 7.8.1's check fails with: IndexError where it
        # indexes the first axis of a 0-d input or label (its double-backprop
        # path checks in log_softmax first), RuntimeError (a type-check
        # variable read as a bool) for any other failure.
        zero_dim = 0 in (type_check.eval(x_type.ndim), type_check.eval(t_type.ndim))
        label = type_check.eval(t_type.dtype.kind) == 'i'
        indexing = zero_dim and label and not self.enable_double_backprop
        with type_check.invalid_as(IndexError if indexing else RuntimeError):
            if type_check.eval(t_type.dtype.kind) == 'f':
                type_check.expect(
                    x_type.dtype.kind == 'f',
                    x_type.ndim >= 2,
                    x_type.shape == t_type.shape,
                )
            else:
                type_check.expect(
                    x_type.dtype.kind == 'f',
                    t_type.dtype.kind == 'i',
                    t_type.ndim == x_type.ndim - 1,
                )
                # apart: the light-mode check reads real shapes
                type_check.expect(
                    x_type.shape[0] == t_type.shape[0],
                    x_type.shape[2:] == t_type.shape[1:],
                )

    def forward(self, inputs):
        x, t = inputs
        xp = backend.get_array_module(x)
        self.retain_inputs((0, 1))  # both, as Chainer's node keeps them
        soft = t.dtype.kind == 'f'
        if soft:
            self.soft_target = True
        self._sum_outside = self.enable_double_backprop and self.reduce == 'mean'
        self._sum_outside &= not soft
        if soft and self.class_weight is not None:
            raise NotImplementedError(
                'softmax_cross_entropy: class_weight is not supported with soft targets'
            )
        if self.class_weight is not None and self.class_weight.shape[0] != x.shape[1]:
            raise ValueError('class_weight.shape[0] should be x.shape[1]')
        if xp is cuda.cupy:
            return (self._forward_gpu(x, t),)
        loss = self._forward_compiled(x, t)
        if loss is not None:
            return (loss,)

        log_y = _log_softmax(xp, x)
        self._y = xp.exp(log_y) if self.cache_score else None
        self._t = t
        weights = self._target_weights(xp, x, t)
        # kept for backward along with the score (same size, same option)
        self._weights = weights if self.cache_score else None
        loss = -(weights * log_y).sum(axis=1)
        if soft:
            count = x.size // x.shape[1]
            if self.soft_target_loss == 'kl-divergence':
                # Chainer's log(t + eps): a zero target adds nothing
                loss += (weights * xp.log(weights + x.dtype.type(self.eps))).sum(axis=1)
        elif self.normalize:
            count = int((t != self.ignore_label).sum())
        else:
            count = len(x)
        return (self._reduce(loss, count, x.dtype),)

    def _forward_compiled(self, x, t):
        # The compiled loops (_kernels/sce.pyx) of the common case: a
        # 2-D NumPy x, hard labels, no class weights, cache_score without
        # double backprop. They keep two values per row for the gradient
        # instead of y and the one-hot weights. None where they do not
        # apply or a label is out of range (the general code raises).
        if self.class_weight is not None or not self.cache_score:
            return None
        if self.reduce == 'no':
            mode = 0
        else:
            mode = 1 if self.normalize else 2
        out = sce.sce_forward(x, t, self.ignore_label, mode)
        if out is None:
            return None
        loss, self._cpu_stats, self._coeff = out
        self._y, self._t, self._weights = None, t, None
        return loss

    def _reduce(self, loss, count, dtype):
        self._coeff = None
        if self.reduce == 'mean':
            self._coeff = 1.0 / max(count, 1)
            if self._sum_outside:
                loss = loss * dtype.type(self._coeff)
            else:
                loss = _count.scaled_sum(loss, self._coeff, dtype)
        return utils.force_array(loss, dtype)

    def _forward_gpu(self, x, t):
        # the loss of each sample from its maximum and its sum of
        # exponentials along the class axis, fused
        cupy = cuda.cupy
        x = cupy.ascontiguousarray(x)
        m = x.max(axis=1, keepdims=True)
        s = _softmax_kernels.sum_exp_shifted(x, m, axis=1, keepdims=True)
        self._y, self._t, self._weights, self._stats = None, t, None, (m, s)
        if t.dtype.kind == 'f':
            t = t.astype(x.dtype, copy=False)
            self._t = t
            kl = self.soft_target_loss == 'kl-divergence'
            kernel = _kernels.sce_soft_kl_fwd if kl else _kernels.sce_soft_fwd
            loss = kernel(x, m, s, t, axis=1)
            return self._reduce(loss, x.size // x.shape[1], x.dtype)
        valid = t != self.ignore_label
        _check_labels(cupy.where(valid, t, 0), x.shape[1], self.ignore_label)
        args = (t, m.reshape(t.shape), s.reshape(t.shape), x)
        if self.class_weight is None:
            loss = _kernels.sce_fwd(*args, *self._label_params(x))
        else:
            weight = backend.move_array_like(self.class_weight, x)
            self._gpu_weight = weight.astype(x.dtype, copy=False)
            loss = _kernels.sce_weighted_fwd(
                *args, self._gpu_weight, *self._label_params(x)
            )
        count = int(valid.sum()) if self.normalize else len(x)
        return self._reduce(loss, count, x.dtype)

    def _label_params(self, x):
        # the trailing parameters of the hard-label kernels
        return x.shape[1], _trailing_size(x), self.ignore_label

    def _target_weights(self, xp, x, t):
        """The weights ``w`` of ``log y`` in the loss, of the shape of x."""
        if t.dtype.kind == 'f':
            return t.astype(x.dtype, copy=False)
        valid = t != self.ignore_label
        label = xp.where(valid, t, 0)
        _check_labels(label, x.shape[1], self.ignore_label)
        classes = xp.arange(x.shape[1]).reshape(_class_axis_shape(x.ndim, x.shape[1]))
        weights = (classes == xp.expand_dims(label, 1)).astype(x.dtype)
        scale = valid.astype(x.dtype)
        if self.class_weight is not None:
            class_weight = backend.move_array_like(self.class_weight, x)
            scale *= class_weight.astype(x.dtype)[label]
        return weights * xp.expand_dims(scale, 1)

    def backward(self, indexes, grad_outputs):
        x = self.get_retained_inputs()[0]
        (gloss,) = grad_outputs
        if not self.enable_double_backprop:
            grad = _SoftmaxCrossEntropyGrad_NoDoubleBackprop(self)
            return grad.apply((x, gloss))[0], None
        xp = x.xp
        weights = self._target_weights(xp, x.array, self._t)
        weight_sum = weights.sum(axis=1, keepdims=True)
        shifted = x - xp.broadcast_to(x.array.max(axis=1, keepdims=True), x.shape)
        e = exponential.exp(shifted)
        y = e / broadcast.broadcast_to(sum_mod.sum(e, axis=1, keepdims=True), x.shape)
        if self._coeff is None or self._sum_outside:
            gloss = reshape.reshape(gloss, x.shape[:1] + (1,) + x.shape[2:])
        if self._coeff is not None:
            gloss = gloss * self._coeff
        gx = broadcast.broadcast_to(gloss, x.shape) * (
            y * xp.broadcast_to(weight_sum, x.shape) - weights
        )
        return gx, None


class _SoftmaxCrossEntropyGrad_NoDoubleBackprop(function_node.FunctionNode):
    """Gradient of softmax cross entropy: ``(x, gloss)`` to ``gx``; it
    cannot be differentiated.

    Its forward reads what the forward of ``loss`` (the
    :class:`SoftmaxCrossEntropy` node) kept: the statistics of the compiled
    CPU loops or of the fused GPU kernels, else the softmax and the target
    weights (computed again when they were not cached).
    """

    def __init__(self, loss):
        self.loss = loss

    def forward(self, inputs):
        x, gloss = inputs
        f = self.loss
        if f._cpu_stats is not None:
            # None for a gradient the compiled loops do not take
            gx = sce.sce_backward(x, f._cpu_stats, gloss, f._coeff)
            if gx is not None:
                return (gx,)
        elif f._stats is not None:
            return (self._forward_gpu(x, gloss),)
        xp = backend.get_array_module(x)
        weights = f._weights
        if weights is None:
            weights = f._target_weights(xp, x, f._t)
        y = f._y
        if y is None:
            y = xp.exp(_log_softmax(xp, x))
        if f._coeff is None:
            gloss = xp.expand_dims(gloss, 1)
        else:
            gloss = gloss * gloss.dtype.type(f._coeff)
        gx = gloss * (y * weights.sum(axis=1, keepdims=True) - weights)
        return (utils.force_array(gx, x.dtype),)

    def _forward_gpu(self, x, gloss):
        # one fused kernel after the fused GPU forward
        f = self.loss
        m, s = f._stats
        shape = x.shape[:1] + (1,) + x.shape[2:]
        if f._coeff is None:
            g = gloss.reshape(shape)
        else:
            g = gloss * gloss.dtype.type(f._coeff)
        t = f._t
        if t.dtype.kind == 'f':
            p_sum = t.sum(axis=1, keepdims=True)
            return _kernels.sce_soft_bwd(x, m, s, t, p_sum, g)
        if f._gpu_weight is None:
            return _kernels.sce_bwd(x, m, s, t.reshape(shape), g, *f._label_params(x))
        return _kernels.sce_weighted_bwd(
            x, m, s, t.reshape(shape), g, f._gpu_weight, *f._label_params(x)
        )

    def backward(self, indexes, grad_outputs):
        raise RuntimeError(
            'softmax_cross_entropy was called with '
            'enable_double_backprop=False, but its gradient is being '
            'differentiated; pass enable_double_backprop=True to do so.'
        )


def softmax_cross_entropy(
    x: Variable | NdArray,
    t: Variable | NdArray,
    normalize=True,
    cache_score=True,
    class_weight=None,
    ignore_label=-1,
    reduce='mean',
    enable_double_backprop=False,
    soft_target_loss='cross-entropy',
) -> Variable:
    """Cross entropy loss of pre-softmax activations.

    The softmax is taken along the second axis of ``x``; for a label
    :math:`t_n` the loss of a sample is :math:`-\\log y_{n t_n}` where
    :math:`y = \\mathrm{softmax}(x)`. When ``x`` has more than two axes, the
    softmax is replicated over the trailing axes and every position has a
    label.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Unnormalized log
            probabilities of shape ``(N, C, d_1, ...)`` and a floating point
            dtype: ``N`` samples of ``C`` classes.
        t (Variable or numpy.ndarray or cupy.ndarray): Signed integer labels
            of shape ``(N, d_1, ...)``, each in ``[0, C)`` or equal to
            ``ignore_label``. If it has a floating point dtype, it holds soft
            targets (a probability distribution over the classes for each
            sample) and has the shape of ``x``. ``t`` gets no gradient.
        normalize (bool): With hard labels and ``reduce='mean'``, divide the
            summed loss by the number of labels that are not ignored if
            ``True``, by ``N`` if ``False``. Soft-target losses are averaged
            over samples and positions.
        cache_score (bool): Keep the softmax computed in forward for the
            backward pass (faster, more memory). It is not used when
            ``enable_double_backprop`` is ``True``.
        class_weight (numpy.ndarray or cupy.ndarray): Weights of shape
            ``(C,)`` multiplied to the log-softmax of each class before the
            loss is computed; ``None`` for no weighting. It is not supported
            with soft targets (:class:`NotImplementedError`).
        ignore_label (int): Label value that marks an ignored sample (its
            loss is zero and it is not counted).
        reduce (str): ``'mean'`` returns the normalized sum (see
            ``normalize``), ``'no'`` returns the loss of each sample (zero
            for an ignored one). Other values raise :class:`ValueError`.
        enable_double_backprop (bool): If ``True``, the gradient is built so
            that it can be differentiated again. If ``False`` (faster),
            differentiating the gradient raises :class:`RuntimeError`.
        soft_target_loss (str): Loss of soft targets: ``'cross-entropy'``
            (:math:`-\\sum_c t_c \\log y_c`) or ``'kl-divergence'``
            (:math:`\\sum_c t_c (\\log t_c - \\log y_c)`). Other values raise
            :class:`ValueError`.

    Returns:
        Variable: A scalar if ``reduce`` is ``'mean'``, else the losses of
        the shape of ``t`` (of ``x`` without its second axis for soft
        targets); of the dtype of ``x``.

    Raises:
        ValueError: If a label is out of range (below ``0`` or not below
            ``x.shape[1]``) and is not ``ignore_label``; also an
            :class:`IndexError`, as in Chainer for a label too large.
            Chainer checks negative labels only in debug mode; chainerlite
            always does, since such a label would otherwise count in the
            mean with a loss of zero.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[-1, 0, 1, 2], [2, 0, 1, -1]], np.float32)
        >>> t = np.array([3, 0], np.int32)
        >>> round(float(F.softmax_cross_entropy(x, t).array), 4)
        0.4402
        >>> F.softmax_cross_entropy(x, t, reduce='no').array.round(4)
        array([0.4402, 0.4402], dtype=float32)

    """
    func = SoftmaxCrossEntropy(
        normalize,
        cache_score,
        class_weight,
        ignore_label,
        reduce,
        soft_target_loss,
        enable_double_backprop,
    )
    loss = func.apply((x, t))[0]
    return sum_mod.sum(loss) if func._sum_outside else loss
