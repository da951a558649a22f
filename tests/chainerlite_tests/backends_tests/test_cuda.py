"""backends.cuda: CuPy support, with and without a GPU."""

import warnings

import numpy
import pytest

import chainerlite
from chainerlite import backend
from chainerlite.backends import cuda
from chainerlite.testing import attr


def test_dummy_device():
    d = cuda.DummyDevice
    assert int(d) == -1 and d.id == -1
    assert d == cuda.DummyDeviceType() and not d != cuda.DummyDeviceType()
    assert d != 0 and d != -1
    with d as entered:
        assert entered is d
    d.use()
    d.synchronize()
    assert cuda.get_device_from_id(None) is d


def test_host_values_have_the_dummy_device():
    for value in (numpy.zeros(2), numpy.int64(0), None, 1):
        assert cuda.get_device_from_array(value) is cuda.DummyDevice


def test_get_device_is_deprecated():
    with pytest.warns(DeprecationWarning, match='get_device_from_id'):
        assert cuda.get_device(numpy.zeros(2)) is cuda.DummyDevice


def test_to_cpu_lists_and_scalars():
    a = numpy.arange(3)
    assert cuda.to_cpu(a) is a
    assert cuda.to_cpu(None) is None
    ys = cuda.to_cpu((a, None, numpy.float32(2)))
    assert ys[0] is a and ys[1] is None and ys[2].shape == ()
    with pytest.raises(TypeError):
        cuda.to_cpu(chainerlite.Variable(a))


@pytest.mark.skipif(cuda.available, reason='needs no GPU')
def test_without_cuda():
    with pytest.raises(RuntimeError, match='CUDA'):
        cuda.to_gpu(numpy.zeros(2))
    with pytest.raises(RuntimeError, match='CUDA'):
        cuda.get_device_from_id(0)
    with pytest.raises(RuntimeError, match='CUDA'):
        chainerlite.get_device('@cupy:0')
    with pytest.raises(RuntimeError, match='CUDA'):
        backend.GpuDevice.from_device_id(0)
    assert backend.GpuDevice.from_array(numpy.zeros(2)) is None


@pytest.mark.skipif(cuda._cupy_imported, reason='needs CuPy absent')
def test_cupy_placeholder():
    assert cuda.cupy is not None and cuda.cupy is not numpy
    with pytest.raises(AttributeError, match='CuPy is not available'):
        cuda.cupy.ndarray
    # as in Chainer, cuda.Device (and Event, Stream) are inert stand-ins
    with cuda.Device(0):
        pass
    assert not isinstance(numpy.zeros(2), cuda.ndarray)


@pytest.mark.skipif(cuda.available, reason='needs no GPU')
def test_memoize_without_cuda_caches_per_arguments():
    calls = []

    @cuda.memoize()
    def square(x):
        calls.append(x)
        return x * x

    assert square(3) == 9 and square(3) == 9 and calls == [3]
    cuda.clear_memo()
    assert square(3) == 9 and calls == [3, 3]


@pytest.mark.skipif(cuda._cupy_imported, reason='needs CuPy absent')
def test_fuse_without_cupy_returns_the_function():
    def f(x):
        return x + 1

    assert cuda.fuse(f) is f
    assert cuda.fuse(kernel_name='f')(f) is f


def test_max_workspace_size():
    size = cuda.get_max_workspace_size()
    try:
        cuda.set_max_workspace_size(1024)
        assert cuda.get_max_workspace_size() == 1024
    finally:
        cuda.set_max_workspace_size(size)


def test_should_use_cudnn():
    for value in ('always', 'auto', 'never'):
        with chainerlite.using_config('use_cudnn', value):
            assert chainerlite.should_use_cudnn('>=auto') is False
            assert chainerlite.should_use_cudnn('==always') is False
    with pytest.raises(ValueError, match='level'):
        chainerlite.should_use_cudnn('==auto')
    with chainerlite.using_config('use_cudnn', True):
        with pytest.raises(ValueError, match='use_cudnn'):
            chainerlite.should_use_cudnn('>=auto')


@pytest.mark.parametrize('device_id', [None, -1, (), 0.0, numpy.float32(0), True])
def test_from_device_id_rejects_non_ids(device_id):
    # CUDA's availability is checked first, as in Chainer
    error = ValueError if cuda.available else RuntimeError
    with pytest.raises(error):
        backend.GpuDevice.from_device_id(device_id)


@attr.gpu
def test_gpu_device_attributes():
    cupy = cuda.cupy
    device = backend.GpuDevice.from_device_id(numpy.int32(0))
    assert isinstance(device.device, cuda.Device) and device.device.id == 0
    assert device.xp is cupy
    assert device.supported_array_types == (cupy.ndarray,)
    assert device.name == str(device) == '@cupy:0'
    assert repr(device) == '<GpuDevice (cupy):0>'
    assert device == backend.GpuDevice(cuda.Device(0))
    assert device == chainerlite.get_device(0) == chainerlite.get_device('0')
    assert device == chainerlite.get_device(cuda.Device(0))
    assert device != backend.CpuDevice()
    assert hash(device) == hash(chainerlite.get_device('@cupy:0'))


@attr.gpu
def test_gpu_device_arrays():
    cupy = cuda.cupy
    device = chainerlite.get_device('@cupy:0')
    g = cupy.arange(3)
    assert backend.GpuDevice.from_array(g) == device
    assert backend.get_device_from_array(g) == device
    assert device.is_array_supported(g)
    assert not device.is_array_supported(numpy.zeros(2))
    assert not backend.CpuDevice().is_array_supported(g)
    assert device.send(g) is g
    y = device.send(numpy.arange(3))
    assert isinstance(y, cupy.ndarray)
    cupy.testing.assert_array_equal(y, g)
    z = backend.CpuDevice().send(g)
    assert isinstance(z, numpy.ndarray)
    numpy.testing.assert_array_equal(z, [0, 1, 2])
    with backend.using_device('@cupy:0'):
        assert cupy.cuda.Device().id == 0
    device.use()
    assert cupy.cuda.Device().id == 0


@attr.gpu
def test_to_gpu_and_back():
    cupy = cuda.cupy
    a = numpy.arange(6.0).reshape(2, 3).T
    c = cupy.zeros(2)
    ys = cuda.to_gpu([a, c, None, a, numpy.float16(2)])
    assert isinstance(ys[0], cupy.ndarray) and ys[3] is ys[0]
    assert ys[1] is c and ys[2] is None and ys[4].shape == ()
    cupy.testing.assert_array_equal(ys[0], a)
    with pytest.raises(TypeError):
        cuda.to_gpu(chainerlite.Variable(a))
    with pytest.warns(DeprecationWarning, match='stream'):
        s = cuda.to_gpu(a, stream=cupy.cuda.Stream.null)
    cupy.testing.assert_array_equal(s, a)
    back = cuda.to_cpu(cupy.asfortranarray(ys[0]))
    numpy.testing.assert_array_equal(back, a)
    assert cuda.get_device_from_array(ys[0]) == cuda.Device(0)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', DeprecationWarning)
        assert cuda.get_device(0) == cuda.Device(0)


@attr.gpu
def test_copy_and_copyto_on_gpu():
    cupy = cuda.cupy
    g = cupy.arange(4, dtype=numpy.float32)
    h = cuda.copy(g)
    assert h is not g
    cupy.testing.assert_array_equal(h, g)
    dst = cupy.zeros(4, numpy.float16)
    backend.copyto(dst, numpy.arange(4, dtype=numpy.float32))
    cupy.testing.assert_array_equal(dst, g.astype(numpy.float16))
    host = numpy.zeros(4, numpy.float32)
    backend.copyto(host, g)
    numpy.testing.assert_array_equal(host, [0, 1, 2, 3])


@attr.gpu
def test_elementwise_kernel_is_cached():
    cupy = cuda.cupy
    k = cuda.elementwise('T x', 'T y', 'y = x * 2', 'chainerlite_test_double')
    assert k is cuda.elementwise('T x', 'T y', 'y = x * 2', 'chainerlite_test_double')
    cupy.testing.assert_array_equal(k(cupy.arange(3.0)), [0.0, 2.0, 4.0])


@pytest.mark.parametrize('spec', [-1, 'gpu', 1.0, True])
def test_get_device_or_current_refuses_what_is_not_a_cuda_device(spec):
    # Chainer 7.8.1: ValueError before any CUDA call, CuPy or not
    with pytest.raises(ValueError, match='Invalid CUDA device specifier'):
        cuda._get_device_or_current(spec)


def test_integer_types():
    assert isinstance(numpy.int64(1), cuda._integer_types)
    assert isinstance(3, cuda._integer_types)
    assert not isinstance(1.0, cuda._integer_types)


@attr.gpu
def test_get_device_or_current_on_a_gpu():
    current = cuda.cupy.cuda.Device()
    assert cuda._get_device_or_current(None).id == current.id
    assert cuda._get_device_or_current(0).id == 0
    assert cuda._get_device_or_current(current) is current
