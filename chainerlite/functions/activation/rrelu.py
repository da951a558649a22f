"""Randomized leaky rectified linear unit."""

from __future__ import annotations

import numpy
import typing

from chainerlite import backend
from chainerlite import configuration
from chainerlite import function_node
from chainerlite import utils
from chainerlite.functions.noise import _random
from chainerlite.utils import argument
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class RReLU(function_node.FunctionNode):
    """Randomized leaky rectified linear unit.

    In training mode the slopes are ``r``, or drawn from
    :math:`U(lower, upper)` in the first forward when ``r`` is ``None``; in
    test mode they are :math:`(lower + upper) / 2`. ``r`` holds the slopes
    used afterwards.
    """

    def __init__(self, lower=1.0 / 8, upper=1.0 / 3, r=None):
        if not 0.0 <= lower < 1.0:
            raise ValueError('rrelu: lower must be in the range [0, 1)')
        if not 0.0 <= upper < 1.0:
            raise ValueError('rrelu: upper must be in the range [0, 1)')
        if not lower < upper:
            raise ValueError('rrelu: lower must be less than upper')
        self.lower = lower
        self.upper = upper
        self.r = r

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        (x_type,) = in_types
        type_check.expect(x_type.dtype.kind == 'f')
        if self.r is not None:
            type_check.expect(x_type.dtype == self.r.dtype)
            if self.r.shape != type_check.eval(x_type.shape):
                raise type_check.InvalidType(
                    'r.shape == x.shape',
                    '{} != {}'.format(self.r.shape, type_check.eval(x_type.shape)),
                )

    def forward(self, inputs):
        (x,) = inputs
        xp = backend.get_array_module(x)
        if not configuration.config.train:
            self.r = xp.full(x.shape, (self.lower + self.upper) / 2, x.dtype)
        elif self.r is None:
            sample = _random.uniform(xp, x.shape, numpy.float64)
            span = self.upper - self.lower
            self.r = utils.force_array(self.lower + span * sample, x.dtype)
        slope = xp.where(x >= 0, x.dtype.type(1), self.r)
        self.retain_outputs((0,))  # as Chainer's: the backward reads its sign
        return (utils.force_array(x * slope, x.dtype),)

    def backward(self, indexes, grad_outputs):
        y = self.get_retained_outputs()[0].array
        return _RReLUGrad(y, self.r).apply(grad_outputs)


class _RReLUGrad(function_node.FunctionNode):
    """Gradient of rrelu (Chainer's node, which hooks see): ``gy`` times
    the slope of each element, 1 where the output ``y`` is not negative,
    ``r`` elsewhere. It is linear in ``gy``: its gradient is the same
    node's."""

    def __init__(self, y, r):
        self.y = y
        self.r = r

    def forward(self, inputs):
        (gy,) = inputs
        xp = backend.get_array_module(gy)
        slopes = xp.where(self.y >= 0, self.y.dtype.type(1), self.r)
        return (utils.force_array(gy * slopes),)

    def backward(self, indexes, grad_outputs):
        return _RReLUGrad(self.y, self.r).apply(grad_outputs)


def rrelu(
    x: Variable | NdArray, l=1.0 / 8, u=1.0 / 3, *, r=None, return_r=False, **kwargs
):
    """Randomized leaky rectified linear unit function.

    .. math::
        f(x) = \\begin{cases} x & (x \\ge 0) \\\\ a x & (x < 0) \\end{cases}

    In training mode the slope :math:`a` is drawn per element from
    :math:`U(l, u)` (or taken from ``r``); in test mode it is the constant
    :math:`(l + u) / 2`. See `Empirical Evaluation of Rectified Activations
    in Convolutional Network <https://arxiv.org/abs/1505.00853>`_.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.
        l (float): Lower bound of the slopes.
        u (float): Upper bound of the slopes.
        r (numpy.ndarray or cupy.ndarray): The slopes to use
            in training mode, of the shape of ``x``; drawn when ``None``.
        return_r (bool): Also return the slopes used (in test mode the
            constant ``(l + u) / 2`` of the shape of ``x``).

    Returns:
        Variable or tuple: The output of the shape and dtype of ``x``, and
        the slopes array as well if ``return_r`` is ``True``.

    Raises:
        ValueError: If ``l`` or ``u`` is outside ``[0, 1)`` or ``l >= u``,
            or Chainer's removed ``train`` argument is given (use
            ``chainerlite.using_config``).
        TypeError: If another unknown keyword argument is given.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.array([[-1, 0], [2, -3]], np.float32)
        >>> r = np.full(x.shape, 0.25, np.float32)
        >>> F.rrelu(x, r=r).array
        array([[-0.25,  0.  ],
               [ 2.  , -0.75]], dtype=float32)

    """
    if kwargs:
        argument.parse_kwargs(kwargs, train=argument.TRAIN_REMOVED)
    node = RReLU(l, u, r)
    y = node.apply((x,))[0]
    if return_r:
        return y, node.r
    return y
