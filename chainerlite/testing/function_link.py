"""A base class that tests a function's forward, backward and double backward.

See :class:`FunctionTestCase`.
"""

import contextlib
import unittest

import numpy

import chainerlite
from chainerlite import gradient_check
from chainerlite import utils
from chainerlite.testing import array as array_module
from chainerlite.testing import backend

# How many times dodge_nondifferentiable draws new inputs before giving up.
_DODGE_TRIES = 10

_OPTION_DICTS = (
    'check_forward_options',
    'check_backward_options',
    'check_double_backward_options',
)


class _TestError(AssertionError):
    """The base of the errors the test case classes raise."""

    @classmethod
    def check(cls, expr, message):
        """Raises this error with ``message`` unless ``expr`` is true."""
        if not expr:
            raise cls(message)

    @classmethod
    def fail(cls, message, exc=None):
        """Raises this error with ``message``; given the exception ``exc``
        that caused the failure, the message ends with it and the error
        carries its traceback."""
        if exc is not None:
            utils._raise_from(cls, message, exc)
        raise cls(message)

    @classmethod
    @contextlib.contextmanager
    def raise_if_fail(cls, message, error_types=AssertionError):
        """Within the ``with`` block, turns an exception of ``error_types``
        into this error (by :meth:`fail`)."""
        try:
            yield
        except error_types as e:
            cls.fail(message, e)


class FunctionTestError(_TestError):
    """Raised when a function under test, or its test case, is wrong.

    It is an :class:`AssertionError`, so test runners report it as a failure.
    """


class LinkTestError(_TestError):
    """Raised when a link under test, or its test case, is wrong.

    It is an :class:`AssertionError`, so test runners report it as a failure.
    """


def _format_arrays(title, arrays):
    return gradient_check._format_arrays(title, arrays)


def _uniform(template):
    if template.dtype.kind != 'f':
        return None
    return numpy.random.uniform(-1, 1, template.shape).astype(template.dtype)


class _Checks(object):
    """What FunctionTestCase and LinkTestCase share: fixtures and checks
    (a mixin: the test case classes add unittest.TestCase)."""

    __test__ = False

    # The BackendConfig of the running test (None outside one).
    backend_config = None
    check_forward_options = {}
    check_backward_options = {}
    skip_forward_test = False
    skip_backward_test = False
    dodge_nondifferentiable = False
    contiguous = None
    # The dtype the numerical gradients are computed in (a ``dtype`` in the
    # check options wins).
    numerical_grad_dtype = numpy.float64
    # What the checks raise: FunctionTestError, or LinkTestError for links.
    _error: type[_TestError] = FunctionTestError

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if '__test__' not in cls.__dict__:
            cls.__test__ = True

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Each test gets its own option dicts: setUp often updates them, and
        # the class attributes are shared by every test of the class.
        for name in _OPTION_DICTS:
            if hasattr(self, name):
                setattr(self, name, dict(getattr(self, name)))

    def before_test(self, test_name):
        """Called before each test; raise unittest.SkipTest to skip it."""

    def generate_inputs(self):
        """Returns a tuple of input arrays (``numpy.ndarray``)."""
        raise NotImplementedError(
            '{} must define generate_inputs'.format(type(self).__name__)
        )

    def generate_grad_outputs(self, outputs_template):
        """Returns random gradients shaped like the outputs."""
        return tuple(_uniform(t) for t in outputs_template)

    def _start(self, test_name, backend_config, skip):
        if backend_config is None:
            raise self._error(
                '{}.{} needs a backend_config: decorate the class with '
                'chainerlite.testing.inject_backend_tests'.format(
                    type(self).__name__, test_name
                )
            )
        self.backend_config = backend_config
        self.test_name = test_name
        self.before_test(test_name)
        if skip:
            raise unittest.SkipTest(
                'skip_{}_test is set'.format(test_name[len('test_') :])
            )
        if self.contiguous not in (None, 'C'):
            raise self._error(
                "contiguous must be None or 'C', not {!r}".format(self.contiguous)
            )

    def _fail(self, test_name, message, inputs):
        raise self._error(
            '{}.{} on backend {{{}}}: {}\n{}'.format(
                type(self).__name__,
                test_name,
                backend.given_options(self.backend_config),
                message,
                _format_arrays('inputs:', inputs),
            )
        )

    def _generate_arrays(self, method_name, templates=None):
        method = getattr(self, method_name)
        arrays = method() if templates is None else method(templates)
        allow_none = templates is not None
        if not isinstance(arrays, tuple) or not all(
            isinstance(a, numpy.ndarray) or (allow_none and a is None) for a in arrays
        ):
            raise self._error(
                '{}.{} must return a tuple of numpy.ndarray, not {!r}'.format(
                    type(self).__name__, method_name, arrays
                )
            )
        if templates is not None:
            if len(arrays) != len(templates):
                raise self._error(
                    '{}.{} returned {} arrays for {} templates'.format(
                        type(self).__name__, method_name, len(arrays), len(templates)
                    )
                )
            for i, (a, t) in enumerate(zip(arrays, templates)):
                if a is not None and a.shape != t.shape:
                    raise self._error(
                        '{}.{} returned shape {} at {}, expected {}'.format(
                            type(self).__name__, method_name, a.shape, i, t.shape
                        )
                    )
        return arrays

    def _generate_inputs(self):
        return self._generate_arrays('generate_inputs')

    def _check_expected(self, expected):
        if not isinstance(expected, tuple) or not all(
            isinstance(y, (numpy.ndarray, numpy.generic)) for y in expected
        ):
            raise self._error(
                '{}.forward_expected must return a tuple of numpy.ndarray, '
                'not {!r}'.format(type(self).__name__, expected)
            )
        return tuple(numpy.asarray(y) for y in expected)

    def _to_device(self, arrays, backend_config):
        # Always copies: the checks must not share memory with the inputs
        # generated on the host.
        xp = backend_config.xp
        moved = []
        for a in backend_config.get_array(tuple(arrays)):
            if a is None:
                moved.append(None)
            elif self.contiguous == 'C':
                moved.append(xp.array(a, order='C'))
            else:
                moved.append(array_module._as_noncontiguous(xp, a))
        return tuple(moved)

    def _check_variables(self, outputs, backend_config):
        if not isinstance(outputs, tuple) or not all(
            isinstance(y, chainerlite.Variable) for y in outputs
        ):
            raise self._error(
                '{}.forward must return a tuple of Variables, not {!r}'.format(
                    type(self).__name__, outputs
                )
            )
        xp = backend_config.xp
        for i, y in enumerate(outputs):
            if not isinstance(y.array, xp.ndarray):
                raise self._error(
                    'output {} of {}.forward is a {}, not an array of the '
                    'device {}'.format(
                        i,
                        type(self).__name__,
                        type(y.array).__name__,
                        backend_config.device,
                    )
                )
        return outputs

    def _check_outputs(self, inputs, outputs, expected):
        self._failure_inputs = inputs
        self.check_forward_outputs(tuple(y.array for y in outputs), expected)

    def check_forward_outputs(self, outputs, expected_outputs):
        """Checks the output arrays of the forward test against the
        expected ones: their number, shapes and dtypes, and their values
        within ``check_forward_options``.

        Raises:
            FunctionTestError: (LinkTestError for a link) If they differ.

        """
        inputs = getattr(self, '_failure_inputs', ())
        expected = expected_outputs
        if len(outputs) != len(expected):
            self._fail(
                'test_forward',
                'forward returned {} outputs, forward_expected {}'.format(
                    len(outputs), len(expected)
                ),
                inputs,
            )
        for i, (y, e) in enumerate(zip(outputs, expected)):
            if y.shape != e.shape or y.dtype != e.dtype:
                self._fail(
                    'test_forward',
                    'output {} has shape {} and dtype {}, but {} and {} '
                    'are expected'.format(i, y.shape, y.dtype, e.shape, e.dtype),
                    inputs,
                )
            try:
                array_module.assert_allclose(y, e, **self.check_forward_options)
            except AssertionError as error:
                self._fail(
                    'test_forward',
                    'output {} differs from forward_expected\n{}\n{}'.format(
                        i,
                        _format_arrays('actual:', [y]),
                        _format_arrays('expected:', [e]),
                    )
                    + '\n'
                    + str(error),
                    inputs,
                )

    def _check_options(self, options):
        # As in Chainer, the numerical side runs in numerical_grad_dtype
        # (float64 unless a test asks for another dtype).
        options = dict(options)
        options.setdefault('dtype', self.numerical_grad_dtype)
        if self.dodge_nondifferentiable:
            options['detect_nondifferentiable'] = True
        return options

    def _run_gradient_check(self, test_name, backend_config, check):
        tries = _DODGE_TRIES if self.dodge_nondifferentiable else 1
        for _ in range(tries):
            inputs = self._generate_inputs()
            with backend_config:
                device_inputs = self._to_device(inputs, backend_config)
                try:
                    check(inputs, device_inputs)
                    return
                except gradient_check.NondifferentiableError as error:
                    if not self.dodge_nondifferentiable:
                        raise
                    reason = str(error)
                except _TestError:
                    raise
                except AssertionError as error:
                    raise self._error(
                        '{}.{} on backend {{{}}} failed:\n{}'.format(
                            type(self).__name__,
                            test_name,
                            backend.given_options(backend_config),
                            error,
                        )
                    ) from None
        self._fail(
            test_name,
            'no differentiable inputs found in {} tries; the last '
            'were rejected with: {}'.format(tries, reason),
            inputs,
        )


class _CheckedTestCase(_Checks, unittest.TestCase):
    """The shared checks as a test case (LinkTestCase's base)."""

    __test__ = False


class FunctionTestBase(_Checks):
    """The checks of :class:`FunctionTestCase` without
    :class:`unittest.TestCase`, as Chainer's mixin: ``run_test_forward``,
    ``run_test_backward`` and ``run_test_double_backward`` (each taking a
    ``backend_config``) do the checks, which a class listing it with a test
    case class calls from test methods of its own (FunctionTestCase's
    ``test_forward``, ... call them)."""

    __test__ = False

    check_double_backward_options = {}
    skip_double_backward_test = False

    def forward(self, inputs, device):
        """Applies the tested function to Variables; returns a tuple."""
        raise NotImplementedError('{} must define forward'.format(type(self).__name__))

    def forward_expected(self, inputs):
        """Returns the expected outputs (NumPy arrays) for NumPy inputs."""
        raise NotImplementedError(
            '{} must define forward_expected'.format(type(self).__name__)
        )

    def generate_grad_grad_inputs(self, inputs_template):
        """Returns random second order gradients shaped like the inputs."""
        return tuple(_uniform(t) for t in inputs_template)

    def run_test_forward(self, backend_config):
        """Checks the outputs of ``forward`` against ``forward_expected``."""
        self._start('test_forward', backend_config, self.skip_forward_test)
        inputs = self._generate_inputs()
        expected = self._forward_expected(tuple(x.copy() for x in inputs))
        with backend_config:
            device_inputs = self._to_device(inputs, backend_config)
            outputs = self._forward(
                tuple(chainerlite.Variable(x) for x in device_inputs), backend_config
            )
        self._check_outputs(inputs, outputs, expected)
        for i, (x, dx) in enumerate(zip(inputs, device_inputs)):
            if not numpy.array_equal(x, array_module._as_numpy(dx), equal_nan=True):
                self._fail(
                    'test_forward',
                    'forward modified input {} in place'.format(i),
                    inputs,
                )

    def run_test_backward(self, backend_config):
        """Checks the gradients of ``forward`` with ``check_backward``."""
        self._start('test_backward', backend_config, self.skip_backward_test)

        def check(inputs, device_inputs):
            y_grad = self._grad_outputs(inputs, device_inputs, backend_config)
            gradient_check.check_backward(
                self._forward_function(backend_config),
                device_inputs,
                y_grad,
                **self._check_options(self.check_backward_options),
            )

        self._run_gradient_check('test_backward', backend_config, check)

    def run_test_double_backward(self, backend_config):
        """Checks the second order gradients with ``check_double_backward``."""
        self._start(
            'test_double_backward', backend_config, self.skip_double_backward_test
        )

        def check(inputs, device_inputs):
            y_grad = self._grad_outputs(inputs, device_inputs, backend_config)
            x_grad_grad = self._generate_arrays('generate_grad_grad_inputs', inputs)
            gradient_check.check_double_backward(
                self._forward_function(backend_config),
                device_inputs,
                y_grad,
                self._to_device(x_grad_grad, backend_config),
                **self._check_options(self.check_double_backward_options),
            )

        self._run_gradient_check('test_double_backward', backend_config, check)

    def _forward_expected(self, inputs):
        return self._check_expected(self.forward_expected(inputs))

    def _forward(self, inputs, backend_config):
        return self._check_variables(
            self.forward(inputs, backend_config.device), backend_config
        )

    def _forward_function(self, backend_config):
        def f(*inputs):
            return self._forward(inputs, backend_config)

        return f

    def _grad_outputs(self, inputs, device_inputs, backend_config):
        with chainerlite.using_config('enable_backprop', False):
            outputs = self._forward(
                tuple(chainerlite.Variable(x) for x in device_inputs), backend_config
            )
        templates = tuple(array_module._as_numpy(y.array) for y in outputs)
        y_grad = self._generate_arrays('generate_grad_outputs', templates)
        return self._to_device(y_grad, backend_config)


class FunctionTestCase(FunctionTestBase, unittest.TestCase):
    """A base class for tests of a function (Chainer's contract).

    A subclass defines the function and its expected behaviour; this class
    provides ``test_forward``, ``test_backward`` and ``test_double_backward``,
    each taking a ``backend_config``, so it is decorated with
    :func:`~chainerlite.testing.inject_backend_tests` (and usually
    :func:`~chainerlite.testing.parameterize`)::

        @testing.parameterize(*testing.product({
            'shape': [(), (3, 2)],
            'dtype': [numpy.float16, numpy.float32, numpy.float64],
        }))
        @testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
        class TestExp(testing.FunctionTestCase):

            def setUp(self):
                if self.dtype == numpy.float16:
                    self.check_forward_options = {'atol': 1e-3, 'rtol': 1e-3}
                    self.check_backward_options = {'dtype': numpy.float64}

            def generate_inputs(self):
                x = numpy.random.uniform(-1, 1, self.shape)
                return x.astype(self.dtype),

            def forward(self, inputs, device):
                x, = inputs
                return F.exp(x),

            def forward_expected(self, inputs):
                x, = inputs
                return numpy.exp(x),

    Methods a subclass must define:

    * ``generate_inputs(self)``: returns a tuple of ``numpy.ndarray`` inputs.
    * ``forward(self, inputs, device)``: ``inputs`` is a tuple of Variables
      on ``device`` (a :class:`chainerlite.backend.Device`); returns a tuple
      of output Variables on the same device.
    * ``forward_expected(self, inputs)``: ``inputs`` is a tuple of
      ``numpy.ndarray``; returns a tuple of the expected output arrays, with
      the dtypes the outputs must have.

    Methods a subclass may define:

    * ``before_test(self, test_name)``: called before each test, with
      ``test_name`` one of ``'test_forward'``, ``'test_backward'`` and
      ``'test_double_backward'`` (``self.backend_config`` and
      ``self.test_name`` are set, the latter also while the inputs are
      generated); raise :class:`unittest.SkipTest` there to skip.
    * ``generate_grad_outputs(self, outputs_template)``: returns a tuple of
      output gradients (NumPy), one per output of the shape and dtype of its
      template (host copies of the outputs). By default uniform in
      ``[-1, 1)``, ``None`` for non-float outputs.
    * ``generate_grad_grad_inputs(self, inputs_template)``: the same for the
      gradients of the input gradients, used by the double backward test.

    Attributes a subclass may set (as class or instance attributes):

    * ``check_forward_options`` (dict): keyword arguments of
      :func:`~chainerlite.testing.assert_allclose` (``atol``, ``rtol``).
    * ``check_backward_options`` (dict): keyword arguments of
      :func:`~chainerlite.gradient_check.check_backward` (``eps``, ``atol``,
      ``rtol``, ``dtype``, ``no_grads``).
    * ``check_double_backward_options`` (dict): keyword arguments of
      :func:`~chainerlite.gradient_check.check_double_backward`.
    * ``skip_forward_test``, ``skip_backward_test``,
      ``skip_double_backward_test`` (bool): skip that test.
    * ``dodge_nondifferentiable`` (bool): the gradient checks detect inputs
      at which the function is not differentiable, and new inputs are
      generated (up to 10 times) when they are.
    * ``contiguous`` (``None`` or ``'C'``): ``None`` (the default) makes the
      arrays given to the function non-contiguous where their shape allows;
      ``'C'`` makes them C-contiguous.

    Each test works on its own copies of the three option dicts, so
    ``setUp`` may update them in place.

    The forward test checks that the outputs have the expected number, shape
    and dtype, are arrays of the device, match ``forward_expected`` within
    ``check_forward_options``, and that the inputs are left unchanged.
    Failures raise :class:`FunctionTestError` (an :class:`AssertionError`)
    whose message shows the inputs; so do malformed test cases (for example
    a ``forward`` that does not return Variables).

    A subclass that is a base for other test classes, not a test itself, sets
    ``__test__ = False`` so that pytest does not collect it.
    """

    __test__ = False

    def test_forward(self, backend_config=None):
        """Runs :meth:`run_test_forward`."""
        self.run_test_forward(backend_config)

    def test_backward(self, backend_config=None):
        """Runs :meth:`run_test_backward`."""
        self.run_test_backward(backend_config)

    def test_double_backward(self, backend_config=None):
        """Runs :meth:`run_test_double_backward`."""
        self.run_test_double_backward(backend_config)


# Chainer offers the link test cases at this path too; they import this
# module, so they come last.
from chainerlite.testing.link_initializers_test_case import InitializerArgument  # NOQA: E402,F401
from chainerlite.testing.link_initializers_test_case import LinkInitializersTestCase  # NOQA: E402,E501,F401
from chainerlite.testing.link_test_case import LinkTestCase  # NOQA: E402,F401
