"""Small array helpers shared by functions, links and the testing tools."""

import contextlib
import shutil
import tempfile

import numpy

from chainerlite import _core

# An array, never a NumPy scalar (compiled: every function's forward calls
# it); see its docstring.
force_array = _core.force_array


def force_type(dtype, value):
    """Casts ``value`` to ``dtype`` unless it already has that dtype.

    Args:
        dtype: The wanted dtype.
        value (numpy.ndarray, cupy.ndarray or scalar): The value to cast.

    Returns:
        ``value`` cast to ``dtype``: arrays stay arrays, scalars become NumPy
        scalars of that dtype.

    """
    if numpy.isscalar(value) or isinstance(value, numpy.generic):
        return numpy.dtype(dtype).type(value)
    if value.dtype != dtype:
        return value.astype(dtype, copy=False)
    return value


def size_of_shape(shape):
    """Returns the number of elements of an array of the given shape.

    Args:
        shape (tuple of int): An array shape.

    Returns:
        int: The product of the dimensions (``1`` for ``()``).

    """
    size = 1
    for dim in shape:
        size *= dim
    return int(size)


from chainerlite.utils.walker_alias import WalkerAlias  # NOQA


@contextlib.contextmanager
def tempdir(**kwargs):
    """Context manager giving a temporary directory, removed on exit.

    Args:
        ignore_errors (bool): Ignore errors while removing the directory
            (one already removed, say); ``False`` by default.
        **kwargs: Passed to :func:`tempfile.mkdtemp` (``suffix``,
            ``prefix``, ``dir``).

    Yields:
        str: The path of the directory.

    """
    ignore_errors = kwargs.pop('ignore_errors', False)
    path = tempfile.mkdtemp(**kwargs)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=ignore_errors)


from chainerlite.utils.experimental import experimental  # NOQA
from chainerlite.utils.error import _check_arrays_forward_compatible  # NOQA
from chainerlite.utils.error import _format_array_props  # NOQA
from chainerlite.utils.error import _raise_from  # NOQA
from chainerlite.utils.error import _repr_with_named_data  # NOQA
from chainerlite.utils.sparse import CooMatrix, get_order, to_coo  # NOQA
from chainerlite.utils import argument  # NOQA
from chainerlite.utils import array  # NOQA
from chainerlite.utils import cache  # NOQA
from chainerlite.utils import collections_abc  # NOQA
from chainerlite.utils import precision  # NOQA
from chainerlite.utils import conv  # NOQA
from chainerlite.utils import conv_nd  # NOQA
from chainerlite.utils.array import sum_to  # NOQA
from chainerlite.utils.conv import get_conv_outsize, get_deconv_outsize  # NOQA
from chainerlite.utils.meta import enable_final, final  # NOQA
from chainerlite.utils.nondeterministic import nondeterministic  # NOQA
