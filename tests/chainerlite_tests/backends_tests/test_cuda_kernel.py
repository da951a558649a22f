"""backends.cuda_kernel: the registry of the package's CuPy kernels."""

import importlib
import pathlib

import numpy
import pytest

import chainerlite
from chainerlite.backends import cuda
from chainerlite.backends import cuda_kernel
from chainerlite.testing import attr

PACKAGE = pathlib.Path(chainerlite.__file__).parent


def _kernel_modules():
    # every module that defines kernels through the registry
    return sorted(
        'chainerlite.'
        + p.relative_to(PACKAGE).with_suffix('').as_posix().replace('/', '.')
        for p in PACKAGE.rglob('_kernels.py')
    )


@pytest.fixture
def registry(monkeypatch):
    monkeypatch.setattr(cuda_kernel, '_registry', [])
    return cuda_kernel._registry


def test_parse_params():
    assert cuda_kernel.parse_params('T x, raw S w,float32 lr') == [
        (False, 'T', 'x'),
        (True, 'S', 'w'),
        (False, 'float32', 'lr'),
    ]
    with pytest.raises(ValueError, match='cannot parse kernel parameter'):
        cuda_kernel.parse_params('T x y')


def test_kernels_are_registered_with_float_check_types(registry):
    k = cuda_kernel.Elementwise('T x, float64 a', 'T y', 'y = x * a', 'test_scale')
    r = cuda_kernel.Reduction('T x', 'T y', 'x', 'a + b', 'y = a', '0', 'test_sum')
    assert cuda_kernel.registered() == [k, r]
    assert k.check_types == [{'T': 'float16'}, {'T': 'float32'}, {'T': 'float64'}]
    assert repr(k) == '<Elementwise test_scale>'


def test_kernels_without_placeholders_are_checked_once(registry):
    k = cuda_kernel.Elementwise('float32 x', 'float32 y', 'y = x', 'test_c')
    assert k.check_types == [{}]


def test_check_types_must_cover_the_placeholders(registry):
    with pytest.raises(ValueError, match='test_mixed: check_types'):
        cuda_kernel.Elementwise(
            'P x', 'M y', 'y = x', 'test_mixed', check_types=[{'P': 'float32'}]
        )
    assert registry == []


class _FakeDevice(object):
    def __init__(self, id):
        self.id = id


class _FakeCupyArray(object):
    # stands for a CuPy array on a device: only its device is read

    def __init__(self, device_id):
        self.device = _FakeDevice(device_id)


def test_numpy_arrays_mixed_with_cupy_arrays_are_a_type_error(registry):
    k = cuda_kernel.Elementwise('T x, T w', 'T y', 'y = x * w', 'test_mul')
    with pytest.raises(TypeError, match='test_mul: argument 1 is a NumPy'):
        k(_FakeCupyArray(0), numpy.zeros(2))
    with pytest.raises(TypeError, match='test_mul: argument 0 is a NumPy'):
        k(numpy.zeros(2), numpy.float32(2))


def test_arrays_on_two_gpus_are_a_value_error(registry):
    k = cuda_kernel.Elementwise('T x, T w', 'T y', 'y = x * w', 'test_mul')
    with pytest.raises(ValueError, match='test_mul: .* different GPUs'):
        k(_FakeCupyArray(0), _FakeCupyArray(1))


@pytest.mark.skipif(cuda.available, reason='needs a machine without CUDA')
def test_calling_a_kernel_without_cuda_names_cupy(registry):
    k = cuda_kernel.Elementwise('T x', 'T y', 'y = x', 'test_copy')
    with pytest.raises(AttributeError, match='cupy'):
        k(_FakeCupyArray(0), 2.0)


@attr.gpu
def test_a_numpy_input_of_a_gpu_function_is_a_type_error():
    import chainerlite.functions as F

    x = cuda.cupy.ones((2, 3))
    with pytest.raises(TypeError, match='chainerlite_swish_fwd'):
        F.swish(x, numpy.ones(3))


def test_package_kernels_have_unique_names():
    for module in _kernel_modules():
        importlib.import_module(module)
    names = [k.name for k in cuda_kernel.registered()]
    assert len(names) == len(set(names))
    assert any(n.startswith('chainerlite_adam_update_multi') for n in names)


@attr.gpu
def test_kernels_are_memoized_per_device(registry):
    k = cuda_kernel.Elementwise('T x', 'T y', 'y = x + (T)1', 'test_inc')
    x = cuda.cupy.arange(3, dtype=numpy.float32)
    numpy.testing.assert_array_equal(cuda.to_cpu(k(x)), [1, 2, 3])
    made = k._by_device[x.device.id]
    k(x)
    assert k._by_device == {x.device.id: made}
