import sys
import unittest

import numpy
import pytest

import chainerlite
from chainerlite import backend
from chainerlite import testing
from chainerlite.backends import cuda


_BACKENDS = [{}, {'use_cuda': True}, {'use_cuda': True, 'cuda_device': 0}]


@testing.inject_backend_tests(None, _BACKENDS)
class TestPlainClass:
    def test_device(self, backend_config):
        if backend_config.use_cuda:
            assert backend_config.xp is cuda.cupy
            assert backend_config.device == backend.GpuDevice(0)
        else:
            assert backend_config.xp is numpy
            assert backend_config.device == backend.CpuDevice()

    def test_get_array(self, backend_config):
        x = backend_config.get_array(numpy.arange(3.0))
        assert isinstance(x, backend_config.xp.ndarray)
        numpy.testing.assert_array_equal(cuda.to_cpu(x), [0.0, 1.0, 2.0])


@testing.inject_backend_tests(['test_with_config'], _BACKENDS)
class TestUnittestClass(unittest.TestCase):
    def test_with_config(self, backend_config):
        with backend_config:
            self.assertEqual(chainerlite.config.use_cudnn, 'never')
            x = backend_config.get_array(numpy.ones(2, numpy.float32))
            self.assertIsInstance(x, backend_config.xp.ndarray)

    def test_without_config(self):
        self.assertFalse(hasattr(self, 'backend_config'))


@testing.parameterize({'n': 1}, {'n': 2})
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestParameterizedOutside:
    def test_both(self, backend_config):
        x = backend_config.get_array(numpy.zeros(self.n))
        assert x.shape == (self.n,)


@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
@testing.parameterize({'n': 1}, {'n': 2})
class TestParameterizedInside:
    def test_both(self, backend_config):
        x = backend_config.get_array(numpy.zeros(self.n))
        assert x.shape == (self.n,)


def _generated(prefix):
    module = sys.modules[__name__]
    return sorted(
        name
        for name, value in vars(module).items()
        if name.startswith(prefix) and isinstance(value, type)
    )


_CPU = (
    'use_chainerx_false__chainerx_device_None__use_cuda_false__'
    'cuda_device_None__use_cudnn_never__cudnn_deterministic_false__'
    'autotune_false__cudnn_fast_batch_normalization_false__'
    'use_ideep_never'
)
_CUDA = _CPU.replace('use_cuda_false', 'use_cuda_true')
_CUDA_0 = _CUDA.replace('cuda_device_None', 'cuda_device_0')


def test_classes_are_generated_and_base_is_hidden():
    # Chainer's names: every option, in a fixed order.
    assert _generated('TestPlainClass') == sorted(
        [
            'TestPlainClass_' + _CPU,
            'TestPlainClass_' + _CUDA,
            'TestPlainClass_' + _CUDA_0,
        ]
    )
    assert not isinstance(TestPlainClass, type)


def test_the_same_options_twice_get_distinct_names():
    class Target:
        __module__ = 'not_a_loaded_module'

        def test_a(self, backend_config):
            pass

    names = [
        cls.__name__
        for cls in testing.inject_backend_tests(None, [{}, {'use_cuda': False}])(
            Target
        ).classes
    ]
    assert names == ['Target_' + _CPU, 'Target_{}_1'.format(_CPU)]


def test_ideep_configs_are_marked():
    class Target:
        __module__ = 'not_a_loaded_module'

        def test_a(self, backend_config):
            pass

    cpu, ideep = testing.inject_backend_tests(None, [{}, {'use_ideep': 'always'}])(
        Target
    ).classes
    assert 'ideep' not in _marks(cpu)
    assert 'ideep' in _marks(ideep)
    assert ideep.__name__.endswith('use_ideep_always')


@pytest.mark.parametrize(
    'prefix', ['TestParameterizedOutside', 'TestParameterizedInside']
)
def test_composes_with_parameterize(prefix):
    names = _generated(prefix)
    assert len(names) == 4
    combos = set()
    module = sys.modules[__name__]
    for name in names:
        cls = getattr(module, name)
        combos.add((cls.n, 'use_cuda_true' in name))
    assert combos == {(1, False), (1, True), (2, False), (2, True)}


def test_generated_method_passes_the_config():
    cls = getattr(sys.modules[__name__], 'TestPlainClass_' + _CPU)
    cls().test_device()
    with pytest.raises(TypeError):
        cls().test_device(testing.BackendConfig({}))


def _marks(cls):
    return {m.name: m for m in getattr(cls, 'pytestmark', [])}


def test_cuda_classes_are_marked_and_skipped_without_cuda():
    module = sys.modules[__name__]
    cpu = _marks(getattr(module, 'TestPlainClass_' + _CPU))
    gpu = _marks(getattr(module, 'TestPlainClass_' + _CUDA))
    assert 'gpu' not in cpu and 'skipif' not in cpu
    assert 'gpu' in gpu
    assert bool(gpu['skipif'].args[0]) == (not cuda.available)


def test_chainerx_config_is_skipped():
    @testing.inject_backend_tests(None, [{'use_chainerx': True}])
    class Target:
        __module__ = 'not_a_loaded_module'

        def test_a(self, backend_config):
            raise AssertionError('must not run')

    marks = _marks(Target.classes[0])
    assert 'chainerx' in marks
    assert marks['skip'].kwargs['reason'] == 'chainerlite has no ChainerX'


def test_unittest_method_not_listed_is_left_alone():
    cls = getattr(sys.modules[__name__], 'TestUnittestClass_' + _CPU)
    assert (
        cls.test_without_config
        is TestUnittestClass.classes[0].__mro__[1].test_without_config
    )
    result = unittest.TestResult()
    cls('test_with_config').run(result)
    cls('test_without_config').run(result)
    assert result.wasSuccessful() and result.testsRun == 2


def test_config_sets_and_restores_configuration():
    config = testing.BackendConfig({'use_cudnn': 'always', 'autotune': True})
    with config as entered:
        assert entered is config
        assert chainerlite.config.use_cudnn == 'always'
        assert chainerlite.config.autotune is True
    assert chainerlite.config.use_cudnn == chainerlite.global_config.use_cudnn
    assert chainerlite.config.autotune is False


def test_config_attributes():
    config = testing.BackendConfig({})
    assert (config.use_cuda, config.cuda_device) == (False, None)
    assert config.use_cudnn == 'never' and config.use_ideep == 'never'
    # Chainer's text: every option in its order, str as repr
    assert (
        repr(config)
        == str(config)
        == (
            "<BackendConfig use_chainerx=False chainerx_device=None use_cuda=False "
            "cuda_device=None use_cudnn='never' cudnn_deterministic=False "
            "autotune=False cudnn_fast_batch_normalization=False use_ideep='never'>"
        )
    )
    gpu = testing.BackendConfig({'use_cuda': True})
    assert gpu.cuda_device == 0
    assert 'use_cuda=True cuda_device=0 ' in repr(gpu)


def test_get_array_of_tuples_and_scalars():
    config = testing.BackendConfig({})
    a, b, c = config.get_array((numpy.ones(2), None, numpy.float32(3)))
    assert b is None
    assert isinstance(c, numpy.ndarray) and c.shape == ()


@pytest.mark.skipif(cuda.available, reason='checks the error without CUDA')
def test_cuda_device_fails_without_cuda():
    with pytest.raises(RuntimeError, match='CUDA'):
        testing.BackendConfig({'use_cuda': True}).device


def test_bad_configs():
    with pytest.raises(ValueError, match='use_cdua'):
        testing.inject_backend_tests(None, [{'use_cdua': True}])
    with pytest.raises(ValueError, match='cuda_device'):
        testing.BackendConfig({'cuda_device': 0})
    with pytest.raises(TypeError):
        testing.inject_backend_tests(None, {})
    with pytest.raises(TypeError):
        testing.inject_backend_tests('test_a', [{}])


def test_missing_method_name():
    class Target:
        __module__ = 'not_a_loaded_module'

        def test_a(self, backend_config):
            pass

    with pytest.raises(AttributeError, match='test_b'):
        testing.inject_backend_tests(['test_b'], [{}])(Target)


def test_marks_of_methods_are_kept():
    class Target:
        __module__ = 'not_a_loaded_module'

        @pytest.mark.slow
        def test_a(self, backend_config):
            return backend_config

    (cls,) = testing.inject_backend_tests(None, [{}])(Target).classes
    assert [m.name for m in cls.test_a.pytestmark] == ['slow']
    assert not hasattr(cls.test_a, '__wrapped__')
    assert isinstance(cls().test_a(), testing.BackendConfig)
