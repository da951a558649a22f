"""Shared pieces of the converters: constants, shapes, opset switches."""

import numpy as np

from chainerlite.onnx import onnx_helper


def in_shape(func, i=0):
    """Shape of the ``i``-th input of ``func``."""
    return tuple(func.inputs[i].shape)


def in_dtype(func, i=0):
    """NumPy dtype of the ``i``-th input of ``func``."""
    return np.dtype(func.inputs[i].dtype)


def const(context, value, name, dtype=None):
    """Adds ``value`` as a Constant node; returns its name."""
    array = np.asarray(value, dtype=dtype)
    return context.add_const(array, name)


def int64s(context, values, name):
    """A 1-d int64 Constant (shapes, axes, pads, repeats)."""
    return const(context, list(values), name, np.int64)


def norm_axis(axis, ndim):
    """``axis`` made non-negative for a rank-``ndim`` array."""
    return axis + ndim if axis < 0 else axis


def transpose_pair(axis, ndim):
    """The permutation swapping ``axis`` with the last axis."""
    perm = list(range(ndim))
    perm[axis], perm[-1] = perm[-1], perm[axis]
    return perm


def single(op, input_names, output_names, **attrs):
    """One node of type ``op``."""
    return (onnx_helper.make_node(op, input_names, output_names, **attrs),)


def const_operand_nodes(op, func, input_names, output_names, context, swap=False):
    """``op(x, c)`` (``op(c, x)`` with ``swap``) for a node holding ``value``."""
    c = const(context, func.value, 'value', in_dtype(func))
    names = [c, input_names[0]] if swap else [input_names[0], c]
    return single(op, names, output_names)
