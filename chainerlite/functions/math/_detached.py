"""Shared body of the elementwise functions that have no gradient."""

import chainerlite
from chainerlite import backend
from chainerlite import utils


def apply_detached(routine_name, x):
    """Applies an array routine to the data of ``x``, outside the graph.

    Args:
        routine_name (str): Name of the NumPy/CuPy routine, e.g. ``'ceil'``.
        x (Variable or numpy.ndarray or cupy.ndarray): Input.

    Returns:
        Variable: The result, of the dtype of ``x``, with no creator.
    """
    if isinstance(x, chainerlite.Variable):
        x = x.array
    xp = backend.get_array_module(x)
    routine = getattr(xp, routine_name)
    return chainerlite.as_variable(utils.force_array(routine(x), x.dtype))
