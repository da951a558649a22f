"""backends.cuda_multi_tensor: one launch for the updates of many arrays."""

import numpy
import pytest

import chainerlite
from chainerlite import optimizers
from chainerlite.backends import cuda
from chainerlite.backends import cuda_kernel
from chainerlite.backends import cuda_multi_tensor
from chainerlite.optimizers import _kernels
from chainerlite.testing import attr


@pytest.fixture
def registry(monkeypatch):
    monkeypatch.setattr(cuda_kernel, '_registry', [])
    return cuda_kernel._registry


def test_register_makes_one_multi_tensor_kernel_per_dtype_set(registry):
    spec = cuda_multi_tensor.register(
        cuda_kernel.Elementwise('T g, float64 lr', 'T p', 'p -= (T)lr * g', 'test_step')
    )
    multi = registry[1:]
    assert [k.name for k in multi] == [
        'test_step_multi_float16',
        'test_step_multi_float32',
        'test_step_multi_float64',
    ]
    k = multi[1]
    assert k.in_params == 'raw int64 _ptrs, int32 _n, float64 lr'
    assert k.out_params == 'raw int64 _offsets'
    assert k.check_types == [{}]
    assert 'typedef float T;' in k.operation
    assert (
        'const T &g = reinterpret_cast<const T*>(_ptrs[_a * 2 + 0])[_k];' in k.operation
    )
    assert k.operation.endswith(spec.operation)
    assert multi[0].preamble.startswith('#include <cupy/float16.cuh>')


def _model():
    link = chainerlite.Link()
    with link.init_scope():
        for i, shape in enumerate([(3, 4), (5,), (2, 2, 2)]):
            setattr(
                link,
                'w%d' % i,
                chainerlite.Parameter(
                    numpy.random.uniform(-1, 1, shape).astype(numpy.float32)
                ),
            )
    return link


def _train(make_optimizer, multi, to_device, steps=3):
    numpy.random.seed(0)
    link = _model()
    link.to_device(to_device)
    opt = make_optimizer().setup(link)
    opt.use_multi_tensor_update(multi)
    for _ in range(steps):
        for p in link.params():
            p.grad = p.xp.asarray(numpy.random.uniform(-1, 1, p.shape).astype(p.dtype))
        opt.update()
    return [cuda.to_cpu(p.array) for p in link.params()]


def test_multi_tensor_update_leaves_numpy_updates_as_they_are():
    expected = _train(lambda: optimizers.Adam(alpha=0.01), False, '@numpy')
    actual = _train(lambda: optimizers.Adam(alpha=0.01), True, '@numpy')
    for a, e in zip(actual, expected):
        numpy.testing.assert_array_equal(a, e)


@attr.gpu
@pytest.mark.parametrize(
    'make_optimizer, kernel',
    [
        (lambda: optimizers.SGD(lr=0.1), _kernels.sgd),
        (lambda: optimizers.MomentumSGD(lr=0.1), _kernels.momentum_sgd),
        (lambda: optimizers.Adam(alpha=0.01), _kernels.adam),
        (lambda: optimizers.AMSGrad(alpha=0.01), _kernels.adam_amsgrad),
        (lambda: optimizers.RMSprop(lr=0.01), _kernels.rmsprop),
        (lambda: optimizers.AdaGrad(lr=0.1), _kernels.ada_grad),
    ],
)
def test_multi_tensor_update_matches_the_per_parameter_update(make_optimizer, kernel):
    expected = _train(make_optimizer, False, '@numpy')
    per_param = _train(make_optimizer, False, '@cupy:0')
    multi = _train(make_optimizer, True, '@cupy:0')
    for m, p, e in zip(multi, per_param, expected):
        numpy.testing.assert_allclose(m, e, atol=1e-6, rtol=1e-5)
        numpy.testing.assert_array_equal(m, p)
    key = (
        kernel.name,
        (('M', 'float32'), ('P', 'float32'))
        if 'adam' in kernel.name
        else (('T', 'float32'),),
    )
    assert cuda_multi_tensor._multi[key]._by_device


class _Flags(object):
    def __init__(self, c_contiguous):
        self.c_contiguous = c_contiguous


class _Device(object):
    def __init__(self, id):
        self.id = id


class _FakeCupyArray(object):
    # what launch reads of a CuPy array

    def __init__(self, size, dtype='float32', contiguous=True, device=0):
        self.size = size
        self.dtype = numpy.dtype(dtype)
        self.flags = _Flags(contiguous)
        self.device = _Device(device)


@pytest.fixture
def step(registry, monkeypatch):
    spec = cuda_multi_tensor.register(
        cuda_kernel.Elementwise('T g, float64 lr', 'T p', 'p -= (T)lr * g', 'test_step')
    )
    direct, flushed = [], []
    # launches made at once are recorded instead of run on a GPU
    monkeypatch.setattr(
        cuda_kernel._Kernel, '_kernel', lambda self: lambda *args: direct.append(args)
    )
    monkeypatch.setattr(
        cuda_multi_tensor._Batch, 'flush', lambda self: flushed.append(self.groups)
    )
    return spec, direct, flushed


def test_launches_run_at_once_outside_deferred(step):
    spec, direct, flushed = step
    g, p = _FakeCupyArray(3), _FakeCupyArray(3)
    cuda_multi_tensor.launch(spec, g, 0.1, p)
    assert direct == [(g, 0.1, p)] and flushed == []


def test_deferred_launches_are_grouped_by_kernel_device_and_scalars(step):
    spec, direct, flushed = step
    a = [_FakeCupyArray(n) for n in (3, 3, 5, 5, 2, 2)]
    h = [_FakeCupyArray(4, 'float16'), _FakeCupyArray(4, 'float16')]
    strided = [_FakeCupyArray(2, contiguous=False), _FakeCupyArray(2)]
    with cuda_multi_tensor.deferred():
        cuda_multi_tensor.launch(spec, a[0], 0.1, a[1])
        cuda_multi_tensor.launch(spec, a[2], 0.1, a[3])
        cuda_multi_tensor.launch(spec, a[4], 0.2, a[5])
        cuda_multi_tensor.launch(spec, h[0], 0.1, h[1])
        cuda_multi_tensor.launch(spec, *strided[:1], 0.1, strided[1])
        cuda_multi_tensor.launch(spec, a[0], 0.1, a[1], defer=False)
    assert direct == [(strided[0], 0.1, strided[1]), (a[0], 0.1, a[1])]
    (groups,) = flushed
    multi = {k.name: k for k in cuda_kernel.registered()}
    f32 = multi['test_step_multi_float32']
    f16 = multi['test_step_multi_float16']
    assert groups == {
        (f32, 0, (0.1,)): [(a[0], a[1]), (a[2], a[3])],
        (f32, 0, (0.2,)): [(a[4], a[5])],
        (f16, 0, (0.1,)): [tuple(h)],
    }


def test_a_numpy_array_is_rejected_before_it_is_deferred(step):
    spec, direct, flushed = step
    with pytest.raises(TypeError, match='test_step: argument 2'):
        with cuda_multi_tensor.deferred():
            cuda_multi_tensor.launch(
                spec, _FakeCupyArray(2), 0.1, numpy.zeros(2, numpy.float32)
            )
    assert flushed == []  # nothing is launched after an error
