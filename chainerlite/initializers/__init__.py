"""Initializers: objects that fill parameter arrays with initial values."""

import numpy

import chainerlite
from chainerlite import backend
from chainerlite.backends import cuda
from chainerlite.initializers.constant import Constant  # NOQA
from chainerlite.initializers.constant import Identity  # NOQA
from chainerlite.initializers.constant import NaN  # NOQA
from chainerlite.initializers.constant import One  # NOQA
from chainerlite.initializers.constant import Zero  # NOQA
from chainerlite.initializer import get_fans  # NOQA
from chainerlite.initializer import Initializer  # NOQA
from chainerlite.initializers.normal import GlorotNormal  # NOQA
from chainerlite.initializers.normal import HeNormal  # NOQA
from chainerlite.initializers.normal import LeCunNormal  # NOQA
from chainerlite.initializers.normal import Normal  # NOQA
from chainerlite.initializers.orthogonal import Orthogonal  # NOQA
from chainerlite.initializers.sampling import DownsamplingConvFilter  # NOQA
from chainerlite.initializers.sampling import UpsamplingDeconvFilter  # NOQA
from chainerlite.initializers.uniform import GlorotUniform  # NOQA
from chainerlite.initializers.uniform import HeUniform  # NOQA
from chainerlite.initializers.uniform import LeCunUniform  # NOQA
from chainerlite.initializers.uniform import Uniform  # NOQA


def generate_array(initializer, shape, xp, dtype=None, device=None):
    """Creates an array and fills it with an initializer.

    Args:
        initializer: A callable that fills an array in place, such as an
            :class:`Initializer`.
        shape (int or tuple of int): Shape of the new array.
        xp (module): ``numpy`` or ``cupy``.
        dtype: Data type of the new array. When ``None``, the initializer's
            ``dtype`` is used if it has one, else ``chainerlite.config.dtype``.
        device: Device specifier of the new array; ``None`` for the current
            device of ``xp``.

    Returns:
        numpy.ndarray or cupy.ndarray: The initialized array.

    Raises:
        ValueError: If ``dtype`` differs from the initializer's dtype, or
            ``device`` does not belong to ``xp``.

    """
    dtype_attr = getattr(initializer, 'dtype', None)
    if (
        dtype is not None
        and dtype_attr is not None
        and numpy.dtype(dtype) != numpy.dtype(dtype_attr)
    ):
        raise ValueError('dtype mismatch: {} != {}'.format(dtype, dtype_attr))
    dtype = chainerlite.get_dtype(dtype_attr if dtype is None else dtype)
    if device is not None:
        device = backend.get_device(device)
        if device.xp is not xp:
            raise ValueError('xp and device arguments are inconsistent.')
    if isinstance(device, backend.GpuDevice):
        with xp.cuda.Device(device.device_id):
            array = xp.empty(shape, dtype=dtype)
    else:
        array = xp.empty(shape, dtype=dtype)
    initializer(array)
    return array


def _check_is_initializer_like(initializer):
    # Raises TypeError unless ``initializer`` is something a link takes as
    # an initializer (Chainer's helper of the same name and message).
    if not (
        initializer is None
        or callable(initializer)
        or isinstance(initializer, (numpy.ndarray, cuda.ndarray))
        or numpy.isscalar(initializer)
    ):
        raise TypeError(
            'Initializer is of wrong type: {}. Allowed types are '
            'Initializer, ndarray and scalar.'.format(type(initializer))
        )


def _get_initializer(initializer):
    """Turns the ``initializer`` argument of a link into a callable.

    Args:
        initializer: ``None`` (:class:`LeCunNormal`), a scalar or an array
            (:class:`Constant`), or a callable that fills arrays.

    Returns:
        A callable that fills an array in place.

    Raises:
        TypeError: If ``initializer`` is none of the above.

    """
    if initializer is None:
        return LeCunNormal()
    if numpy.isscalar(initializer):
        return Constant(initializer)
    if isinstance(initializer, (numpy.ndarray, cuda.ndarray)):
        return Constant(initializer)
    if not callable(initializer):
        raise TypeError('invalid type of initializer: {}'.format(type(initializer)))
    return initializer
