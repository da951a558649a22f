"""Chainer's requirement checks and small testing names at their paths."""

import unittest

import pytest

from chainerlite import testing
from chainerlite.testing import attr
from chainerlite.testing import condition
from chainerlite.testing import function_link
from chainerlite.testing import helper
from chainerlite.testing import training
from chainerlite.testing import unary_math_function_test
from chainerlite.testing._requirement import requirement_checks


@pytest.mark.parametrize('module', [attr, training, unary_math_function_test])
def test_requirements_present(module):
    assert module.is_available() is True
    assert module.check_available() is None


@pytest.mark.parametrize('module', [attr, training])
def test_no_error_recorded(module):
    assert module.get_error() is None


def test_missing_requirement_named_in_the_error():
    is_available, check_available, get_error = requirement_checks(
        'my.testing', 'chainerlite_no_such_module'
    )
    assert is_available() is False
    assert isinstance(get_error(), ImportError)
    with pytest.raises(RuntimeError) as info:
        check_available()
    message = str(info.value)
    assert message.startswith(
        'my.testing is not available.\n\nReason: ModuleNotFoundError: '
    )
    assert 'chainerlite_no_such_module' in message


def test_chainer_paths_hold_the_same_objects():
    assert function_link.LinkTestCase is testing.LinkTestCase
    assert function_link.LinkInitializersTestCase is testing.LinkInitializersTestCase
    assert function_link.InitializerArgument is testing.InitializerArgument
    assert helper.assert_warns is testing.assert_warns


def test_quiet_test_runner_collects_results():
    class Case(unittest.TestCase):
        def test_pass(self):
            pass

        def test_fail(self):
            self.fail('no')

        def test_skip(self):
            self.skipTest('later')

    suite = unittest.defaultTestLoader.loadTestsFromTestCase(Case)
    result = condition.QuietTestRunner().run(suite)
    assert isinstance(result, unittest.TestResult)
    assert result.testsRun == 3
    assert len(result.failures) == 1 and len(result.skipped) == 1
    assert result.skipped[0][1] == 'later'


def test_backend_config_func_str_as_chainer():
    # Recorded from Chainer 7.8.1.
    assert testing.BackendConfig(
        {'use_cuda': True, 'cuda_device': 1}
    ).get_func_str() == (
        'use_chainerx_false__chainerx_device_None__use_cuda_true__cuda_device_1'
        '__use_cudnn_never__cudnn_deterministic_false__autotune_false'
        '__cudnn_fast_batch_normalization_false__use_ideep_never'
    )
    assert testing.BackendConfig({'use_cudnn': 'always'}).get_func_str().split('__')[
        4
    ] == ('use_cudnn_always')


def test_numerical_grad_dtype_reaches_check_backward():
    from unittest import mock

    import numpy

    import chainerlite.functions as F
    from chainerlite import gradient_check

    assert testing.FunctionTestCase.numerical_grad_dtype == numpy.float64
    assert testing.LinkTestCase.numerical_grad_dtype == numpy.float64

    class Tanh(testing.FunctionTestCase):
        __module__ = 'not_a_loaded_module'
        numerical_grad_dtype = numpy.float32

        def generate_inputs(self):
            return (numpy.ones((2,), numpy.float32),)

        def forward(self, inputs, device):
            return (F.tanh(inputs[0]),)

        def forward_expected(self, inputs):
            return (numpy.tanh(inputs[0]),)

    cls = testing.inject_backend_tests(None, [{}])(Tanh).classes[0]
    seen = []
    real = gradient_check.check_backward

    def record(*args, **kwargs):
        seen.append(kwargs['dtype'])
        return real(*args, **kwargs)

    with mock.patch.object(gradient_check, 'check_backward', record):
        case = cls('test_backward')
        case.setUp()
        case.test_backward()
    assert seen == [numpy.float32]


def test_function_test_base_is_a_mixin():
    import numpy

    import chainerlite.functions as F
    from chainerlite.testing import function_link

    assert not issubclass(function_link.FunctionTestBase, unittest.TestCase)
    assert issubclass(testing.FunctionTestCase, function_link.FunctionTestBase)

    class Exp(function_link.FunctionTestBase, unittest.TestCase):
        __module__ = 'not_a_loaded_module'
        wrong = False

        def generate_inputs(self):
            return (numpy.random.uniform(-1, 1, (2, 3)),)

        def forward(self, inputs, device):
            return (F.exp(inputs[0]) * (2 if self.wrong else 1),)

        def forward_expected(self, inputs):
            return (numpy.exp(inputs[0]),)

        # Chainer 7.8.1's FunctionTestBase has the run_test_ methods only:
        # the test methods are the class's own
        def test_all(self, backend_config):
            self.run_test_forward(backend_config)
            self.run_test_backward(backend_config)
            self.run_test_double_backward(backend_config)

    assert not hasattr(function_link.FunctionTestBase, 'test_forward')
    cls = testing.inject_backend_tests(None, [{}])(Exp).classes[0]
    case = cls('test_all')
    case.setUp()
    case.test_all()
    cls.wrong = True
    case = cls('test_all')
    case.setUp()
    with pytest.raises(testing.FunctionTestError, match='differs'):
        case.test_all()
    # check_forward_outputs compares arrays, as Chainer's
    case.check_forward_outputs((numpy.ones(2),), (numpy.ones(2),))
    with pytest.raises(testing.FunctionTestError, match='shape'):
        case.check_forward_outputs((numpy.ones(2),), (numpy.ones(3),))


@pytest.mark.parametrize(
    'requirement, met',
    [
        ('chainer', True),
        ('chainer>=7.0.0', True),
        ('Chainer==7.8.1', True),
        ('chainer<7', False),
    ],
)
def test_requirements_on_chainer_are_met_at_its_api_level(requirement, met):
    assert helper._installed(requirement) is met

    def probe():
        pass

    marks = helper.with_requires(requirement)(probe).pytestmark
    assert bool(marks[0].args[0]) is not met


def test_as_noncontiguous_array():
    import numpy

    from chainerlite.testing import array

    x = numpy.arange(6.0).reshape(2, 3)
    y = array._as_noncontiguous_array(x)
    assert not y.flags.c_contiguous
    numpy.testing.assert_array_equal(y, x)
    one = numpy.ones(1)
    pair = array._as_noncontiguous_array((one, None))
    assert type(pair) is tuple and pair[0] is one and pair[1] is None
    assert isinstance(array._as_noncontiguous_array([x]), list)
