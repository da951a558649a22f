"""The host device: NumPy arrays (``chainerlite.backend.CpuDevice``)."""

import numpy

from chainerlite import _backend
from chainerlite.backends import cuda
from chainerlite.backends import intel64


class CpuDevice(_backend.Device):
    """The host memory, where arrays are NumPy arrays (spec ``'@numpy'``).

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite as chainer
        >>> device = chainer.get_device('@numpy')
        >>> device, device.xp is np
        (<CpuDevice (numpy)>, True)
        >>> device.send([np.zeros(2), None])
        [array([0., 0.]), None]

    """

    xp = numpy
    supported_array_types = (numpy.ndarray,)
    name = '@numpy'

    def __repr__(self):
        return '<CpuDevice (numpy)>'

    @staticmethod
    def from_array(array):
        """Returns a CpuDevice for a NumPy array, None for anything else."""
        if isinstance(array, numpy.ndarray):
            return CpuDevice()
        return None

    def send_array(self, array):
        return _array_to_cpu(array)


def _array_to_cpu(array, stream=None):
    # One array (or None, or a scalar) as a NumPy array.
    if array is None or isinstance(array, numpy.ndarray):
        return array
    if isinstance(array, numpy.generic) or numpy.isscalar(array):
        return numpy.asarray(array)
    if isinstance(array, cuda.ndarray):
        return cuda._cupy_to_numpy(array, stream)
    if isinstance(array, intel64.mdarray):
        return numpy.asarray(array)
    raise TypeError(
        'The array sent to the CPU must be a numpy.ndarray, a '
        'cupy.ndarray, a NumPy scalar or None, not {}.'.format(type(array))
    )


def _to_cpu(arrays, stream=None):
    """Copies an array, or each array of a list or tuple, to host memory.

    NumPy arrays are returned as they are, NumPy (and Python) scalars become
    0-dimensional arrays, ``None`` stays ``None``.

    Raises:
        TypeError: If an argument is not an array (a Variable, for one).

    """
    return _backend._convert_arrays(arrays, lambda a: _array_to_cpu(a, stream))
