"""Test attributes: pytest markers that also skip what cannot run here.

``gpu``, ``multi_gpu``, ``cudnn``, ``ideep``, ``chainerx`` and ``slow`` carry
the pytest markers of the same names (select with ``-m gpu`` or
``-m "not slow"``). All but ``slow`` also skip the test when CuPy, enough
CUDA devices, cuDNN, iDeep or ChainerX are missing. Each decorates test
functions, classes, and what :func:`~chainerlite.testing.parameterize` and
:func:`~chainerlite.testing.inject_backend_tests` return. Whether they are
present is decided when the test runs, so importing
this module needs neither CuPy nor the compiled core, nor pytest: without
pytest the decorators raise ``RuntimeError`` (as ``check_available()``
does) when they are applied.
"""

import functools
import importlib

from chainerlite.testing import parameterized
from chainerlite.testing._requirement import requirement_checks

# Whether pytest, which the markers need, is there (Chainer's check trio).
is_available, check_available, get_error = requirement_checks(__name__, 'pytest')


def _pytest_mark():
    """``pytest.mark``, imported when a decorator is applied."""
    check_available()
    import pytest

    return pytest.mark


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


def _reports_available(module_name, function_name):
    """Whether ``module_name`` imports and its ``function_name()`` is true."""
    try:
        module = importlib.import_module(module_name)
    except ImportError:
        return False
    return bool(getattr(module, function_name, lambda: False)())


_no_ideep = _Missing(
    lambda: not _reports_available('chainerlite.backends.intel64', 'is_ideep_available')
)
_no_chainerx = _Missing(lambda: not _reports_available('chainerx', 'is_available'))


def _apply(marks, obj):
    # parameterize and inject_backend_tests leave a placeholder for the
    # classes they made: the marks go on each of them.
    def mark_all(target):
        for mark in marks:
            target = mark(target)
        return target

    return parameterized.apply_to_classes(obj, mark_all)


def gpu(f):
    """Marks a test (function or class) as needing a GPU.

    It gets the ``gpu`` marker and is skipped when CUDA is not available.
    """
    mark = _pytest_mark()
    return _apply((mark.skipif(_no_gpu, reason='CUDA is not available'), mark.gpu), f)


def gpu_test_method(method):
    """:func:`gpu` for the GPU tests of the testing module's base classes.

    Without pytest those classes still import: the test then raises
    ``RuntimeError`` (from ``check_available()``) when it runs.
    """
    if is_available():
        return gpu(method)

    @functools.wraps(method)
    def needs_pytest(*args, **kwargs):
        check_available()

    return needs_pytest


def multi_gpu(gpu_num):
    """Marks a test as needing ``gpu_num`` GPUs.

    Args:
        gpu_num (int): The number of CUDA devices the test uses.

    Returns:
        callable: Decorator that adds the ``gpu`` and ``multi_gpu`` markers
        and skips the test when fewer devices are present.

    """
    mark = _pytest_mark()
    missing = _Missing(lambda: _gpu_count() < gpu_num)

    def decorator(obj):
        return _apply(
            (
                mark.skipif(missing, reason='needs {} CUDA devices'.format(gpu_num)),
                mark.multi_gpu(gpu_num),
                mark.gpu,
            ),
            obj,
        )

    return decorator


def cudnn(obj):
    """Marks a test as needing cuDNN (and so a GPU).

    It gets the ``cudnn`` and ``gpu`` markers and is skipped when cuDNN is
    not available.
    """
    mark = _pytest_mark()
    return _apply(
        (mark.skipif(_no_cudnn, reason='cuDNN is not available'), mark.cudnn, mark.gpu),
        obj,
    )


def slow(obj):
    """Marks a test as slow (the ``slow`` marker).

    Deselect such tests with ``-m "not slow"``.
    """
    return _apply((_pytest_mark().slow,), obj)


def ideep(obj):
    """Marks a test as needing iDeep (the ``ideep`` marker).

    chainerlite has no iDeep backend, so such a test is skipped unless a
    ``chainerlite.backends.intel64`` module says iDeep is available.
    """
    mark = _pytest_mark()
    return _apply(
        (mark.skipif(_no_ideep, reason='iDeep is not available'), mark.ideep), obj
    )


def chainerx(obj):
    """Marks a test as needing ChainerX (the ``chainerx`` marker).

    The test is skipped unless an importable ``chainerx`` says it is
    available.
    """
    mark = _pytest_mark()
    return _apply(
        (mark.skipif(_no_chainerx, reason='ChainerX is not available'), mark.chainerx),
        obj,
    )


_MARKERS = (
    'gpu: needs CuPy and a CUDA device',
    'multi_gpu: needs several CUDA devices',
    'cudnn: needs cuDNN',
    'ideep: needs iDeep',
    'chainerx: needs ChainerX',
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
