import numpy
import pytest

import chainerlite
import chainerlite.functions as F
import chainerlite.links as L
from chainerlite import gradient_check
from chainerlite import initializers
from chainerlite.testing import attr


def _x(*shape, dtype=numpy.float32):
    return numpy.random.uniform(-1, 1, shape).astype(dtype)


def _stat_shape(x_shape, axis):
    return tuple(1 if i in axis else n for i, n in enumerate(x_shape))


def _reference(x, gamma, beta, axis, eps=2e-5):
    shape = _stat_shape(x.shape, axis)
    x = x.astype(numpy.float64)
    mean = x.mean(axis=axis)
    var = x.var(axis=axis)
    y = (x - mean.reshape(shape)) / numpy.sqrt(
        var.reshape(shape) + eps
    ) * gamma.reshape(shape) + beta.reshape(shape)
    m = x.size // mean.size
    return y, mean, var * m / (m - 1)


def _randomize(bn):
    for param in bn.params():
        param.array[...] = numpy.random.uniform(0.5, 1.5, param.shape)


CASES = [
    # (size, axis, x shape, axes averaged over)
    (3, None, (4, 3), (0,)),
    (3, None, (4, 3, 2, 2), (0, 2, 3)),
    ((3, 2), None, (4, 3, 2, 5), (0, 3)),
    ((4, 3, 2), 3, (4, 3, 2, 2), (3,)),
    ((3,), (0, 2), (4, 3, 5), (0, 2)),
]


@pytest.mark.parametrize('size, axis, x_shape, reduced', CASES)
def test_training_forward_and_running_statistics(size, axis, x_shape, reduced):
    bn = L.BatchNormalization(size, decay=0.8, axis=axis)
    _randomize(bn)
    x = _x(*x_shape)
    y = bn(x)
    expected, mean, var = _reference(x, bn.gamma.array, bn.beta.array, reduced)
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-4, atol=1e-4)
    numpy.testing.assert_allclose(bn.avg_mean, 0.2 * mean, rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(bn.avg_var, 0.8 + 0.2 * var, rtol=1e-5)
    assert bn.N == 0


@pytest.mark.parametrize('size, axis, x_shape, reduced', CASES)
def test_test_mode_uses_running_statistics(size, axis, x_shape, reduced):
    bn = L.BatchNormalization(size, axis=axis)
    _randomize(bn)
    bn.avg_mean[...] = numpy.random.uniform(-1, 1, bn.avg_mean.shape)
    bn.avg_var[...] = numpy.random.uniform(0.5, 2, bn.avg_var.shape)
    mean, var = bn.avg_mean.copy(), bn.avg_var.copy()
    x = _x(*x_shape)
    with chainerlite.using_config('train', False):
        y = bn(x)
    shape = _stat_shape(x.shape, reduced)
    std = numpy.sqrt(var.reshape(shape) + 2e-5)
    expected = (x - mean.reshape(shape)) / std * bn.gamma.array.reshape(
        shape
    ) + bn.beta.array.reshape(shape)
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-4, atol=1e-5)
    numpy.testing.assert_array_equal(bn.avg_mean, mean)
    numpy.testing.assert_array_equal(bn.avg_var, var)


def test_parameters_and_persistents():
    bn = L.BatchNormalization(3)
    assert [name for name, _ in bn.namedparams()] == ['/beta', '/gamma']
    assert bn._persistent == {'avg_mean', 'avg_var', 'N'}
    numpy.testing.assert_array_equal(bn.gamma.array, numpy.ones(3))
    numpy.testing.assert_array_equal(bn.beta.array, numpy.zeros(3))
    numpy.testing.assert_array_equal(bn.avg_mean, numpy.zeros(3))
    numpy.testing.assert_array_equal(bn.avg_var, numpy.ones(3))
    assert bn.avg_mean.dtype == numpy.float32
    assert (bn.decay, bn.eps, bn.N) == (0.9, 2e-5, 0)


def test_initial_values_and_dtype():
    bn = L.BatchNormalization(
        2,
        dtype=numpy.float64,
        initial_gamma=2.0,
        initial_beta=initializers.Constant(-1),
        initial_avg_mean=numpy.array([1.0, 2.0]),
        initial_avg_var=3,
    )
    for value in (bn.gamma.array, bn.beta.array, bn.avg_mean, bn.avg_var):
        assert value.dtype == numpy.float64
    numpy.testing.assert_array_equal(bn.gamma.array, [2, 2])
    numpy.testing.assert_array_equal(bn.beta.array, [-1, -1])
    numpy.testing.assert_array_equal(bn.avg_mean, [1, 2])
    numpy.testing.assert_array_equal(bn.avg_var, [3, 3])
    with chainerlite.using_config('dtype', numpy.float64):
        assert L.BatchNormalization(2).gamma.dtype == numpy.float64


def test_float16_input_with_float32_parameters():
    bn = L.BatchNormalization(3)
    x = _x(4, 3, dtype=numpy.float16)
    y = bn(x)
    assert y.dtype == numpy.float16
    expected, _, _ = _reference(x, bn.gamma.array, bn.beta.array, (0,))
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-2, atol=1e-2)
    assert bn.avg_mean.dtype == numpy.float32


def test_without_gamma_and_beta():
    bn = L.BatchNormalization(3, use_gamma=False, use_beta=False)
    assert bn.gamma is None and bn.beta is None
    assert list(bn.params()) == []
    x = _x(5, 3)
    expected, _, _ = _reference(x, numpy.ones(3), numpy.zeros(3), (0,))
    numpy.testing.assert_allclose(bn(x).array, expected, rtol=1e-4, atol=1e-4)
    with chainerlite.using_config('train', False):
        assert bn(x).shape == (5, 3)


@pytest.mark.parametrize(
    'axis, x_shape, shape', [((0, 2, 3), (4, 3, 2, 5), (3,)), (0, (4, 3, 2), (3, 2))]
)
def test_lazy_initialization(axis, x_shape, shape):
    bn = L.BatchNormalization(axis=axis, initial_gamma=2.0)
    assert bn.avg_mean is None and bn.gamma.array is None
    bn(_x(*x_shape))
    assert bn.gamma.shape == shape and bn.beta.shape == shape
    assert bn.avg_mean.shape == shape and bn.avg_var.shape == shape
    numpy.testing.assert_array_equal(bn.gamma.array, numpy.full(shape, 2.0))


def test_size_or_axis_is_required():
    # Chainer raises RuntimeError: with neither, the statistics' axes are
    # unknown until a batch comes
    with pytest.raises(RuntimeError, match='size or axis'):
        L.BatchNormalization()
    with pytest.raises(RuntimeError, match='size or axis'):
        L.BatchNormalization(decay=0.5, dtype=numpy.float64)


def test_finetune_averages_all_batches():
    bn = L.BatchNormalization(3)
    xs = [_x(4, 3) for _ in range(3)]
    for x in xs:
        bn(x, finetune=True)
    assert bn.N == 3
    means = [x.mean(axis=0) for x in xs]
    numpy.testing.assert_allclose(
        bn.avg_mean, numpy.mean(means, axis=0), rtol=1e-5, atol=1e-6
    )
    unbiased = [x.var(axis=0) * 4 / 3 for x in xs]
    numpy.testing.assert_allclose(bn.avg_var, numpy.mean(unbiased, axis=0), rtol=1e-5)
    bn.start_finetuning()
    assert bn.N == 0


def test_running_statistics_updated_once_under_forget():
    bn = L.BatchNormalization(3)
    x = chainerlite.Variable(_x(4, 3))
    y = F.forget(bn, x)
    mean_after_forward = bn.avg_mean.copy()
    numpy.testing.assert_allclose(
        mean_after_forward, 0.1 * x.array.mean(axis=0), rtol=1e-5, atol=1e-7
    )
    F.sum(y * y).backward()
    numpy.testing.assert_array_equal(bn.avg_mean, mean_after_forward)
    assert bn.gamma.grad is not None and x.grad is not None


def test_finetune_count_not_changed_by_recomputation():
    bn = L.BatchNormalization(3)
    x = chainerlite.Variable(_x(4, 3))
    y = F.forget(lambda v: bn(v, finetune=True), x)
    F.sum(y).backward()
    assert bn.N == 1


def test_parameter_gradients():
    bn = L.BatchNormalization(3)
    _randomize(bn)
    x = _x(5, 3, 2)
    gy = _x(5, 3, 2)
    gradient_check.check_backward(
        bn, x, gy, params=(bn.gamma, bn.beta), dtype=numpy.float64, atol=1e-3, rtol=1e-3
    )


def test_parameter_gradients_in_test_mode():
    bn = L.BatchNormalization(3, dtype=numpy.float64)
    _randomize(bn)
    bn.avg_var[...] = 2.0
    x, gy = _x(5, 3, dtype=numpy.float64), _x(5, 3, dtype=numpy.float64)
    with chainerlite.using_config('train', False):
        gradient_check.check_backward(
            bn, x, gy, params=(bn.gamma, bn.beta), atol=1e-5, rtol=1e-4
        )


def test_keyword_errors():
    bn = L.BatchNormalization(3)
    with pytest.raises(ValueError, match='test argument'):
        bn(_x(2, 3), test=True)
    with pytest.raises(TypeError, match='unexpected'):
        bn(_x(2, 3), bogus=1)
    # finetune is a keyword, as in Chainer (whose forward takes **kwargs)
    with pytest.raises(TypeError):
        bn(_x(2, 3), True)
    assert bn.N == 0


def test_text_form():
    bn = L.BatchNormalization((3, 2), decay=0.5, eps=1e-3, dtype=numpy.float64)
    assert str(bn) == (
        'BatchNormalization(size=3, decay=0.5, eps=0.001, dtype=float64, '
        'use_gamma=True, use_beta=True)'
    )
    # where Chainer says use_gamma=True whatever was given, and fails on a
    # lazy link's missing statistics (docs/differences.rst)
    bn = L.BatchNormalization(3, use_gamma=False, use_beta=False)
    assert str(bn).endswith('use_gamma=False, use_beta=False)')
    lazy = L.BatchNormalization(axis=0)
    assert str(lazy).startswith('BatchNormalization(size=None, decay=0.9')
    lazy(_x(2, 4))
    assert str(lazy).startswith('BatchNormalization(size=4, ')


def test_persistents_round_trip(roundtrip):
    src = L.BatchNormalization(3)
    src(_x(4, 3), finetune=True)
    dst = L.BatchNormalization(axis=0)
    saved = roundtrip(src, dst)
    assert sorted(saved) == ['N', 'avg_mean', 'avg_var', 'beta', 'gamma']
    numpy.testing.assert_array_equal(dst.avg_mean, src.avg_mean)
    numpy.testing.assert_array_equal(dst.avg_var, src.avg_var)
    numpy.testing.assert_array_equal(dst.gamma.array, src.gamma.array)
    assert dst.N == 1


def test_copy_keeps_statistics_apart():
    bn = L.BatchNormalization(3)
    bn(_x(4, 3))
    shared, copied = bn.copy('share'), bn.copy('copy')
    assert shared.avg_mean is bn.avg_mean
    assert copied.avg_mean is not bn.avg_mean
    numpy.testing.assert_array_equal(copied.avg_mean, bn.avg_mean)


def test_to_device_round_trip():
    bn = L.BatchNormalization(3)
    mean = bn.avg_mean
    assert bn.to_device('@numpy') is bn
    assert isinstance(bn.avg_mean, numpy.ndarray)
    numpy.testing.assert_array_equal(bn.avg_mean, mean)


@attr.gpu
def test_on_gpu():
    import cupy

    bn = L.BatchNormalization(axis=(0, 2))
    bn.to_device('@cupy:0')
    x = cupy.asarray(_x(4, 3, 5))
    y = bn(x)
    assert isinstance(y.array, cupy.ndarray)
    assert isinstance(bn.avg_mean, cupy.ndarray)
    assert isinstance(bn.gamma.array, cupy.ndarray)
    expected, mean, _ = _reference(
        cupy.asnumpy(x), numpy.ones(3), numpy.zeros(3), (0, 2)
    )
    numpy.testing.assert_allclose(cupy.asnumpy(y.array), expected, rtol=1e-4, atol=1e-4)
    numpy.testing.assert_allclose(
        cupy.asnumpy(bn.avg_mean), 0.1 * mean, rtol=1e-4, atol=1e-6
    )
    with chainerlite.using_config('train', False):
        assert isinstance(bn(x).array, cupy.ndarray)
    bn.to_device('@numpy')
    assert isinstance(bn.avg_var, numpy.ndarray)


def test_mixed16_keeps_parameters_and_statistics_in_float32():
    # As in Chainer: under dtype=mixed16 the link learns in float32 while
    # it takes and returns float16 activations.
    with chainerlite.using_config('dtype', chainerlite.mixed16):
        bn = chainerlite.links.BatchNormalization(3)
    assert bn.gamma.dtype == numpy.float32
    assert bn.avg_mean.dtype == numpy.float32
    x = numpy.linspace(-1, 1, 12).reshape(4, 3).astype(numpy.float16)
    y = bn(x)
    assert y.dtype == numpy.float16
    y.grad = numpy.ones_like(y.array)
    y.backward()
    assert bn.gamma.grad.dtype == numpy.float32
    expected = (x - x.mean(0)) / numpy.sqrt(x.astype(numpy.float64).var(0) + 2e-5)
    numpy.testing.assert_allclose(y.array, expected, atol=1e-2)


@pytest.mark.parametrize('name', ['initial_avg_mean', 'initial_avg_var'])
def test_statistics_initializer_of_another_dtype(name):
    # a ValueError when the statistics are made, as Chainer's generate_array
    init = initializers.Constant(1.0, dtype=numpy.float64)
    with pytest.raises(ValueError, match='dtype mismatch'):
        L.BatchNormalization(3, **{name: init})
    lazy = L.BatchNormalization(axis=0, **{name: init})
    with pytest.raises(ValueError, match='dtype mismatch'):
        lazy(_x(2, 3))
    bn = L.BatchNormalization(3, dtype=numpy.float64, **{name: init})
    assert getattr(bn, name[len('initial_') :]).dtype == numpy.float64


def test_the_given_gamma_initializer_is_left_as_it_is():
    # Chainer sets the link's dtype on the object given (docs/differences.rst)
    init = initializers.Constant(2.0, dtype=numpy.float64)
    bn = L.BatchNormalization(3, initial_gamma=init)
    assert bn.gamma.dtype == numpy.float32 and init.dtype == numpy.float64
