"""A class decorator that tests a unary elementwise math function.

See :func:`unary_math_function_unittest`.
"""

import warnings

import numpy

import chainerlite
from chainerlite import gradient_check
from chainerlite.testing import array as array_module
from chainerlite.testing import attr
from chainerlite.testing import parameterized
from chainerlite.testing._requirement import requirement_checks

# Whether pytest, which the test markers need, is there (Chainer's checks).
is_available, check_available, _ = requirement_checks(__name__, 'pytest')

_SHAPES = [(3, 2), ()]
_DTYPES = [numpy.float16, numpy.float32, numpy.float64]


def _default_make_data(shape, dtype):
    return tuple(numpy.random.uniform(-1, 1, shape).astype(dtype) for _ in range(3))


def _defaults(dtype, kind):
    """Default options of each check; gradients are checked in float64."""
    if kind == 'forward':
        if dtype != numpy.float16:
            return {}
        return {'atol': 1e-3, 'rtol': 1e-3}
    if dtype != numpy.float16:
        return {'dtype': numpy.float64, 'atol': 1e-4, 'rtol': 1e-4}
    return {'dtype': numpy.float64, 'atol': 1e-3, 'rtol': 1e-2}


def _function_name(func):
    if isinstance(getattr(func, '__name__', None), str):
        return func.__name__
    return type(func).__name__.lower()


def _caller(func):
    """Returns ``func`` as a callable of one Variable."""
    if callable(func):
        return func

    def call(x):
        return func.apply((x,))[0]

    return call


def _expected_function(func, func_expected):
    if func_expected is not None:
        return func_expected
    name = _function_name(func)
    expected = getattr(numpy, name, None)
    if expected is None:
        raise ValueError(
            'unary_math_function_unittest: NumPy has no function {!r} to '
            'compare {} with; pass func_expected'.format(name, name)
        )
    return expected


def unary_math_function_unittest(
    func,
    func_expected=None,
    label_expected=None,
    make_data=None,
    is_linear=None,
    forward_options=None,
    backward_options=None,
    double_backward_options=None,
):
    """Makes a test class test a unary elementwise math function.

    The decorated class (usually an empty :class:`unittest.TestCase`) gets
    the tests ``test_forward_cpu``, ``test_backward_cpu`` and
    ``test_double_backward_cpu``, and their ``_gpu`` versions (marked with
    :func:`~chainerlite.testing.attr.gpu`), and is parameterized over the
    shapes ``(3, 2)`` and ``()`` and the dtypes float16, float32 and
    float64 (see :func:`~chainerlite.testing.parameterize`).

    * The forward test checks that ``func`` keeps the input's dtype and
      matches ``func_expected(x, dtype=x.dtype)``.
    * The backward tests run :func:`~chainerlite.gradient_check.
      check_backward` and :func:`~chainerlite.gradient_check.
      check_double_backward`.

    Numerical gradients are computed in float64 with ``atol=rtol=1e-4``;
    float16 gets looser default tolerances (forward ``atol=rtol=1e-3``,
    gradients ``atol=1e-3, rtol=1e-2``); the options given here update
    them.

    Args:
        func (callable or FunctionNode): The function under test, taking a
            Variable (a FunctionNode instance is applied to it).
        func_expected (callable): Computes the expected output from the input
            array and ``dtype=``; by default the NumPy function of the same
            name as ``func``.
        label_expected (str): Accepted for compatibility with Chainer (whose
            old versions tested the function's label); not used.
        make_data (callable): ``make_data(shape, dtype)`` returns the input,
            the output gradient and the input's second-order gradient. By
            default all three are uniform in ``[-1, 1)``.
        is_linear: Deprecated and ignored (linear functions need nothing
            special); passing it warns.
        forward_options (dict): Keyword arguments of
            :func:`~chainerlite.testing.assert_allclose`.
        backward_options (dict): Keyword arguments of ``check_backward``.
        double_backward_options (dict): Keyword arguments of
            ``check_double_backward``.

    Returns:
        callable: The class decorator.

    .. admonition:: Example

        .. code-block:: python

            @testing.unary_math_function_unittest(F.sqrt, make_data=positive)
            class TestSqrt(unittest.TestCase):
                pass

    """
    if is_linear is not None:
        warnings.warn('is_linear option is deprecated', DeprecationWarning)
    call = _caller(func)
    expected_function = _expected_function(func, func_expected)
    make = make_data or _default_make_data
    options = {
        'forward': dict(forward_options or {}),
        'backward': dict(backward_options or {}),
        'double_backward': dict(double_backward_options or {}),
    }

    def tolerances(dtype, kind):
        merged = _defaults(dtype, kind)
        merged.update(options[kind])
        return merged

    def check_forward(self, x_data):
        y = call(chainerlite.Variable(x_data))
        assert y.dtype == x_data.dtype, '{} returned dtype {} for a {} input'.format(
            _function_name(func), y.dtype, x_data.dtype
        )
        expected = expected_function(x_data, dtype=x_data.dtype)
        array_module.assert_allclose(
            expected, y.array, **tolerances(self.dtype, 'forward')
        )

    def check_backward(self, x_data, gy):
        gradient_check.check_backward(
            call, x_data, gy, **tolerances(self.dtype, 'backward')
        )

    def check_double_backward(self, x_data, gy, ggx):
        gradient_check.check_double_backward(
            call, x_data, gy, ggx, **tolerances(self.dtype, 'double_backward')
        )

    def on_gpu(*arrays):
        from chainerlite.backends import cuda

        return tuple(cuda.to_gpu(a) for a in arrays)

    def test_forward_cpu(self):
        check_forward(self, self.x)

    @attr.gpu_test_method
    def test_forward_gpu(self):
        check_forward(self, *on_gpu(self.x))

    def test_backward_cpu(self):
        check_backward(self, self.x, self.gy)

    @attr.gpu_test_method
    def test_backward_gpu(self):
        check_backward(self, *on_gpu(self.x, self.gy))

    def test_double_backward_cpu(self):
        check_double_backward(self, self.x, self.gy, self.ggx)

    @attr.gpu_test_method
    def test_double_backward_gpu(self):
        check_double_backward(self, *on_gpu(self.x, self.gy, self.ggx))

    def decorator(klass):
        original_setup = getattr(klass, 'setUp', None)

        def setUp(self):
            self.x, self.gy, self.ggx = make(self.shape, self.dtype)
            if original_setup is not None:
                original_setup(self)

        for method in (
            setUp,
            test_forward_cpu,
            test_forward_gpu,
            test_backward_cpu,
            test_backward_gpu,
            test_double_backward_cpu,
            test_double_backward_gpu,
        ):
            method.__qualname__ = '{}.{}'.format(klass.__qualname__, method.__name__)
            setattr(klass, method.__name__, method)
        return parameterized.parameterize(
            *parameterized.product({'shape': _SHAPES, 'dtype': _DTYPES})
        )(klass)

    return decorator
