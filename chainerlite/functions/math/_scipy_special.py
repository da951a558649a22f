"""SciPy's special functions, for the functions that need them.

As in Chainer, SciPy is optional: a function that needs it raises
ImportError when it is called without SciPy (CuPy arrays use
``cupyx.scipy.special``).
"""

import importlib.util

import numpy

from chainerlite import backend

# Whether SciPy is installed (found without importing it).
SCIPY_AVAILABLE = importlib.util.find_spec('scipy') is not None


def routine(name, like, caller):
    """Returns ``scipy.special.NAME`` (or CuPy's) for arrays like ``like``.

    Args:
        name (str): Name of the special function.
        like (numpy.ndarray or cupy.ndarray): An input array.
        caller (str): The chainerlite function that needs it, for the error.

    Raises:
        ImportError: SciPy is not installed.

    """
    if backend.get_array_module(like) is not numpy:
        import cupyx.scipy.special

        return getattr(cupyx.scipy.special, name)
    try:
        import scipy.special
    except ImportError:
        raise ImportError(
            'SciPy is not available. Forward computation of {} can not be done.'.format(
                caller
            )
        )
    return getattr(scipy.special, name)
