"""print_runtime_info and ``python -m chainerlite``."""

import io
import re
import subprocess
import sys
import types

import numpy

import chainerlite
from chainerlite import _runtime_info
from chainerlite.backends import cuda
from chainerlite.backends import intel64
from chainerlite.testing import attr


def _fields(text):
    # {'Key': 'value'} from the 'Key: value' lines of the report.
    return dict(line.split(': ', 1) for line in text.splitlines())


def test_runtime_info_names_versions():
    info = _runtime_info._get_runtime_info()
    fields = _fields(str(info))
    assert fields['chainerlite'] == chainerlite.__chainerlite_version__
    assert fields['Python'].startswith('{}.{}.{} ('.format(*sys.version_info[:3]))
    assert fields['NumPy'] == numpy.__version__
    assert fields['ChainerX'] == 'Not Available'
    # iDeep's line reports oneDNN, installed with chainerlite on Linux x86-64
    expected = 'Available' if intel64.is_ideep_available() else 'Not Available'
    assert fields['iDeep'] == expected
    assert set(fields) >= {'Platform', 'CuPy', 'CUDA devices', 'mpi4py', 'BLAS (NumPy)'}
    out = io.StringIO()
    chainerlite.print_runtime_info(out)
    assert out.getvalue() == str(info)


def test_cython_version_of_the_build():
    from chainerlite import _build_info

    fields = _fields(str(_runtime_info._get_runtime_info()))
    assert fields['Cython (core built with)'] == _build_info.CYTHON_VERSION
    assert re.match(r'3\.\d+\.\d+', _build_info.CYTHON_VERSION)


def test_compiled_core_loaded():
    fields = _fields(str(_runtime_info._get_runtime_info()))
    assert fields['Compiled core'].startswith('loaded (')
    for name in ('backprop', 'config', 'hooks', 'node'):
        assert name in fields['Compiled core']


def test_core_module_not_compiled_is_named(monkeypatch):
    fake = types.ModuleType('chainerlite._core.node')
    fake.__file__ = '/somewhere/node.py'
    monkeypatch.setitem(sys.modules, 'chainerlite._core.node', fake)
    fields = _fields(str(_runtime_info._get_runtime_info()))
    assert fields['Compiled core'] == 'NOT loaded (not compiled: node)'


def test_blas_of_numpy_is_named():
    blas = _runtime_info._get_runtime_info().blas
    assert blas != 'unknown' and 'blas' in blas.lower()


def test_optional_package_versions():
    assert _runtime_info._optional_version('numpy') == numpy.__version__
    assert _runtime_info._optional_version('no_such_package_xyz') is None


def test_cuda_devices_listed_by_index():
    props = [{'name': b'First GPU'}, {'name': 'Second GPU'}]
    runtime = types.SimpleNamespace(
        getDeviceCount=lambda: len(props), getDeviceProperties=lambda i: props[i]
    )
    fake_cupy = types.SimpleNamespace(cuda=types.SimpleNamespace(runtime=runtime))
    assert _runtime_info._cuda_devices(fake_cupy) == ['0: First GPU', '1: Second GPU']


def test_no_cuda_device_reads_none(monkeypatch):
    monkeypatch.setattr(cuda, 'available', False)
    fields = _fields(str(_runtime_info._get_runtime_info()))
    assert fields['CUDA devices'] == 'none'


def test_python_m_chainerlite_prints_the_report():
    result = subprocess.run(
        [sys.executable, '-m', 'chainerlite'],
        capture_output=True,
        text=True,
        check=True,
    )
    fields = _fields(result.stdout)
    assert fields['chainerlite'] == chainerlite.__chainerlite_version__
    assert fields['Compiled core'].startswith('loaded (')


@attr.gpu
def test_cuda_devices_on_gpu():
    info = _runtime_info._get_runtime_info()
    count = cuda.cupy.cuda.runtime.getDeviceCount()
    assert len(info.cuda_devices) == count > 0
    assert info.cuda_devices[0].startswith('0: ')
    assert _fields(str(info))['CuPy'] == '{} (CUDA available)'.format(
        cuda.cupy.__version__
    )
