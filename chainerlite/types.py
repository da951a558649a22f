"""Type aliases of the public API (``chainerlite.types``, as ``chainer.types``).

They name what the annotated signatures accept, for type checkers and
editors: ``def f(x: types.NdArray, shape: types.ShapeSpec) -> None``.
At run time they are plain ``typing`` objects; the modules that use them
import this module only under ``typing.TYPE_CHECKING``, so annotating the API
costs nothing when it runs.
"""

from __future__ import annotations

import typing as tp
from typing import TYPE_CHECKING  # NOQA: F401 (Chainer's types module has it)

if tp.TYPE_CHECKING:
    from types import ModuleType

    import cupy
    import numpy

    from chainerlite import backend
    from chainerlite.backends import cuda


# The shape of an array, and what a function accepts as one (``3`` or
# ``(2, 3)``).
Shape = tp.Tuple[int, ...]
ShapeSpec = tp.Union[int, tp.Sequence[int]]

# Anything ``numpy.dtype()`` accepts: a dtype, a type, a name such as
# ``'f'``.
DTypeSpec = tp.Any

# An array module: ``numpy`` or ``cupy``.
Xp = tp.Any

# An N-dimensional array of one of the supported array modules.
NdArray = tp.Union['numpy.ndarray', 'cupy.ndarray']

# A scalar: a Python number, a NumPy scalar, or what NumPy turns into one.
# (Chainer lists numbers.Number, which type checkers do not accept for int
# or float.)
ScalarValue = tp.Union['numpy.generic', bytes, str, memoryview, int, float, complex]


@tp.runtime_checkable
class AbstractInitializer(tp.Protocol):
    """What an initializer is: a callable that fills an array in place.

    Any object with a ``dtype`` attribute (None for "whatever the array
    has") and ``__call__(array)`` is one, such as
    :class:`chainerlite.Initializer` and its subclasses.
    """

    dtype: DTypeSpec | None = None

    def __call__(self, array: NdArray) -> None: ...


# What a link or Parameter takes as an initializer: an initializer object,
# a scalar (a constant fill) or an array (the initial value itself).
InitializerSpec = tp.Union[AbstractInitializer, ScalarValue, 'numpy.ndarray']

# What ``chainerlite.get_device`` accepts: a Device, a string such as
# ``'@numpy'`` or ``'@cupy:0'``, a ``(module, id)`` or ``(name, id)`` pair, a
# module, a CuPy device, or a legacy integer id (-1 for the CPU; Chainer's
# alias leaves it out, though its functions accept it too).
DeviceSpec = tp.Union[
    'backend.Device',
    'cuda.Device',
    str,
    int,
    tp.Tuple[str, int],
    'ModuleType',
    tp.Tuple['ModuleType', int],
]

# What the CUDA-only functions (``to_gpu``, ``get_device_from_id``) accept as
# a GPU: a CuPy device or its integer id.
CudaDeviceSpec = tp.Union['cuda.Device', int, 'numpy.integer']
