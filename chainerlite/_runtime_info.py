"""The versions chainerlite runs with (``chainerlite.print_runtime_info``).

``python -m chainerlite`` prints the same report. Every probe here only reads:
no CUDA context is created beyond CuPy's device query, and MPI is not
initialized (mpi4py is imported, ``mpi4py.MPI`` is not).
"""

import importlib.machinery
import importlib.util
import pkgutil
import platform
import sys
import typing

import numpy

import chainerlite
from chainerlite import _core
from chainerlite.backends import cuda
from chainerlite.backends import intel64

_NOT_AVAILABLE = 'Not Available'


def _cython_version():
    # chainerlite/_build_info.py is written by setup.py when it compiles the
    # core; a source tree that was never built has none.
    try:
        from chainerlite import _build_info
    except ImportError:
        return None
    return _build_info.CYTHON_VERSION


def _core_modules():
    # {name: True when the module is a loaded compiled extension}.
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    found = {}
    for info in pkgutil.iter_modules(_core.__path__):
        module = sys.modules.get(_core.__name__ + '.' + info.name)
        path = getattr(module, '__file__', None) or ''
        found[info.name] = path.endswith(suffixes)
    return found


def _numpy_blas():
    # NumPy (1.25+) reports the BLAS it was built against.
    try:
        config = numpy.show_config(mode='dicts')
        blas = config['Build Dependencies']['blas']
    except Exception:  # a NumPy built without meson's configuration record
        return 'unknown'
    name = blas.get('name') or 'unknown'
    version = blas.get('version')
    return name if not version else '{} {}'.format(name, version)


def _cuda_devices(cupy_module):
    # ['0: NVIDIA H200', ...] for every device CuPy sees.
    runtime = cupy_module.cuda.runtime
    names = []
    for index in range(runtime.getDeviceCount()):
        name = runtime.getDeviceProperties(index)['name']
        if isinstance(name, bytes):
            name = name.decode()
        names.append('{}: {}'.format(index, name))
    return names


def _optional_version(module_name):
    # The version of an installed package, imported only when installed.
    if importlib.util.find_spec(module_name) is None:
        return None
    module = importlib.import_module(module_name)
    return getattr(module, '__version__', 'unknown')


class _RuntimeInfo(object):
    # The platform and the versions of chainerlite, its build and the array,
    # BLAS, GPU and MPI libraries it can use.

    def __init__(self):
        self.platform_version = platform.platform()
        # the Chainer API level (Chainer's report names its version) and
        # chainerlite's own release
        self.chainer_version = chainerlite.__version__
        self.chainerlite_version = chainerlite.__chainerlite_version__
        self.python_version = '{} ({})'.format(
            platform.python_version(), platform.python_implementation()
        )
        self.numpy_version = numpy.__version__
        self.blas = _numpy_blas()
        self.cython_version = _cython_version()
        self.core_modules = _core_modules()
        self.core_loaded = bool(self.core_modules) and all(self.core_modules.values())
        if cuda._cupy_imported:
            self.cupy_version = cuda.cupy.__version__
        else:
            self.cupy_version = None
        self.cuda_available = cuda.available
        self.cuda_devices = _cuda_devices(cuda.cupy) if self.cuda_available else []
        self.mpi4py_version = _optional_version('mpi4py')

    def _lines(self):
        if self.cupy_version is None:
            cupy = _NOT_AVAILABLE
        else:
            cupy = '{} (CUDA {})'.format(
                self.cupy_version,
                'available' if self.cuda_available else 'not available',
            )
        if self.core_loaded:
            core = 'loaded ({})'.format(', '.join(sorted(self.core_modules)))
        else:
            missing = sorted(
                name for name, compiled in self.core_modules.items() if not compiled
            )
            core = 'NOT loaded (not compiled: {})'.format(
                ', '.join(missing) or 'no module found'
            )
        return [
            ('Platform', self.platform_version),
            ('Chainer', self.chainer_version),
            ('chainerlite', self.chainerlite_version),
            ('Python', self.python_version),
            ('Compiled core', core),
            ('Cython (core built with)', self.cython_version or 'unknown'),
            ('ChainerX', _NOT_AVAILABLE),
            ('NumPy', self.numpy_version),
            ('BLAS (NumPy)', self.blas),
            ('CuPy', cupy),
            ('CUDA devices', '; '.join(self.cuda_devices) or 'none'),
            ('iDeep', 'Available' if intel64.is_ideep_available() else _NOT_AVAILABLE),
            ('mpi4py', self.mpi4py_version or _NOT_AVAILABLE),
        ]

    def __str__(self):
        return ''.join('{}: {}\n'.format(k, v) for k, v in self._lines())


def _get_runtime_info():
    return _RuntimeInfo()


def print_runtime_info(out: typing.TextIO | None = None) -> None:
    """Prints the platform and the versions chainerlite runs with.

    The report names chainerlite, Python, NumPy and the BLAS NumPy was built
    with, CuPy and the CUDA devices it sees, mpi4py, the Cython version the
    compiled core was built with and whether that core is loaded. ``python
    -m chainerlite`` prints the same report.

    Args:
        out: Text stream to write to; ``sys.stdout`` when None.

    """
    if out is None:
        out = sys.stdout
    out.write(str(_get_runtime_info()))
    if hasattr(out, 'flush'):
        out.flush()
