"""A strided view of the memory that holds an array."""

from __future__ import annotations

import numpy
import typing

from chainerlite import backend
from chainerlite import function_node
from chainerlite.functions.array import get_item

if typing.TYPE_CHECKING:
    from chainerlite.types import NdArray
    from chainerlite.variable import Variable


def _root(x):
    # The array whose memory holds x's; the chain of bases may pass through
    # other objects (as_strided's).
    root, owner = x, x.base
    while owner is not None:
        if isinstance(owner, type(x)):
            root = owner
        owner = getattr(owner, 'base', None)
    return root


def _storage(x):
    # The flat array whose memory holds x, and x's offset and strides in
    # elements within it. A root array that is not one contiguous block
    # cannot serve as flat storage; x's own elements are used instead.
    root = _root(x)
    if not root.flags.c_contiguous:
        root = x.copy()
        x = root
    xp = backend.get_array_module(x)
    flat = root.reshape(-1)
    offset = (_address(x) - _address(flat)) // x.itemsize
    strides = tuple(s // x.itemsize for s in x.strides)
    return flat, offset, strides, xp


def _address(a):
    if isinstance(a, numpy.ndarray):
        return a.__array_interface__['data'][0]
    return a.data.ptr


def _indices(xp, shape, strides, offset):
    # The storage index of every element of a strided view.
    index = xp.full(shape, offset, numpy.int64)
    for axis, (n, s) in enumerate(zip(shape, strides)):
        step = xp.arange(n, dtype=numpy.int64) * s
        index += step.reshape((n,) + (1,) * (len(shape) - axis - 1))
    return index


def _check_bounds(shape, strides, offset, size):
    if any(n == 0 for n in shape):
        return
    low = offset + sum((n - 1) * s for n, s in zip(shape, strides) if s < 0)
    high = offset + sum((n - 1) * s for n, s in zip(shape, strides) if s > 0)
    if low < 0 or high >= size:
        raise ValueError(
            'as_strided: shape {}, strides {} and storage offset {} reach '
            'elements {} to {} of a storage of {} elements'.format(
                shape, strides, offset, low, high, size
            )
        )


def _stride_array(array, shape, strides, storage_offset):
    """Returns a view of ``array``'s storage with strides and offset
    counted in elements."""
    flat, _, _, xp = _storage(array)
    shape, strides = tuple(shape), tuple(strides)
    _check_bounds(shape, strides, storage_offset, flat.size)
    start = flat[storage_offset : storage_offset + 1]
    return xp.lib.stride_tricks.as_strided(
        start, shape, tuple(s * array.itemsize for s in strides)
    )


class TensorGeometry(object):
    """Where an array lies in the memory that holds it: its ``shape``, and
    its ``strides`` and ``storage_offset`` counted in elements from the
    start of that memory, and ``itemsize`` (Chainer's record of the input
    of :func:`as_strided`, which :class:`AsStridedGrad` takes)."""

    def __init__(self, array):
        self.shape = array.shape
        self.strides = tuple(s // array.itemsize for s in array.strides)
        offset = _address(array) - _address(_root(array))
        self.storage_offset = offset // array.itemsize
        self.itemsize = array.itemsize

    @property
    def ndim(self):
        return len(self.shape)


class _ScatterGather(function_node.FunctionNode):
    # out = gather(dst_index) of scatter-add(src_index) of the input, with
    # elementwise weights on both sides; the backward is the adjoint map.

    def __init__(self, src_index, src_weight, dst_index, dst_weight, size):
        self.src_index = src_index
        self.src_weight = src_weight
        self.dst_index = dst_index
        self.dst_weight = dst_weight
        self.size = size

    @property
    def label(self):
        # Chainer's label of as_strided's gradient node, which hooks see
        # (its gradient, which Chainer's refuses, is one of these too)
        return 'AsStridedGrad'

    def forward(self, inputs):
        (g,) = inputs
        if g.dtype.kind != 'f':
            raise TypeError(
                'as_strided: only arrays of a floating point dtype are '
                'differentiable, not {}'.format(g.dtype)
            )
        xp = backend.get_array_module(g)
        storage = xp.zeros(self.size, g.dtype)
        values = g if self.src_weight is None else g * self.src_weight
        get_item.add_at(storage, self.src_index, values)
        out = storage[self.dst_index]
        if self.dst_weight is not None:
            out = out * self.dst_weight
        return (out.astype(g.dtype, copy=False),)

    def backward(self, indexes, grad_outputs):
        adjoint = _ScatterGather(
            self.dst_index, self.dst_weight, self.src_index, self.src_weight, self.size
        )
        return adjoint.apply(grad_outputs)


class AsStrided(function_node.FunctionNode):
    """A strided view of the storage of an array."""

    def __init__(self, shape, strides, storage_offset=None):
        self.shape = tuple(shape)
        self.strides = tuple(strides)
        self.storage_offset = storage_offset

    def forward(self, inputs):
        (x,) = inputs
        flat, x_offset, x_strides, xp = _storage(x)
        if self.storage_offset is None:  # x's own, kept as Chainer keeps it
            self.storage_offset = x_offset
        offset = self.storage_offset
        y = _stride_array(x, self.shape, self.strides, offset).copy()
        self._x_index = _indices(xp, x.shape, x_strides, x_offset)
        self._y_index = _indices(xp, self.shape, self.strides, offset)
        self._size = flat.size
        return (y,)

    def backward(self, indexes, grad_outputs):
        return _ScatterGather(
            *_adjoint(self._x_index, self._y_index, self._size)
        ).apply(grad_outputs)


def _adjoint(x_index, y_index, size):
    """The arguments of the ``_ScatterGather`` of as_strided's gradient:
    the output gradient added into a storage of ``size`` at ``y_index``,
    then read at ``x_index``, where elements of the input that share a
    storage location split its gradient."""
    xp = backend.get_array_module(x_index)
    share = xp.bincount(x_index.ravel(), minlength=size)
    return y_index, None, x_index, 1.0 / share[x_index], size


class AsStridedGrad(_ScatterGather):
    """Chainer's gradient node of :func:`as_strided`, by its constructor:
    applied to ``(gy,)``, the gradient of an input of ``input_geometry``
    (a :class:`TensorGeometry`) viewed with ``shape``, ``strides`` and
    ``storage_offset`` (in elements); its own gradient is the adjoint."""

    def __init__(self, input_geometry, shape, strides, storage_offset):
        self.input_geometry = input_geometry
        self.shape = tuple(shape)
        self.strides = tuple(strides)
        self.storage_offset = storage_offset
        g = input_geometry
        x_index = _indices(numpy, g.shape, g.strides, g.storage_offset)
        y_index = _indices(numpy, self.shape, self.strides, storage_offset)
        size = 1 + max([0] + [int(i.max()) for i in (x_index, y_index) if i.size])
        super().__init__(*_adjoint(x_index, y_index, size))

    def forward(self, inputs):
        xp = backend.get_array_module(inputs[0])
        if xp is not numpy:
            for name in ('src_index', 'dst_index', 'dst_weight'):
                setattr(self, name, xp.asarray(getattr(self, name)))
        return super().forward(inputs)


def as_strided(x: Variable | NdArray, shape, strides, storage_offset=None) -> Variable:
    """Creates a new array from the memory of ``x`` with given strides.

    Like :func:`numpy.lib.stride_tricks.as_strided`, but ``strides`` and
    ``storage_offset`` count elements, not bytes, and are taken relative to
    the storage (the base array) that holds ``x``'s memory. The output is a
    copy. In the backward pass the gradient reaching a storage location is
    shared equally among the elements of ``x`` that view it.

    Args:
        x (Variable or numpy.ndarray or cupy.ndarray): Input array.
        shape (tuple of int): Shape of the output.
        strides (tuple of int): Strides of the output, in elements.
        storage_offset (int): Index in the storage of the output's first
            element; ``None`` means the index of ``x``'s first element.

    Returns:
        Variable: Output of shape ``shape`` and ``x``'s dtype.

    Raises:
        ValueError: The view reaches outside the storage.

    .. admonition:: Example

        >>> import numpy as np
        >>> import chainerlite.functions as F
        >>> x = np.arange(4, dtype=np.float32)
        >>> F.as_strided(x, (4,), (-1,), 3).array
        array([3., 2., 1., 0.], dtype=float32)
        >>> F.as_strided(x, (2, 2), (1, 1)).array
        array([[0., 1.],
               [1., 2.]], dtype=float32)

    """
    return AsStrided(shape, strides, storage_offset).apply((x,))[0]
