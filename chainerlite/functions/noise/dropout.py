"""Dropout: drops elements at random during training."""

from __future__ import annotations

import numpy
import typing

from chainerlite import backend
from chainerlite import configuration
from chainerlite import function_node
from chainerlite import utils
from chainerlite import variable
from chainerlite._kernels import dropout as dropout_kernels
from chainerlite.backends import cuda
from chainerlite.functions.noise import _kernels
from chainerlite.functions.noise import _random
from chainerlite.utils import argument
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class Dropout(function_node.FunctionNode):
    """Dropout regularization.

    After forward, ``mask`` holds the scaled mask that was applied: ``0``
    where an element was dropped, ``1 / (1 - dropout_ratio)`` elsewhere.
    ``return_mask`` (Chainer's flag that keeps its cuDNN path, which makes
    no mask, from being taken) is kept as given: every path of chainerlite
    makes the mask. On NumPy arrays the drawn mask is kept as booleans
    (a byte an element) and the scaled mask is made from them when
    ``mask`` is first read.
    """

    def __init__(self, dropout_ratio, mask=None, return_mask=False):
        if not 0.0 <= dropout_ratio < 1.0:
            raise ValueError('dropout_ratio must be in the range [0, 1)')
        self.dropout_ratio = dropout_ratio
        self.mask = mask
        self.return_mask = return_mask

    @property
    def mask(self):
        if self._mask is None and self._keep is not None:
            self._mask = _scaled(self._keep, self._scale)
        return self._mask

    @mask.setter
    def mask(self, value):
        self._mask = value
        self._keep = None  # the drawn mask, where it is kept as booleans

    check_type_forward = type_check.declare_kinds(x='f')

    def forward(self, inputs):
        (x,) = inputs
        xp = backend.get_array_module(x)
        scale = x.dtype.type(1.0 / (1.0 - self.dropout_ratio))
        if self._mask is None and xp is cuda.cupy:
            u = _random.uniform(xp, x.shape, numpy.float32)
            y, self.mask = _kernels.dropout_fwd(u, x, self.dropout_ratio, scale)
            self._scale = self.mask
            return (y,)
        if self._mask is None:
            key, threshold = _random.keep_key(self.dropout_ratio)
            out = dropout_kernels.forward(x, key, threshold, scale)
            if out is None:  # float16, or not one C-contiguous block
                keep = dropout_kernels.keep_mask(x.shape, key, threshold)
                out = utils.force_array(x * _scaled(keep, scale)), keep
            y, self._keep = out
            self._scale = scale
            return (y,)
        if self._mask.shape != x.shape:
            raise ValueError(
                'dropout: mask must have the shape of x; got {} for x of {}'.format(
                    self._mask.shape, x.shape
                )
            )
        self._scale = self._mask.astype(x.dtype, copy=False)
        return (utils.force_array(x * self._scale, x.dtype),)

    def backward(self, indexes, grad_outputs):
        return DropoutGrad(self._scale, self._keep).apply(grad_outputs)


def _scaled(keep, scale):
    # the scaled mask of the booleans keep, in the dtype of the scale
    return numpy.multiply(keep, scale, dtype=scale.dtype)


class DropoutGrad(function_node.FunctionNode):
    """Gradient of dropout: the output gradient times the scaled mask.

    It is linear in its input, so its own gradient applies it again.

    Args:
        mask (numpy.ndarray or cupy.ndarray or scalar): The scaled mask of
            the forward pass, of the dtype of the gradient (Chainer's
            argument); with ``keep``, the scale of the kept elements.
        keep (numpy.ndarray): The mask of the forward pass as booleans, or
            None where ``mask`` is the scaled mask.

    """

    def __init__(self, mask, keep=None):
        self.mask = mask
        self.keep = keep

    def forward(self, inputs):
        (gy,) = inputs
        if self.keep is None:
            return (gy * self.mask,)
        gx = dropout_kernels.backward(gy, self.keep, self.mask)
        if gx is None:
            gx = utils.force_array(gy * _scaled(self.keep, self.mask))
        return (gx,)

    def backward(self, indexes, grad_outputs):
        return DropoutGrad(self.mask, self.keep).apply(grad_outputs)


def dropout(
    x: Variable | NdArray, ratio=0.5, *, mask=None, return_mask=False, **kwargs
):
    """Drops elements of the input at random and scales the rest.

    In training mode (``chainerlite.config.train`` is ``True``), each
    element is set to zero with probability ``ratio`` and the others are
    multiplied by :math:`1 / (1 - \\mathrm{ratio})`, so that the expected
    value is unchanged. Otherwise the input is returned as it is. The random
    numbers come from the global generator of ``numpy.random`` (or
    ``cupy.random`` for CuPy arrays).

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.
        ratio (float): Probability of dropping an element, in ``[0, 1)``;
            other values raise :class:`ValueError` (in training mode).
        mask (numpy.ndarray or cupy.ndarray): A scaled mask to multiply
            ``x`` with instead of drawing one (``ratio`` is then not used),
            for example one returned with ``return_mask=True``. It must have
            the shape of ``x`` (:class:`ValueError` otherwise) and live on
            its device; it is cast to the dtype of ``x``.
        return_mask (bool): If ``True``, also return the mask.
        **kwargs: Chainer's removed ``train`` argument raises
            :class:`ValueError` (use ``chainerlite.using_config``); any other
            unknown one :class:`TypeError`.

    Returns:
        Variable or tuple: The output, with the shape and dtype of ``x``. If
        ``return_mask`` is ``True``, a tuple of it and the mask that was
        applied: an array of the shape and dtype of ``x`` holding ``0`` and
        :math:`1 / (1 - \\mathrm{ratio})`, or ``None`` outside training mode.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite
        >>> import chainerlite.functions as F
        >>> x = np.ones((2, 3), np.float32)
        >>> y, mask = F.dropout(x, 0.5, return_mask=True)
        >>> sorted(set(y.array.ravel().tolist()) | {0.0, 2.0})
        [0.0, 2.0]
        >>> bool((F.dropout(x, mask=mask).array == y.array).all())
        True
        >>> with chainerlite.using_config('train', False):
        ...     F.dropout(x).array
        array([[1., 1., 1.],
               [1., 1., 1.]], dtype=float32)

    """
    if kwargs:
        argument.parse_kwargs(kwargs, train=argument.TRAIN_REMOVED)
    if configuration.config.train:
        func = Dropout(ratio, mask, return_mask)
        out = func.apply((x,))[0]
        # the scaled mask is made only where it is asked for
        mask = func.mask if return_mask else None
    else:
        out = variable.as_variable(x)
        mask = None
    if return_mask:
        return out, mask
    return out
