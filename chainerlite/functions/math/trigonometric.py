"""Elementwise trigonometric functions and their inverses."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite.functions import _grad_of
from chainerlite.functions.array import cast
from chainerlite.functions.array import sum_to as sum_to_module
from chainerlite.functions.math import sqrt
from chainerlite.functions.math import square
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class _UnaryTrigonometric(function_node.FunctionNode):
    """Base of the one-input nodes: ``name`` is the label and the ufunc."""

    name = None

    @property
    def label(self):
        return self.name

    check_type_forward = type_check.declare_kinds(x='f')

    def forward(self, inputs):
        (x,) = inputs
        xp = backend.get_array_module(x)
        self.retain_inputs((0,))
        return (utils.force_array(getattr(xp, self.name)(x)),)


class Sin(_UnaryTrigonometric):
    """Elementwise sine."""

    name = 'sin'

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        return (grad_outputs[0] * cos(x),)


class Cos(_UnaryTrigonometric):
    """Elementwise cosine."""

    name = 'cos'

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        return (-grad_outputs[0] * sin(x),)


class Tan(_UnaryTrigonometric):
    """Elementwise tangent."""

    name = 'tan'

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        # Chainer's nodes (hooks see them): gy / square(cos(x))
        return (grad_outputs[0] / square.square(cos(x)),)


class Arcsin(_UnaryTrigonometric):
    """Elementwise inverse sine."""

    name = 'arcsin'

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        # 1 / sqrt: NaN at |x| = inf as in Chainer (a power -0.5 gives 0)
        return (grad_outputs[0] / sqrt.sqrt(1.0 - x * x),)


class Arccos(_UnaryTrigonometric):
    """Elementwise inverse cosine."""

    name = 'arccos'

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        # 1 / sqrt: NaN at |x| = inf as in Chainer (a power -0.5 gives 0)
        return (-grad_outputs[0] / sqrt.sqrt(1.0 - x * x),)


class Arctan(_UnaryTrigonometric):
    """Elementwise inverse tangent."""

    name = 'arctan'

    def backward(self, indexes, grad_outputs):
        (x,) = self.get_retained_inputs()
        return (grad_outputs[0] / (x * x + 1.0),)


class Arctan2(function_node.FunctionNode):
    """Elementwise arctangent of ``x1 / x2`` choosing the quadrant."""

    @property
    def label(self):
        return 'arctan2'

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x1', 'x2'))
        # as Chainer's: any two float dtypes, the output in NumPy's
        # promotion of them
        type_check.expect(in_types[0].dtype.kind == 'f', in_types[1].dtype.kind == 'f')
        type_check.expect_broadcast_shapes(in_types[0].shape, in_types[1].shape)

    def forward(self, inputs):
        x1, x2 = inputs
        xp = backend.get_array_module(x1, x2)
        self.retain_inputs((0, 1))
        return (utils.force_array(xp.arctan2(x1, x2)),)

    def backward(self, indexes, grad_outputs):
        x1, x2 = self.get_retained_inputs()
        # computed in the output's dtype, each gradient in its input's
        dtype = grad_outputs[0].dtype
        a, b = (cast.as_dtype(v, dtype) for v in (x1, x2))
        gy_over_sqnorm = grad_outputs[0] / (a * a + b * b)
        gx1 = sum_to_module.sum_to(gy_over_sqnorm * b, x1.shape)
        gx2 = sum_to_module.sum_to(-gy_over_sqnorm * a, x2.shape)
        return cast.as_dtype(gx1, x1.dtype), cast.as_dtype(gx2, x2.dtype)


def sin(x: Variable | NdArray) -> Variable:
    """Elementwise sine function.

    .. math::
        y_i = \\sin x_i

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype, in radians.

    Returns:
        Variable: Output variable with the shape and dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> F.sin(np.array([0., np.pi / 2], np.float32)).array
        array([0., 1.], dtype=float32)

    """
    return Sin().apply((x,))[0]


def cos(x: Variable | NdArray) -> Variable:
    """Elementwise cosine function.

    .. math::
        y_i = \\cos x_i

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype, in radians.

    Returns:
        Variable: Output variable with the shape and dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> F.cos(np.array([0., np.pi], np.float32)).array
        array([ 1., -1.], dtype=float32)

    """
    return Cos().apply((x,))[0]


def tan(x: Variable | NdArray) -> Variable:
    """Elementwise tangent function.

    .. math::
        y_i = \\tan x_i

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype, in radians.

    Returns:
        Variable: Output variable with the shape and dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> F.tan(np.array([0., np.pi / 4], np.float32)).array
        array([0., 1.], dtype=float32)

    """
    return Tan().apply((x,))[0]


def arcsin(x: Variable | NdArray) -> Variable:
    """Elementwise inverse sine function.

    .. math::
        y_i = \\arcsin x_i

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype, in ``[-1, 1]`` (NaN outside).

    Returns:
        Variable: Angles in radians, in ``[-pi/2, pi/2]``, with the shape and
        dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> F.arcsin(np.array([0., 1.])).array / np.pi
        array([0. , 0.5])

    """
    return Arcsin().apply((x,))[0]


def arccos(x: Variable | NdArray) -> Variable:
    """Elementwise inverse cosine function.

    .. math::
        y_i = \\arccos x_i

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype, in ``[-1, 1]`` (NaN outside).

    Returns:
        Variable: Angles in radians, in ``[0, pi]``, with the shape and dtype
        of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> F.arccos(np.array([1., -1.])).array / np.pi
        array([0., 1.])

    """
    return Arccos().apply((x,))[0]


def arctan(x: Variable | NdArray) -> Variable:
    """Elementwise inverse tangent function.

    .. math::
        y_i = \\arctan x_i

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input of a floating
            point dtype.

    Returns:
        Variable: Angles in radians, in ``(-pi/2, pi/2)``, with the shape and
        dtype of ``x``.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> F.arctan(np.array([0., 1.])).array / np.pi
        array([0.  , 0.25])

    """
    return Arctan().apply((x,))[0]


def arctan2(x1: Variable | NdArray, x2: Variable | NdArray) -> Variable:
    """Elementwise arctangent function with two arguments.

    It gives the angle of the point ``(x2, x1)``, in the quadrant given by
    the signs of both inputs.

    .. math::
        y_i = \\arctan \\frac{x_{1,i}}{x_{2,i}}

    Args:
        x1 (Variable or numpy.ndarray or cupy.ndarray): Y-coordinates, of a
            floating point dtype.
        x2 (Variable or numpy.ndarray or cupy.ndarray): X-coordinates, of the
            dtype of ``x1``. The shapes of ``x1`` and ``x2`` are broadcast
            together.

    Returns:
        Variable: Angles in radians, in ``[-pi, pi]``, with the broadcast
        shape and the dtype of the inputs.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> y = F.arctan2(np.array([1., 1.]), np.array([1., -1.]))
        >>> y.array / np.pi
        array([0.25, 0.75])

    """
    return Arctan2().apply((x1, x2))[0]


class _UnaryGrad(_grad_of.GradOf):
    """Gradient of a one-input function ``_of`` (its backward declares
    it), applied to ``(x, gy)``: Chainer's ``SinGrad`` and its kind."""

    _of = None

    def gradients(self, xs):
        return _grad_of.grads_of(type(self)._of, xs[:1], xs[1])


class SinGrad(_UnaryGrad):
    """Gradient of :func:`sin`, ``gy * cos(x)``, applied to ``(x, gy)``."""

    _of = staticmethod(sin)


class CosGrad(_UnaryGrad):
    """Gradient of :func:`cos`, ``-gy * sin(x)``, applied to ``(x, gy)``."""

    _of = staticmethod(cos)


class ArcsinGrad(_UnaryGrad):
    """Gradient of :func:`arcsin`, ``gy / sqrt(1 - x^2)``, applied to
    ``(x, gy)``."""

    _of = staticmethod(arcsin)


class ArccosGrad(_UnaryGrad):
    """Gradient of :func:`arccos`, ``-gy / sqrt(1 - x^2)``, applied to
    ``(x, gy)``."""

    _of = staticmethod(arccos)


class ArctanGrad(_UnaryGrad):
    """Gradient of :func:`arctan`, ``gy / (1 + x^2)``, applied to
    ``(x, gy)``."""

    _of = staticmethod(arctan)


class Arctan2Grad(_grad_of.GradOf):
    """Gradients of :func:`arctan2` at ``x1`` and ``x2``, applied to
    ``(x1, x2, gy)``."""

    def gradients(self, xs):
        return _grad_of.grads_of(arctan2, xs[:2], xs[2])
