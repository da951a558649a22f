"""CuPy support, importable without CUDA.

``available`` tells whether CuPy and a CUDA device can be used; ``cupy`` is
the module or None. Nothing here needs CUDA at import time.
"""

from chainerlite import _core

try:
    import cupy
    import cupyx  # NOQA
    _import_error = None
except Exception as e:  # CuPy absent or broken: stay on the CPU
    cupy = None
    _import_error = e


def _device_count():
    try:
        return cupy.cuda.runtime.getDeviceCount()
    except Exception:
        return 0


available = cupy is not None and _device_count() > 0
cudnn_enabled = False

if cupy is not None:
    ndarray = cupy.ndarray
    _core._register('cupy', cupy)
else:
    class ndarray(object):
        """Placeholder type: no CuPy array can be an instance of it."""


def check_cuda_available():
    """Raises RuntimeError if CuPy or a CUDA device is not available."""
    if not available:
        msg = 'CUDA environment is not correctly set up (CuPy is %s).' % (
            'installed but no device is visible' if cupy is not None
            else 'not installed: %s' % _import_error)
        raise RuntimeError(msg)


# cupy if any argument is (or holds) a CuPy array, else numpy; compiled.
get_array_module = _core.get_array_module


def to_gpu(array, device=None):
    """Copies an array to a GPU and returns the CuPy array."""
    check_cuda_available()
    with cupy.cuda.Device(0 if device is None else int(device)):
        return cupy.asarray(array)


def to_cpu(array):
    """Copies a CuPy array to host memory (NumPy arrays are returned as is)."""
    if cupy is not None and isinstance(array, cupy.ndarray):
        return array.get()
    return array
