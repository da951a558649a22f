"""CuPy support, importable without CUDA (``chainerlite.backends.cuda``).

``available`` tells whether CuPy and a CUDA device can be used. ``cupy`` is
the CuPy module, or, when CuPy cannot be imported, a placeholder that no
array module is (so ``xp is cuda.cupy`` is simply False on the CPU) and
whose attributes raise AttributeError naming the import error. Nothing here
needs CUDA at import time.

chainerlite has no cuDNN code path: ``cudnn_enabled`` is False, so
:func:`chainerlite.should_use_cudnn` is always False.
"""

import functools
import numbers
import warnings

import numpy

from chainerlite import _backend
from chainerlite import _core


class _CupyUnavailable(object):
    # Stands for the cupy module when it cannot be imported.

    def __getattr__(self, name):
        raise AttributeError(
            'CuPy is not available (import failed: {}); cupy.{} cannot be used'.format(
                _import_error, name
            )
        )

    def __repr__(self):
        return '<cupy (not available)>'


try:
    import cupy
    import cupyx  # NOQA

    _import_error = None
except Exception as e:  # CuPy absent or broken: stay on the CPU
    cupy = _CupyUnavailable()
    cupyx = None
    _import_error = e


def _device_count():
    try:
        return cupy.cuda.runtime.getDeviceCount()
    except Exception:
        return 0


_cupy_imported = _import_error is None
available = _cupy_imported and _device_count() > 0
cudnn_enabled = False

if _cupy_imported:
    ndarray = cupy.ndarray
    _core._set_cupy(cupy)
    cuda = cupy.cuda  # Chainer's `chainer.backends.cuda.cuda`
else:

    class ndarray(object):
        """Placeholder type: no array is an instance of it without CuPy."""

        def __init__(self, *args, **kwargs):
            check_cuda_available()

    class _NoCuda(object):
        # Without CuPy, cuda.Device/Event/Stream accept any arguments and do
        # nothing (a `with cuda.Device(...)` block simply runs on the CPU).

        def __init__(self, *args, **kwargs):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *exc_info):
            return False

    class Device(_NoCuda):
        """Stand-in for ``cupy.cuda.Device`` when CuPy is absent."""

    class Event(_NoCuda):
        """Stand-in for ``cupy.cuda.Event`` when CuPy is absent."""

    class Stream(_NoCuda):
        """Stand-in for ``cupy.cuda.Stream`` when CuPy is absent."""


_CUPY_CUDA_NAMES = ('Device', 'Event', 'Stream')


def __getattr__(name):
    # With CuPy: cuda.Device, cuda.Event, cuda.Stream are CuPy's, looked up
    # when used.
    if name in _CUPY_CUDA_NAMES:
        return getattr(cupy.cuda, name)
    raise AttributeError('module {!r} has no attribute {!r}'.format(__name__, name))


# cupy if any argument is (or holds) a CuPy array, else numpy; compiled.
get_array_module = _core.get_array_module


def check_cuda_available():
    """Raises RuntimeError if CuPy or a CUDA device is not available."""
    if not available:
        msg = 'CUDA environment is not correctly set up (CuPy is %s).' % (
            'installed but no device is visible'
            if _cupy_imported
            else 'not installed: %s' % _import_error
        )
        raise RuntimeError(msg)


class DummyDeviceType(object):
    """The type of :data:`DummyDevice`, the device of host arrays.

    It behaves as a CuPy device that does nothing: entering it, using it and
    synchronizing it are no-ops, and ``int(DummyDevice)`` is ``-1``.
    """

    id = -1

    def __int__(self):
        return -1

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        return False

    def use(self):
        """Does nothing."""

    def synchronize(self):
        """Does nothing."""

    def __eq__(self, other):
        return isinstance(other, DummyDeviceType)

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash(DummyDeviceType)

    def __repr__(self):
        return '<DummyDevice>'


DummyDevice = DummyDeviceType()


def _is_device_id(value):
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


class GpuDevice(_backend.Device):
    """A CUDA device, where arrays are CuPy arrays (spec ``'@cupy:N'``).

    Args:
        device (cupy.cuda.Device or int): The CUDA device (or its id).

    Attributes:
        device (cupy.cuda.Device): The CUDA device.

    Raises:
        RuntimeError: If CuPy or a CUDA device is not available.

    """

    supported_array_types = (ndarray,)

    def __init__(self, device):
        check_cuda_available()
        if _is_device_id(device):
            device = cupy.cuda.Device(int(device))
        if not isinstance(device, cupy.cuda.Device):
            raise TypeError(
                'GpuDevice takes a cupy.cuda.Device or a device id, not {}'.format(
                    type(device)
                )
            )
        self.device = device

    @property
    def xp(self):
        return cupy

    @property
    def name(self):
        return '@cupy:{}'.format(self.device.id)

    @property
    def device_id(self):
        """int: The id of the CUDA device."""
        return self.device.id

    @staticmethod
    def from_device_id(device_id):
        """Returns the GpuDevice of a CUDA device id.

        Raises:
            RuntimeError: If CUDA is not available (checked first).
            ValueError: If ``device_id`` is not a non-negative integer.

        """
        check_cuda_available()
        if not _is_device_id(device_id) or device_id < 0:
            raise ValueError(
                'invalid CUDA device id: {!r} (a non-negative integer is '
                'expected)'.format(device_id)
            )
        return GpuDevice(int(device_id))

    @staticmethod
    def from_array(array):
        """Returns the GpuDevice of a CuPy array, None for anything else."""
        if isinstance(array, ndarray) and array.device is not None:
            return GpuDevice(array.device)
        return None

    def __repr__(self):
        return '<GpuDevice (cupy):{}>'.format(self.device.id)

    def create_context(self):
        # A fresh cupy Device object: its context stack is its own.
        return cupy.cuda.Device(self.device.id)

    def send_array(self, array):
        return _array_to_gpu(array, self.device, None)

    def use(self):
        self.device.use()

    def is_array_supported(self, array):
        return isinstance(array, ndarray) and array.device.id == self.device.id


def get_device_from_id(device_id):
    """Returns the CuPy device of an id, or :data:`DummyDevice` for None.

    Raises:
        RuntimeError: If an id is given and CUDA is not available.

    """
    if device_id is None:
        return DummyDevice
    check_cuda_available()
    return cupy.cuda.Device(int(device_id))


def get_device_from_array(*arrays):
    """Returns the device of the first CuPy array, else :data:`DummyDevice`."""
    for array in arrays:
        if isinstance(array, ndarray) and array.device is not None:
            return array.device
    return DummyDevice


def get_device(*args):
    """Returns the device of the first int, CuPy array or device argument.

    .. deprecated::
        Use :func:`get_device_from_id` or :func:`get_device_from_array`.

    """
    warnings.warn(
        'get_device is deprecated. Please use get_device_from_id '
        'or get_device_from_array instead.',
        DeprecationWarning,
    )
    for arg in args:
        if _is_device_id(arg):
            check_cuda_available()
            return cupy.cuda.Device(int(arg))
        if isinstance(arg, ndarray):
            if arg.device is None:
                continue
            return arg.device
        if _cupy_imported and isinstance(arg, cupy.cuda.Device):
            return arg
    return DummyDevice


# The types Chainer's CUDA helpers take as device ids.
_integer_types = (int, numpy.integer)


def _get_device_or_current(device):
    # A cupy.cuda.Device: None gives the current one, a CUDA device as is,
    # an id >= 0 its device (Chainer's helper of the same name).
    if device is None:
        return cupy.cuda.Device()
    if _cupy_imported and isinstance(device, cupy.cuda.Device):
        return device
    if not (_is_device_id(device) and device >= 0):
        raise ValueError('Invalid CUDA device specifier: {!r}'.format(device))
    return cupy.cuda.Device(int(device))


def _array_to_gpu(array, device, stream):
    # One array (or None, or a scalar) as a CuPy array on `device`.
    if array is None:
        return None
    if isinstance(array, ndarray):
        if array.device.id == device.id:
            return array
        with cupy.cuda.Device(device.id):
            return cupy.array(array, copy=True)
    from chainerlite.backends import _cpu

    if not isinstance(array, _cpu.CpuDevice.supported_array_types):
        array = _cpu._array_to_cpu(array)
    with cupy.cuda.Device(device.id):
        if stream is None:
            return cupy.asarray(array)
        ret = cupy.empty(array.shape, array.dtype)
        ret.set(array, stream)
        return ret


def to_gpu(array, device=None, stream=None):
    """Copies an array, or each array of a list or tuple, to a GPU.

    Args:
        array: A NumPy or CuPy array, a NumPy scalar, None, or a list or
            tuple of them (an array given twice is copied once).
        device: A ``cupy.cuda.Device`` or device id; the current device
            when None. A CuPy array already there is returned as is.
        stream: Deprecated; the stream for the host-to-device copy.

    Returns:
        The CuPy array(s), in the container type given.

    Raises:
        RuntimeError: If CUDA is not available.
        TypeError: If an argument is not an array (a Variable, for one).

    """
    if stream is not None:
        warnings.warn(
            'The stream option is deprecated in '
            'chainerlite.backends.cuda.to_gpu. Please remove it.',
            DeprecationWarning,
        )
    check_cuda_available()
    device = _get_device_or_current(device)
    return _backend._convert_arrays(array, lambda a: _array_to_gpu(a, device, stream))


def to_cpu(array, stream=None):
    """Copies an array, or each array of a list or tuple, to host memory.

    NumPy arrays are returned as they are, NumPy scalars become
    0-dimensional arrays and ``None`` stays ``None``.

    Raises:
        TypeError: If an argument is not an array (a Variable, for one).

    """
    from chainerlite.backends import _cpu

    return _cpu._to_cpu(array, stream)


def _cupy_to_numpy(array, stream):
    with cupy.cuda.Device(array.device.id):
        return array.get(stream)


def copy(array, out=None, out_device=None, stream=None):
    """Copies a CuPy array, possibly to another device.

    Args:
        array (cupy.ndarray): The array to copy.
        out (cupy.ndarray): Where to write the copy; a new array when None.
        out_device: The device of the new array (the device of ``array``
            when None); ignored when ``out`` is given.
        stream (cupy.cuda.Stream): The stream of the copy.

    Returns:
        cupy.ndarray: ``out``, or the new array.

    """
    check_cuda_available()
    if out is None:
        if out_device is None:
            out_device = array.device
        with _get_device_or_current(out_device):
            out = cupy.empty_like(array)
    with stream if stream is not None else DummyDevice:
        with out.device:
            out[...] = array
    return out


_memoized = []


def memoize(for_each_device=False):
    """Makes a function cache its result for each argument tuple.

    With CUDA this is ``cupy.memoize`` (``for_each_device=True`` keeps one
    cache per current device); without it, one cache per function.
    """
    if available:
        return cupy.memoize(for_each_device)

    def decorator(f):
        cached = functools.lru_cache(maxsize=None)(f)
        _memoized.append(cached)
        return cached

    return decorator


def clear_memo():
    """Empties the caches of the functions made by :func:`memoize`."""
    if available:
        cupy.clear_memo()
    for f in _memoized:
        f.cache_clear()


@memoize(for_each_device=True)
def elementwise(in_params, out_params, operation, name, **kwargs):
    """Returns a (cached) ``cupy.ElementwiseKernel``."""
    check_cuda_available()
    return cupy.ElementwiseKernel(in_params, out_params, operation, name, **kwargs)


@memoize(for_each_device=True)
def reduce(
    in_params,
    out_params,
    map_expr,
    reduce_expr,
    post_map_expr,
    identity,
    name,
    **kwargs,
):
    """Returns a (cached) ``cupy.ReductionKernel``."""
    check_cuda_available()
    return cupy.ReductionKernel(
        in_params,
        out_params,
        map_expr,
        reduce_expr,
        post_map_expr,
        identity,
        name,
        **kwargs,
    )


@memoize(for_each_device=True)
def raw(code, name, *args, **kwargs):
    """Returns a (cached) ``cupy.RawKernel``."""
    check_cuda_available()
    return cupy.RawKernel(code, name, *args, **kwargs)


def fuse(*args, **kwargs):
    """``cupy.fuse`` with CuPy; without it, the function unchanged.

    Works both as ``@fuse`` and as ``@fuse(...)``.
    """
    if _cupy_imported:
        return cupy.fuse(*args, **kwargs)
    if len(args) == 1 and callable(args[0]) and not kwargs:
        return args[0]
    return lambda f: f


_max_workspace_size = 8 * 1024 * 1024


def get_max_workspace_size():
    """Returns the workspace size limit for cuDNN, in bytes."""
    return _max_workspace_size


def set_max_workspace_size(size):
    """Sets the workspace size limit for cuDNN, in bytes."""
    global _max_workspace_size
    _max_workspace_size = size


_CUDNN_LEVELS = ('==always', '>=auto')
_USE_CUDNN_VALUES = ('always', 'auto', 'never')


def should_use_cudnn(level, lowest_version=0):
    """Tells whether a function should take its cuDNN path.

    Args:
        level (str): ``'>=auto'`` (use cuDNN when ``config.use_cudnn`` is
            ``'auto'`` or ``'always'``) or ``'==always'`` (only when it is
            ``'always'``).
        lowest_version (int): The lowest cuDNN version the path needs.

    Returns:
        bool: False, since chainerlite has no cuDNN path
        (:data:`cudnn_enabled` is False).

    Raises:
        ValueError: If ``level`` or ``config.use_cudnn`` is not a valid
            value.

    """
    if level not in _CUDNN_LEVELS:
        raise ValueError(
            'invalid cuDNN level: {!r} (expected one of {})'.format(
                level, _CUDNN_LEVELS
            )
        )
    if _core.config.use_cudnn not in _USE_CUDNN_VALUES:
        raise ValueError(
            'invalid use_cudnn configuration: {!r} (expected one of {})'.format(
                _core.config.use_cudnn, _USE_CUDNN_VALUES
            )
        )
    return cudnn_enabled


_TENSOR_CORE_VALUES = ('always', 'auto', 'never')


def should_use_cudnn_tensor_core(dtype):
    """Tells whether a cuDNN call should use Tensor Cores.

    Args:
        dtype (numpy.dtype): The dtype of the input arrays.

    Returns:
        bool: True when ``config.use_cudnn_tensor_core`` is ``'always'``;
        False when it is ``'never'``; for ``'auto'``, True only for float16
        with cuDNN enabled (never here: :data:`cudnn_enabled` is False).

    Raises:
        ValueError: If ``config.use_cudnn_tensor_core`` is not one of
            ``'always'``, ``'auto'`` or ``'never'``.
    """
    mode = _core.config.use_cudnn_tensor_core
    if mode not in _TENSOR_CORE_VALUES:
        raise ValueError(
            'invalid use_cudnn_tensor_core configuration: {!r} (expected one '
            'of {})'.format(mode, _TENSOR_CORE_VALUES)
        )
    if mode != 'auto':
        return mode == 'always'
    return cudnn_enabled and numpy.dtype(dtype) == numpy.float16
