"""chainerlite: Chainer's define-by-run API on a compiled graph core.

``import chainerlite as chainer`` runs code written for Chainer 7.8.1.
"""
import sys as _sys

from chainerlite import configuration  # NOQA
from chainerlite import backend  # NOQA
from chainerlite import backends  # NOQA
from chainerlite.backends import cuda  # NOQA  (Chainer's old alias)
from chainerlite import function  # NOQA
from chainerlite import function_hook  # NOQA
from chainerlite import function_node  # NOQA
from chainerlite import variable  # NOQA
from chainerlite import utils  # NOQA
from chainerlite import initializers  # NOQA
from chainerlite import functions  # NOQA
from chainerlite import function_hooks  # NOQA
from chainerlite import link  # NOQA
from chainerlite import links  # NOQA
from chainerlite import gradient_check  # NOQA
from chainerlite import computational_graph  # NOQA
from chainerlite import serializer  # NOQA
from chainerlite import serializers  # NOQA
from chainerlite import optimizer  # NOQA
from chainerlite import optimizers  # NOQA
from chainerlite import optimizer_hooks  # NOQA
from chainerlite import reporter  # NOQA
from chainerlite import dataset  # NOQA
from chainerlite import datasets  # NOQA
from chainerlite import iterators  # NOQA
from chainerlite import distributions  # NOQA
from chainerlite import graph_optimizations  # NOQA

from chainerlite._core import backward, grad  # NOQA
from chainerlite._core import get_function_hooks  # NOQA
from chainerlite.configuration import config, global_config, using_config  # NOQA
from chainerlite.distribution import cross_entropy, Distribution, kl_divergence, register_kl  # NOQA
from chainerlite.function import Function, force_backprop_mode, no_backprop_mode  # NOQA
from chainerlite.function_hook import FunctionHook  # NOQA
from chainerlite.function_node import FunctionNode  # NOQA
from chainerlite.graph_optimizations.static_graph import static_code, static_graph  # NOQA
from chainerlite.link import Chain, ChainList, Link  # NOQA
from chainerlite.sequential import Sequential  # NOQA
from chainerlite.reporter import Reporter, report, report_scope  # NOQA
from chainerlite.variable import Parameter, Variable, as_array, as_variable  # NOQA

__version__ = '0.1.0'

# `import chainerlite.cuda` gives the same module, as in Chainer.
_sys.modules[__name__ + '.cuda'] = cuda


def is_debug():
    """Returns True if the debug mode is on in this thread."""
    return bool(config.debug)


def set_debug(debug):
    """Turns the debug mode on or off (globally)."""
    global_config.debug = debug


def get_dtype(dtype=None):
    """Returns ``dtype`` as a numpy dtype, or ``config.dtype`` when None."""
    import numpy
    return numpy.dtype(config.dtype if dtype is None else dtype)
