"""A base class that tests a link's forward and its gradients.

See :class:`LinkTestCase`.
"""

import chainerlite
from chainerlite import gradient_check
from chainerlite.testing import array as array_module
from chainerlite.testing import function_link


class _LinkTestBase(function_link._CheckedTestCase):
    """What LinkTestCase and LinkInitializersTestCase share: making the
    link, running it and finding its parameters."""

    __test__ = False

    _error = function_link.LinkTestError
    param_names = ()

    def generate_params(self):
        """Returns the initializers given to ``create_link``."""
        raise NotImplementedError(
            '{} must define generate_params'.format(type(self).__name__)
        )

    def create_link(self, initializers):
        """Returns a new link (on the CPU) made with ``initializers``."""
        raise NotImplementedError(
            '{} must define create_link'.format(type(self).__name__)
        )

    def forward(self, link, inputs, device):
        """Applies ``link`` to the input Variables; returns a tuple."""
        outputs = link(*inputs)
        return outputs if isinstance(outputs, tuple) else (outputs,)

    def _create_link(self):
        link = self.create_link(self.generate_params())
        if not isinstance(link, chainerlite.Link):
            raise self._error(
                '{}.create_link must return a Link, not {!r}'.format(
                    type(self).__name__, link
                )
            )
        return link

    def _forward(self, link, inputs, backend_config):
        return self._check_variables(
            self.forward(link, inputs, backend_config.device), backend_config
        )

    def _params(self, link, names=None):
        # The parameters named by param_names (or names), in that order.
        params = dict(link.namedparams())
        found = []
        for name in self.param_names if names is None else names:
            param = params.get('/' + name.lstrip('/'))
            if param is None:
                raise self._error(
                    '{}: the link has no parameter {!r} (it has {})'.format(
                        type(self).__name__, name, ', '.join(sorted(params)) or 'none'
                    )
                )
            if param.array is None:
                raise self._error(
                    '{}: the parameter {!r} is still uninitialized after a '
                    'forward'.format(type(self).__name__, name)
                )
            found.append(param)
        return tuple(found)


class LinkTestCase(_LinkTestBase):
    """A base class for tests of a link (Chainer's contract).

    It provides ``test_forward`` and ``test_backward``, each taking a
    ``backend_config``, so it is decorated with
    :func:`~chainerlite.testing.inject_backend_tests` like
    :class:`~chainerlite.testing.FunctionTestCase`::

        @testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
        class TestLinear(testing.LinkTestCase):

            param_names = ('W', 'b')

            def generate_params(self):
                return (numpy.random.uniform(-1, 1, (2, 3)),
                        numpy.random.uniform(-1, 1, (2,)))

            def create_link(self, initializers):
                initialW, initial_bias = initializers
                return L.Linear(3, 2, initialW=initialW,
                                initial_bias=initial_bias)

            def generate_inputs(self):
                return numpy.random.uniform(-1, 1, (4, 3)),

            def forward_expected(self, link, inputs):
                x, = inputs
                return x.dot(link.W.array.T) + link.b.array,

    Methods a subclass must define:

    * ``generate_params(self)``: returns what ``create_link`` takes (usually
      a tuple of initial arrays or initializers).
    * ``create_link(self, initializers)``: returns a new link on the CPU.
    * ``generate_inputs(self)``: returns a tuple of ``numpy.ndarray``.
    * ``forward_expected(self, link, inputs)``: ``link`` is the tested link
      after the forward whose outputs are checked, moved back to the CPU
      (so lazily shaped parameters are initialized), ``inputs`` NumPy
      arrays; returns the expected outputs.

    Methods a subclass may define:

    * ``forward(self, link, inputs, device)``: applies the link to the
      input Variables (on ``device``, a :class:`chainerlite.backend.Device`);
      by default ``link(*inputs)`` as a tuple.
    * ``before_test(self, test_name)`` and
      ``generate_grad_outputs(self, outputs_template)``, as in
      :class:`~chainerlite.testing.FunctionTestCase`.

    Attributes a subclass may set:

    * ``param_names`` (tuple of str): The parameters whose gradients
      ``test_backward`` checks, by their names in the link (``'W'``, or
      ``'child/W'`` in a chain).
    * ``check_forward_options``, ``check_backward_options``,
      ``skip_forward_test``, ``skip_backward_test``,
      ``dodge_nondifferentiable`` and ``contiguous``, as in
      :class:`~chainerlite.testing.FunctionTestCase`.

    ``test_forward`` sends the link to the backend's device, runs it, then
    computes the expected outputs with the same link back on the CPU and
    compares them with its outputs (their number, shapes, dtypes and
    values). ``test_backward`` checks the gradients of the inputs and of
    the named parameters with
    :func:`~chainerlite.gradient_check.check_backward`. Failures raise
    :class:`~chainerlite.testing.LinkTestError`.
    """

    __test__ = False

    def forward_expected(self, link, inputs):
        """Returns the expected outputs (NumPy) of the CPU link."""
        raise NotImplementedError(
            '{} must define forward_expected'.format(type(self).__name__)
        )

    def test_forward(self, backend_config=None):
        """Checks the link's outputs against ``forward_expected``."""
        self._start('test_forward', backend_config, self.skip_forward_test)
        inputs = self._generate_inputs()
        link = self._create_link()
        with backend_config:
            link.to_device(backend_config.device)
            device_inputs = self._to_device(inputs, backend_config)
            outputs = self._forward(
                link,
                tuple(chainerlite.Variable(x) for x in device_inputs),
                backend_config,
            )
        # The link that made the outputs, lazily shaped parameters included,
        # gives the expected ones, back on the CPU.
        link.to_device('@numpy')
        expected = self._check_expected(
            self.forward_expected(link, tuple(x.copy() for x in inputs))
        )
        self._check_outputs(inputs, outputs, expected)

    def test_backward(self, backend_config=None):
        """Checks the gradients of the inputs and of ``param_names``."""
        self._start('test_backward', backend_config, self.skip_backward_test)

        def check(inputs, device_inputs):
            link = self._create_link()
            link.to_device(backend_config.device)
            # The forward that makes the output templates also initializes
            # parameters whose shape the first input decides.
            with chainerlite.using_config('enable_backprop', False):
                outputs = self._forward(
                    link,
                    tuple(chainerlite.Variable(x) for x in device_inputs),
                    backend_config,
                )
            templates = tuple(array_module._as_numpy(y.array) for y in outputs)
            y_grad = self._to_device(
                self._generate_arrays('generate_grad_outputs', templates),
                backend_config,
            )

            def f(*xs):
                return self._forward(link, xs, backend_config)

            gradient_check.check_backward(
                f,
                device_inputs,
                y_grad,
                params=self._params(link),
                **self._check_options(self.check_backward_options),
            )

        self._run_gradient_check('test_backward', backend_config, check)
