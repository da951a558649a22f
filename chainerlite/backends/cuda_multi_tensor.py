"""Multi-tensor launches: one elementwise kernel over many arrays at once.

Beyond Chainer. An update rule launches its kernel through :func:`launch`.
Outside :func:`deferred` (the default) that is the ordinary launch, one per
parameter. Inside it, launches are collected instead and made when the
block ends: one per kernel, device, dtypes and scalar arguments, each over
the elements of all the arrays collected for it. The kernel finds the
array of each element by a binary search in a table of the arrays' start
offsets and reads and writes them through a table of device pointers.
:meth:`chainerlite.optimizer.GradientMethod.use_multi_tensor_update`
turns this on for an optimizer's updates.

The multi-tensor kernel of an elementwise kernel is made (and registered,
so that ``make check-kernels`` compiles it) by :func:`register` for each
dtype set of the kernel's ``check_types``.
"""

import contextlib
import threading

import numpy

from chainerlite.backends import cuda
from chainerlite.backends import cuda_kernel

_C_TYPES = {'float16': 'float16', 'float32': 'float', 'float64': 'double'}
# Finds the array _a of element i (the last offset <= i) and its index _k.
_FIND = (
    'ptrdiff_t _a = 0, _hi = _n - 1;'
    'while (_a < _hi) {'
    '  ptrdiff_t _mid = (_a + _hi + 1) / 2;'
    '  if (_offsets[_mid] <= i) _a = _mid; else _hi = _mid - 1;'
    '}'
    'ptrdiff_t _k = i - _offsets[_a];'
)

_state = threading.local()
_multi = {}  # (kernel name, ((placeholder, dtype name), ...)) -> kernel
_layouts = {}  # kernel name -> (is array, placeholder) of each argument


def _layout(spec):
    params = cuda_kernel.parse_params(spec.in_params) + cuda_kernel.parse_params(
        spec.out_params
    )
    return tuple(
        (cuda_kernel.is_placeholder(ctype), ctype, name) for _, ctype, name in params
    )


def register(spec):
    """Makes and registers the multi-tensor kernels of an Elementwise
    kernel whose arrays are the parameters of placeholder types (non-raw)
    and whose other parameters are scalars. Returns ``spec``."""
    layout = _layout(spec)
    nin = len(cuda_kernel.parse_params(spec.in_params))
    arrays = [
        (i, ctype, name) for i, (is_array, ctype, name) in enumerate(layout) if is_array
    ]
    scalars = [
        '{} {}'.format(ctype, name) for is_array, ctype, name in layout if not is_array
    ]
    views = ''.join(
        '{c}{t} &{n} = reinterpret_cast<{c}{t}*>(_ptrs[_a * {m} + {j}])[_k];'.format(
            c='const ' if i < nin else '', t=ctype, n=name, m=len(arrays), j=j
        )
        for j, (i, ctype, name) in enumerate(arrays)
    )
    for types in spec.check_types:
        key = tuple(sorted(types.items()))
        typedefs = ''.join('typedef {} {};'.format(_C_TYPES[t], p) for p, t in key)
        # CuPy includes float16's header only for the float16 arguments it
        # sees; here the types are behind pointers
        half = '#include <cupy/float16.cuh>\n' if 'float16' in types.values() else ''
        _multi[spec.name, key] = cuda_kernel.Elementwise(
            ', '.join(['raw int64 _ptrs', 'int32 _n'] + scalars),
            'raw int64 _offsets',
            typedefs + _FIND + views + spec.operation,
            '{}_multi_{}'.format(spec.name, '_'.join(t for _, t in key)),
            preamble=half + spec.preamble,
        )
    _layouts[spec.name] = layout
    return spec


class _Batch(object):
    def __init__(self):
        self.groups = {}

    def add(self, kernel, arrays, scalars):
        key = kernel, arrays[0].device.id, scalars
        self.groups.setdefault(key, []).append(arrays)

    def flush(self):
        cupy = cuda.cupy
        for (kernel, device_id, scalars), groups in self.groups.items():
            with cupy.cuda.Device(device_id):
                offsets = numpy.zeros(len(groups) + 1, numpy.int64)
                numpy.cumsum([g[0].size for g in groups], out=offsets[1:])
                ptrs = numpy.array(
                    [[a.data.ptr for a in g] for g in groups], numpy.int64
                )
                kernel(
                    cupy.asarray(ptrs),
                    numpy.int32(len(groups)),
                    *scalars,
                    cupy.asarray(offsets),
                    size=int(offsets[-1]),
                )
        self.groups = {}


@contextlib.contextmanager
def _collecting():
    batch = _state.batch = _Batch()
    try:
        yield
    finally:
        _state.batch = None
    batch.flush()


def deferred(enabled=True):
    """A context in which :func:`launch` collects launches (if
    ``enabled``), made as multi-tensor launches when it ends without an
    exception."""
    return _collecting() if enabled else contextlib.nullcontext()


def launch(spec, *args, defer=True):
    """Launches an Elementwise kernel registered by :func:`register`, or
    collects the launch inside :func:`deferred` (unless ``defer`` is
    False).

    A launch runs at once when its arrays are not all C-contiguous
    and of one size, or when the kernel has no multi-tensor kernel for
    their dtypes.
    """
    batch = getattr(_state, 'batch', None)
    if batch is None or not defer:
        return spec(*args)
    cuda_kernel.check_arrays(spec.name, args)
    layout = _layouts[spec.name]
    arrays = tuple(a for a, (is_array, _, _) in zip(args, layout) if is_array)
    types = {}
    for a, (is_array, ctype, _) in zip(args, layout):
        if is_array:
            types.setdefault(ctype, a.dtype.name)
    kernel = _multi.get((spec.name, tuple(sorted(types.items()))))
    if kernel is None or any(
        not a.flags.c_contiguous or a.size != arrays[0].size for a in arrays
    ):
        return spec(*args)
    scalars = tuple(a for a, (is_array, _, _) in zip(args, layout) if not is_array)
    batch.add(kernel, arrays, scalars)
