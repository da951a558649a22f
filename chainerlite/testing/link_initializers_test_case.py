"""A base class that tests how a link initializes its parameters.

See :class:`LinkInitializersTestCase`.
"""

import numpy

import chainerlite
from chainerlite import initializers
from chainerlite.testing import array as array_module
from chainerlite.testing import link_test_case


class InitializerArgument:
    """An initializer argument of a link and the initializer it stands for.

    For :meth:`LinkInitializersTestCase.get_initializers` when the value
    passed to the link's constructor is not itself what initializes the
    parameter (``None`` for a bias that starts at zero, say).

    Args:
        argument_value: What ``create_link`` passes to the constructor.
        expected_initializer: The initializer-like (initializer, scalar or
            array) the link should then use.
    """

    def __init__(self, argument_value, expected_initializer):
        self.argument_value = argument_value
        self.expected_initializer = expected_initializer

    def __repr__(self):
        return 'InitializerArgument({!r}, {!r})'.format(
            self.argument_value, self.expected_initializer
        )


class LinkInitializersTestCase(link_test_case._LinkTestBase):
    """A base class for tests of a link's parameter initializers (Chainer's
    contract).

    It provides ``test_initializers``, which takes a ``backend_config``, so
    the class is decorated with
    :func:`~chainerlite.testing.inject_backend_tests`::

        @testing.inject_backend_tests(None, [{}])
        class TestConvInit(testing.LinkInitializersTestCase):

            param_names = ('W', 'b')

            def generate_params(self):
                return (numpy.ones((2, 3, 1, 1), numpy.float32),
                        numpy.zeros((2,), numpy.float32))

            def create_link(self, initializers):
                initialW, initial_bias = initializers
                return L.Convolution2D(None, 2, 1, initialW=initialW,
                                       initial_bias=initial_bias)

            def generate_inputs(self):
                return numpy.ones((1, 3, 4, 4), numpy.float32),

            def get_initializers(self):
                return ([initializers.Constant(1), 2],
                        [3, testing.InitializerArgument(None, 0)])

    Methods a subclass must define: ``generate_params``, ``create_link`` and
    ``generate_inputs`` as for :class:`~chainerlite.testing.LinkTestCase`,
    and ``get_initializers(self)``: one sequence per initializer argument
    of the link (in the order of ``generate_params`` and ``param_names``),
    listing the initializer-likes to try for it; an entry may be an
    :class:`InitializerArgument`. Each is tried alone, the other arguments
    coming from ``generate_params``, so they must be deterministic.

    Methods a subclass may define: ``forward(self, link, inputs, device)``
    (by default ``link(*inputs)``) and ``before_test(self, test_name)``.

    Attributes a subclass may set: ``param_names`` (the parameter each
    initializer argument initializes), ``check_initializers_options``
    (``atol``/``rtol`` for the comparison), ``contiguous`` and
    ``skip_initializers_test``.

    For each candidate, ``test_initializers`` creates the link, sends it to
    the backend's device, runs a forward (so lazily shaped parameters exist)
    and compares the parameter with an array that the expected initializer
    fills. Failures raise :class:`~chainerlite.testing.LinkTestError`.
    """

    __test__ = False

    check_initializers_options = {}
    skip_initializers_test = False

    def get_initializers(self):
        """Returns, per initializer argument, the initializer-likes to try."""
        raise NotImplementedError(
            '{} must define get_initializers'.format(type(self).__name__)
        )

    def test_initializers(self, backend_config=None):
        """Checks each parameter against each of its initializers."""
        self._start('test_initializers', backend_config, self.skip_initializers_test)
        defaults = tuple(self.generate_params())
        candidates = tuple(self.get_initializers())
        names = tuple(self.param_names)
        if not len(candidates) == len(defaults) == len(names):
            raise self._error(
                '{}: get_initializers gave {} entries, generate_params {} and '
                'param_names {}; they must match'.format(
                    type(self).__name__, len(candidates), len(defaults), len(names)
                )
            )
        for i, options in enumerate(candidates):
            for option in options:
                self._check_initializer(defaults, i, option)

    def _check_initializer(self, defaults, i, option):
        if isinstance(option, InitializerArgument):
            argument, expected = option.argument_value, option.expected_initializer
        else:
            argument = expected = option
        arguments = list(defaults)
        arguments[i] = argument
        link = self.create_link(tuple(arguments))
        if not isinstance(link, chainerlite.Link):
            raise self._error(
                '{}.create_link must return a Link, not {!r}'.format(
                    type(self).__name__, link
                )
            )
        config = self.backend_config
        inputs = self._generate_inputs()
        with config:
            link.to_device(config.device)
            device_inputs = self._to_device(inputs, config)
            with chainerlite.using_config('enable_backprop', False):
                self._forward(
                    link, tuple(chainerlite.Variable(x) for x in device_inputs), config
                )
        (param,) = self._params(link, (self.param_names[i],))
        actual = array_module._as_numpy(param.array)
        wanted = initializers.generate_array(
            initializers._get_initializer(expected),
            actual.shape,
            numpy,
            dtype=actual.dtype,
        )
        try:
            array_module.assert_allclose(
                actual, wanted, **self.check_initializers_options
            )
        except AssertionError as error:
            self._fail(
                'test_initializers',
                'parameter {!r} made with the initializer argument {!r} '
                'differs from what {!r} gives\n{}'.format(
                    self.param_names[i], argument, expected, error
                ),
                inputs,
            )
