"""Extraction of array elements by NumPy-style indexing."""

from __future__ import annotations

import numbers
import typing

import numpy

from chainerlite import _array_memory
from chainerlite import backend
from chainerlite import function_node
from chainerlite import utils
from chainerlite import variable
from chainerlite.utils import _chainer_errors
from chainerlite.utils import type_check

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


def _normalize_slices(slices):
    if isinstance(slices, list):
        if all(isinstance(s, numbers.Integral) for s in slices):
            slices = (slices,)
        else:
            slices = tuple(slices)
    elif not isinstance(slices, tuple):
        slices = (slices,)
    if sum(1 for s in slices if s is Ellipsis) > 1:
        # an IndexError too, as NumPy (and so Chainer 7.8.1) raises
        raise _chainer_errors.IndexValueError('get_item: only one Ellipsis is allowed')
    return slices


def _may_repeat(slices):
    """Tells whether an index may select a position more than once.

    Only integer array indices can; boolean masks, slices, ints, None and
    Ellipsis select each position at most once.
    """
    for s in slices:
        if s is None or s is Ellipsis or isinstance(s, (slice, numbers.Integral)):
            continue
        dtype = getattr(s, 'dtype', None)
        if dtype is None:
            dtype = numpy.asarray(s).dtype
        if dtype.kind != 'b':
            return True
    return False


def add_at(dst, slices, src):
    """Adds ``src`` into ``dst[slices]`` in place, summing repeated indices."""
    if not _may_repeat(slices):
        dst[slices] += src
        return
    ufunc_at = getattr(backend.get_array_module(dst).add, 'at', None)
    if ufunc_at is not None:
        # NumPy, and CuPy from v13 on (where ndarray.scatter_add is
        # deprecated).
        ufunc_at(dst, slices, src)
    else:
        import cupyx

        cupyx.scatter_add(dst, slices, src)


class GetItem(function_node.FunctionNode):
    """Extraction of array elements by indexing."""

    def __init__(self, slices):
        self.slices = _normalize_slices(slices)

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))

    def forward(self, inputs):
        (x,) = inputs
        self._in_shape = x.shape
        return (utils.force_array(x[self.slices]),)

    def backward(self, indexes, grad_outputs):
        return GetItemGrad(self.slices, self._in_shape).apply(grad_outputs)


class GetItemGrad(function_node.FunctionNode):
    """Scatters a gradient back into the positions that were indexed."""

    def __init__(self, slices, in_shape):
        self.slices = slices
        self._in_shape = in_shape

    def forward(self, inputs):
        (gy,) = inputs
        xp = backend.get_array_module(gy)
        gx = _array_memory.zeros_to_add_into(xp, self._in_shape, gy.dtype)
        add_at(gx, self.slices, gy)
        return (gx,)

    def backward(self, indexes, grad_outputs):
        return GetItem(self.slices).apply(grad_outputs)


def get_item(x: Variable | NdArray, slices) -> Variable:
    """Extracts elements of an array with NumPy-style indexing.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input variable.
        slices (int, slice, Ellipsis, None, integer array-like, boolean
            array-like or tuple of them): The index, as accepted by
            ``ndarray.__getitem__``. A list of integers is one integer-array
            index. Integer array indices may repeat positions; their
            gradients are summed. At most one Ellipsis may appear.

    Returns:
        Variable: A variable holding the selected elements.

    Raises:
        ValueError: If ``slices`` holds more than one Ellipsis.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.arange(12, dtype=np.float32).reshape(3, 4)
        >>> F.get_item(x, (slice(None), 1)).array
        array([1., 5., 9.], dtype=float32)
        >>> F.get_item(x, [0, 0, 2]).shape
        (3, 4)
        >>> F.get_item(x, x > 9).array
        array([10., 11.], dtype=float32)

    """
    return GetItem(slices).apply((x,))[0]


# What Variable's own class holds of its indexing when chainerlite is
# imported (the core's).
_GET_ITEM = variable.Variable.__dict__['__getitem__']


def install_variable_get_item():
    """Gives :class:`~chainerlite.Variable` chainerlite's indexing
    (``v[slices]``, :func:`get_item`), undoing a replacement of it, as
    Chainer's import installs its own. Nothing changes where none was
    replaced."""
    if variable.Variable.__dict__.get('__getitem__') is not _GET_ITEM:
        variable.Variable.__getitem__ = _GET_ITEM
