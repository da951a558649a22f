import sys
import unittest

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import testing


def _positive(shape, dtype):
    x = numpy.random.uniform(0.5, 2, shape).astype(dtype)
    gy = numpy.random.uniform(-1, 1, shape).astype(dtype)
    ggx = numpy.random.uniform(-1, 1, shape).astype(dtype)
    return x, gy, ggx


@testing.unary_math_function_unittest(F.exp)
class TestExp(unittest.TestCase):
    pass


@testing.unary_math_function_unittest(
    F.sqrt,
    make_data=_positive,
    func_expected=lambda x, dtype: numpy.sqrt(x, dtype=dtype),
    backward_options={'eps': 1e-3},
)
class TestSqrt(unittest.TestCase):
    def setUp(self):
        self.original_setup_ran = True

    def test_own_setup_runs_after_the_data(self):
        assert self.original_setup_ran
        assert self.x.dtype == self.dtype and self.x.shape == self.shape
        assert (self.x >= 0.5).all()


def _generated(prefix):
    module = sys.modules[__name__]
    return [
        value
        for name, value in vars(module).items()
        if name.startswith(prefix + '_param_')
    ]


def test_parameterized_over_shapes_and_dtypes():
    classes = _generated('TestExp')
    assert sorted((c.shape, numpy.dtype(c.dtype).name) for c in classes) == sorted(
        (s, d) for s in [(3, 2), ()] for d in ['float16', 'float32', 'float64']
    )
    methods = sorted(n for n in dir(classes[0]) if n.startswith('test'))
    assert methods == [
        'test_backward_cpu',
        'test_backward_gpu',
        'test_double_backward_cpu',
        'test_double_backward_gpu',
        'test_forward_cpu',
        'test_forward_gpu',
    ]
    marks = [m.name for m in classes[0].test_forward_gpu.pytestmark]
    assert 'gpu' in marks


def _run(decorator, test_name, dtype=numpy.float32):
    cls = type('Target', (unittest.TestCase,), {'__module__': 'not_a_loaded_module'})
    target = [
        c for c in decorator(cls).classes if c.dtype == dtype and c.shape == (3, 2)
    ][0]
    result = unittest.TestResult()
    target(test_name).run(result)
    return result


def test_wrong_expected_fails_forward():
    result = _run(
        testing.unary_math_function_unittest(
            F.exp, func_expected=lambda x, dtype: numpy.exp(x) + 1
        ),
        'test_forward_cpu',
    )
    assert len(result.failures) == 1


def test_wrong_dtype_fails_forward():
    def to_float64(x):
        return F.cast(F.exp(x), numpy.float64)

    result = _run(
        testing.unary_math_function_unittest(
            to_float64, func_expected=lambda x, dtype: numpy.exp(x)
        ),
        'test_forward_cpu',
    )
    assert 'float64' in result.failures[0][1]


def test_wrong_gradient_fails_backward():
    def exp_with_cut_gradient(x):
        return F.exp(x) + chainerlite.Variable(numpy.exp(x.array))

    result = _run(
        testing.unary_math_function_unittest(
            exp_with_cut_gradient, func_expected=lambda x, dtype: 2 * numpy.exp(x)
        ),
        'test_backward_cpu',
    )
    assert len(result.failures) == 1
    result = _run(
        testing.unary_math_function_unittest(
            exp_with_cut_gradient, func_expected=lambda x, dtype: 2 * numpy.exp(x)
        ),
        'test_forward_cpu',
    )
    assert result.wasSuccessful()


def test_function_without_numpy_counterpart_needs_func_expected():
    def not_in_numpy(x):
        return x

    with pytest.raises(ValueError, match='func_expected'):
        testing.unary_math_function_unittest(not_in_numpy)


def test_is_linear_is_deprecated():
    with pytest.warns(DeprecationWarning, match='is_linear'):
        testing.unary_math_function_unittest(F.exp, is_linear=True)
