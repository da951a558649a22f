"""chainerlite: Chainer's define-by-run API on a compiled graph core.

``import chainerlite as chainer`` runs code written for Chainer 7.8.1.
"""

import os as _os
import sys as _sys

# sets OMP_WAIT_POLICY as it is imported, before the kernels load libgomp
from chainerlite import _openmp_settings  # NOQA
from chainerlite import _array_memory
from chainerlite import configuration  # NOQA
from chainerlite import backend  # NOQA
from chainerlite import backends  # NOQA
from chainerlite import device_resident  # NOQA
from chainerlite.backends import cuda  # NOQA  (Chainer's old alias)
from chainerlite.backends import intel64  # NOQA
from chainerlite import function  # NOQA
from chainerlite import function_hook  # NOQA
from chainerlite import function_node  # NOQA
from chainerlite import variable  # NOQA
from chainerlite import utils  # NOQA
from chainerlite import initializer  # NOQA
from chainerlite import initializers  # NOQA
from chainerlite import functions  # NOQA
from chainerlite import function_hooks  # NOQA
from chainerlite import link  # NOQA
from chainerlite import links  # NOQA
from chainerlite import link_hook  # NOQA
from chainerlite import link_hooks  # NOQA
from chainerlite import memory_layouts  # NOQA
from chainerlite import gradient_check  # NOQA
from chainerlite import computational_graph  # NOQA
from chainerlite import serializer  # NOQA
from chainerlite import serializers  # NOQA
from chainerlite import optimizer  # NOQA
from chainerlite import optimizers  # NOQA
from chainerlite import optimizer_hooks  # NOQA
from chainerlite import training  # NOQA
from chainerlite import reporter  # NOQA
from chainerlite import dataset  # NOQA
from chainerlite import datasets  # NOQA
from chainerlite import iterators  # NOQA
from chainerlite import distributions  # NOQA
from chainerlite import graph_optimizations  # NOQA
from chainerlite import types  # NOQA
from chainerlite import warnings  # NOQA
from chainerlite.functions import array  # NOQA  (Chainer's top level has
from chainerlite.functions.math import basic_math  # NOQA  these two modules)

from chainerlite._core import backward, grad  # NOQA
from chainerlite._core import handover as _core_handover
from chainerlite._core import get_function_hooks  # NOQA
from chainerlite._dtype import get_dtype, mixed16  # NOQA
from chainerlite._runtime_info import print_runtime_info  # NOQA
from chainerlite.backend import get_device, using_device  # NOQA
from chainerlite.backends.cuda import should_use_cudnn  # NOQA
from chainerlite.backends.cuda import should_use_cudnn_tensor_core  # NOQA
from chainerlite.device_resident import DeviceResident  # NOQA
from chainerlite.configuration import config, global_config, using_config  # NOQA
from chainerlite.functions.util.forget_tag import forget_tag  # NOQA
from chainerlite.distribution import (
    cross_entropy,
    Distribution,
    kl_divergence,
    register_kl,
)  # NOQA
from chainerlite.function import Function, force_backprop_mode, no_backprop_mode  # NOQA
from chainerlite.function import FunctionAdapter  # NOQA
from chainerlite.function_hook import FunctionHook  # NOQA
from chainerlite.function_node import FunctionNode  # NOQA
from chainerlite.graph_optimizations.static_graph import static_code, static_graph  # NOQA
from chainerlite.initializer import Initializer  # NOQA
from chainerlite.link import Chain, ChainList, Link  # NOQA
from chainerlite.link_hook import LinkHook, _get_link_hooks  # NOQA
from chainerlite.optimizer import GradientMethod, Optimizer, UpdateRule  # NOQA
from chainerlite.sequential import Sequential  # NOQA
from chainerlite.reporter import Reporter, report, report_scope  # NOQA
from chainerlite.reporter import get_current_reporter  # NOQA
from chainerlite.reporter import DictSummary, Summary  # NOQA
from chainerlite.serializer import AbstractSerializer, Deserializer, Serializer  # NOQA
from chainerlite.variable import Parameter, Variable, as_array, as_variable  # NOQA

# Every module the core calls into has handed itself down by now
# (chainerlite._core.handover); one left out is a bug of this package.
if _core_handover.missing():
    raise ImportError(
        'chainerlite: not handed down to its core: %s'
        % ', '.join(_core_handover.missing())
    )

# NumPy keeps large freed blocks for the next arrays (see _array_memory)
_array_memory.apply()

#: The Chainer API level this package implements: code written for Chainer
#: reads ``chainer.__version__`` to choose its Chainer 7 code path.
__version__ = '7.8.1'
#: chainerlite's own release (the installed distribution's version).
__chainerlite_version__ = '0.1.0'

# True silences the FutureWarning of experimental APIs (utils.experimental).
disable_experimental_feature_warning = bool(
    int(_os.environ.get('CHAINER_DISABLE_EXPERIMENTAL_FEATURE_WARNING', '0'))
)

# `import chainerlite.cuda` gives the same module, as in Chainer.
_sys.modules[__name__ + '.cuda'] = cuda


def is_debug():
    """Returns True if the debug mode is on in this thread."""
    return bool(config.debug)


def set_debug(debug):
    """Turns the debug mode on or off (globally)."""
    global_config.debug = debug


def get_array_types():
    """Returns the array types chainerlite works with.

    Returns:
        tuple of type: ``numpy.ndarray``, plus ``cupy.ndarray`` when CuPy
        is available.

    """
    import numpy

    if cuda.available:
        return numpy.ndarray, cuda.ndarray
    return (numpy.ndarray,)


def get_cpu_array_types():
    """Returns the array types that live in host memory.

    Returns:
        tuple of type: ``(numpy.ndarray,)`` (iDeep is not available).

    """
    import numpy

    return (numpy.ndarray,)


def is_arrays_compatible(arrays):
    """Tells whether arrays can be used together in one computation.

    ``None`` entries are ignored. The others must all be host arrays or all
    CuPy arrays (NumPy scalars are not arrays).

    Args:
        arrays (iterable): Arrays (or ``None``).

    Returns:
        bool: ``True`` if they are compatible (also for no arrays).

    """
    arrays = [a for a in arrays if a is not None]
    if not arrays:
        return True
    for kinds in (get_cpu_array_types(), (cuda.ndarray,)):
        if isinstance(arrays[0], kinds):
            return all(isinstance(a, kinds) for a in arrays)
    return False


def get_compute_mode():
    """Returns ``chainerlite.config.compute_mode`` (``None`` by default)."""
    return config.compute_mode


#: What ``FunctionNode.forward_chainerx`` returns to ask for the NumPy/CuPy
#: ``forward`` instead (ChainerX is never used by chainerlite).
from chainerlite._core.node import Fallback  # NOQA


class DebugMode(object):
    """Context manager turning the debug mode on or off in this thread
    (deprecated: use ``chainerlite.using_config('debug', ...)``).

    Args:
        debug (bool): The debug mode inside the ``with`` block.

    """

    def __init__(self, debug):
        import warnings as _warnings

        _warnings.warn(
            'chainer.DebugMode is deprecated. '
            'Use chainer.using_config("debug", ...) instead.',
            DeprecationWarning,
        )
        self._using = using_config('debug', debug)

    def __enter__(self):
        self._using.__enter__()

    def __exit__(self, *exc_info):
        self._using.__exit__(*exc_info)
