"""Copy of an array to a device."""

from __future__ import annotations

import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite import variable
from chainerlite.backends import cuda
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


class Copy(function_node.FunctionNode):
    """Copy of an array from one device to another."""

    def __init__(self, in_device, out_device):
        self._in_device = in_device
        self._out_device = out_device

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))

    def forward(self, inputs):
        (x,) = inputs
        return (self._out_device.send(x),)

    def backward(self, indexes, grad_outputs):
        return Copy(self._out_device, self._in_device).apply(grad_outputs)


def copy(x: Variable | NdArray, dst) -> Variable:
    """Copies an array onto a device.

    If ``x`` already lives on ``dst``, no copy takes place and the output
    holds the array of ``x`` itself. The gradient is copied back to the
    device of ``x``. Copies work from host to host, host to GPU, GPU to GPU
    and GPU to host.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input variable.
        dst: The target device: a device object; ``'@numpy'``, ``-1``
            or ``cuda.DummyDevice`` for the host; ``'@cupy:N'`` or an int
            ``N >= 0`` for GPU ``N``.

    Returns:
        Variable: Output variable on ``dst``.

    Raises:
        ValueError: If ``dst`` is a malformed device specifier.
        TypeError: If it is of no specifier's type (an array module such as
            ``numpy`` is not one, as in Chainer).

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.arange(3, dtype=np.float32)
        >>> y = F.copy(x, -1)
        >>> type(y.array).__name__, y.array
        ('ndarray', array([0., 1., 2.], dtype=float32))

    """
    if isinstance(dst, cuda.DummyDeviceType):
        # Chainer's old spelling of the host: the copy goes to NumPy
        # whatever the current CUDA device.
        dst = -1
    try:
        out_device = backend.get_device(dst)
    except ValueError as error:
        raise ValueError('copy: {}'.format(error)) from None
    in_device = backend.get_device_from_array(variable.as_array(x))
    return Copy(in_device, out_device).apply((x,))[0]
