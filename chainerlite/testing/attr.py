"""Test attributes: pytest markers that also skip what cannot run here.

``gpu``, ``cudnn`` and ``slow`` carry the pytest markers of the same names
(select with ``-m gpu`` or ``-m "not slow"``). ``gpu``, ``multi_gpu`` and
``cudnn`` also skip the test when CuPy, enough CUDA devices, or cuDNN are
missing. Whether they are present is decided when the test runs, so importing
this module needs neither CuPy nor the compiled core.
"""

import importlib

import pytest


def _cuda():
    try:
        cuda = importlib.import_module('chainerlite.backends.cuda')
    except ImportError:
        return None
    return cuda


def _gpu_count():
    cuda = _cuda()
    if cuda is None or not getattr(cuda, 'available', False):
        return 0
    try:
        return cuda.cupy.cuda.runtime.getDeviceCount()
    except Exception:
        return 0


def _cudnn_available():
    cuda = _cuda()
    if cuda is None or not getattr(cuda, 'available', False):
        return False
    enabled = getattr(cuda, 'cudnn_enabled', None)
    if enabled is not None:
        return bool(enabled)
    try:
        import cupy.cuda.cudnn  # NOQA: F401
    except Exception:
        return False
    return True


class _Missing:
    """Skip condition that pytest evaluates (``bool()``) when a test runs."""

    def __init__(self, is_missing):
        self._is_missing = is_missing

    def __bool__(self):
        return bool(self._is_missing())


_no_gpu = _Missing(lambda: _gpu_count() < 1)
_no_cudnn = _Missing(lambda: not _cudnn_available())


def _apply(marks, obj):
    for mark in marks:
        obj = mark(obj)
    return obj


def gpu(obj):
    """Marks a test (function or class) as needing a GPU.

    It gets the ``gpu`` marker and is skipped when CUDA is not available.
    """
    return _apply((
        pytest.mark.skipif(_no_gpu, reason='CUDA is not available'),
        pytest.mark.gpu), obj)


def multi_gpu(gpu_num):
    """Marks a test as needing ``gpu_num`` GPUs.

    Args:
        gpu_num (int): The number of CUDA devices the test uses.

    Returns:
        callable: Decorator that adds the ``gpu`` marker and skips the test
        when fewer devices are present.

    """
    missing = _Missing(lambda: _gpu_count() < gpu_num)

    def decorator(obj):
        return _apply((
            pytest.mark.skipif(
                missing, reason='needs {} CUDA devices'.format(gpu_num)),
            pytest.mark.gpu), obj)

    return decorator


def cudnn(obj):
    """Marks a test as needing cuDNN (and so a GPU).

    It gets the ``cudnn`` and ``gpu`` markers and is skipped when cuDNN is
    not available.
    """
    return _apply((
        pytest.mark.skipif(_no_cudnn, reason='cuDNN is not available'),
        pytest.mark.cudnn,
        pytest.mark.gpu), obj)


#: Marks a test as slow (the ``slow`` marker); deselect with
#: ``-m "not slow"``.
slow = pytest.mark.slow


_MARKERS = (
    'gpu: needs CuPy and a CUDA device',
    'cudnn: needs cuDNN',
    'slow: takes long',
)


def pytest_configure(config):
    """Registers the markers when this module is used as a pytest plugin.

    Projects that run chainerlite-style tests without declaring the markers
    can add ``-p chainerlite.testing.attr`` (or list it in
    ``pytest_plugins``), which keeps ``--strict-markers`` happy.
    """
    for marker in _MARKERS:
        config.addinivalue_line('markers', marker)
