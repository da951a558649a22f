"""Huber loss: squared near zero, linear beyond ``delta``."""

from __future__ import annotations

import typing

import numpy

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite.functions.array import broadcast
from chainerlite.functions.array import reshape
from chainerlite.functions.array import where
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class HuberLoss(function_node.FunctionNode):
    """Huber loss."""

    def __init__(self, delta, reduce='sum_along_second_axis'):
        if reduce not in ('sum_along_second_axis', 'no'):
            raise ValueError(
                "only 'sum_along_second_axis' and 'no' are valid for "
                "'reduce', but '%s' is given" % reduce
            )
        self.delta = delta
        self.reduce = reduce

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x', 't'))
        x_type, t_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.dtype == t_type.dtype,
            x_type.shape == t_type.shape,
        )
        if self.reduce == 'sum_along_second_axis':
            # numpy's AxisError too, as Chainer 7.8.1's sum over axis 1
            with type_check.invalid_as(numpy.exceptions.AxisError):
                type_check.expect(x_type.ndim >= 2)

    def forward(self, inputs):
        x, t = inputs
        xp = backend.get_array_module(x)
        self.retain_inputs((0, 1))
        delta = x.dtype.type(self.delta)
        diff = x - t
        abs_diff = abs(diff)
        self._inside = abs_diff <= delta
        # Outside the quadratic zone the gradient is the clipped sign: delta
        # itself at an infinite difference, NaN at a NaN one (as clipping
        # the difference to [-delta, delta] gives).
        self._outside_grad = utils.force_array(xp.sign(diff) * delta, x.dtype)
        loss = xp.where(
            self._inside,
            diff * diff * x.dtype.type(0.5),
            delta * (abs_diff - delta * x.dtype.type(0.5)),
        )
        if self.reduce == 'sum_along_second_axis':
            loss = loss.sum(axis=1)
        return (utils.force_array(loss, x.dtype),)

    def backward(self, indexes, grad_outputs):
        x, t = self.get_retained_inputs()
        (gy,) = grad_outputs
        if self.reduce == 'sum_along_second_axis':
            gy = reshape.reshape(gy, x.shape[:1] + (1,) + x.shape[2:])
            gy = broadcast.broadcast_to(gy, x.shape)
        clipped = where.where(self._inside, x - t, self._outside_grad)
        gx = gy * clipped
        return tuple(gx if i == 0 else -gx for i in indexes)


def huber_loss(
    x: Variable | NdArray, t: Variable | NdArray, delta, reduce='sum_along_second_axis'
) -> Variable:
    """Huber loss function.

    For :math:`d = x - t` it computes, elementwise,

    .. math::
        L_{\\delta}(d) = \\begin{cases}
            \\frac{1}{2} d^2 & \\text{if } |d| \\le \\delta, \\\\
            \\delta \\left(|d| - \\frac{1}{2} \\delta\\right)
                & \\text{otherwise,}
        \\end{cases}

    and sums the values along the second axis unless ``reduce`` is
    ``'no'``.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype. Its shape must be ``(N, K, ...)`` when ``reduce`` is
            ``'sum_along_second_axis'``.
        t (Variable or numpy.ndarray or cupy.ndarray): Target of the shape
            and dtype of ``x``.
        delta (float): Where the loss changes from quadratic to linear.
        reduce (str): ``'sum_along_second_axis'`` sums the losses along the
            second axis; ``'no'`` returns them elementwise. Other values
            raise :class:`ValueError`.

    Returns:
        Variable: The loss, of shape ``(N, ...)`` (the shape of ``x``
        without its second axis) when ``reduce`` is
        ``'sum_along_second_axis'``, else of the shape of ``x``; of the
        dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[-2., 3.], [0.5, 5.]], np.float32)
        >>> t = np.array([[-2., 3.], [0., 2.]], np.float32)
        >>> F.huber_loss(x, t, delta=1.0).array
        array([0.   , 2.625], dtype=float32)
        >>> F.huber_loss(x, t, delta=1.0, reduce='no').array
        array([[0.   , 0.   ],
               [0.125, 2.5  ]], dtype=float32)

    """
    return HuberLoss(delta=delta, reduce=reduce).apply((x, t))[0]
