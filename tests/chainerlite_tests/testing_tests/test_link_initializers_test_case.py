import numpy
import pytest

import chainerlite.links as L
from chainerlite import initializers
from chainerlite import testing
from chainerlite.testing.backend import BackendConfig


class _LinearInit(testing.LinkInitializersTestCase):
    __test__ = False
    param_names = ('W', 'b')

    def generate_params(self):
        return (
            numpy.random.uniform(-1, 1, (2, 3)).astype(numpy.float32),
            numpy.random.uniform(-1, 1, (2,)).astype(numpy.float32),
        )

    def create_link(self, initializers):
        initial_w, initial_b = initializers
        # in_size None: W is shaped by the forward the test runs
        return L.Linear(None, 2, initialW=initial_w, initial_bias=initial_b)

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, (4, 3)).astype(numpy.float32),)


@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestLinearInitializers(_LinearInit):
    def get_initializers(self):
        return (
            [initializers.Constant(1), 2, numpy.arange(6.0).reshape(2, 3)],
            [3, testing.InitializerArgument(None, 0)],
        )


def _run(case_class):
    case = case_class('test_initializers')
    case.test_initializers(BackendConfig({}))


def test_wrong_expected_initializer_fails():
    class Wrong(_LinearInit):
        def get_initializers(self):
            # Linear's bias starts at 0 for None, not at 1
            return ([2], [testing.InitializerArgument(None, 1)])

    with pytest.raises(testing.LinkTestError, match="parameter 'b'"):
        _run(Wrong)


def test_entries_must_match_param_names():
    class Short(_LinearInit):
        def get_initializers(self):
            return ([2],)

    with pytest.raises(testing.LinkTestError, match='must match'):
        _run(Short)


def test_create_link_must_return_a_link():
    class NotALink(_LinearInit):
        def create_link(self, initializers):
            return 'linear'

        def get_initializers(self):
            return ([2], [3])

    with pytest.raises(testing.LinkTestError, match='must return a Link'):
        _run(NotALink)


def test_skip_initializers_test():
    class Skipped(_LinearInit):
        skip_initializers_test = True

    with pytest.raises(Exception) as info:
        _run(Skipped)
    assert type(info.value).__name__ == 'SkipTest'


def test_link_and_function_errors_are_distinct_assertion_errors():
    assert issubclass(testing.LinkTestError, AssertionError)
    assert not issubclass(testing.LinkTestError, testing.FunctionTestError)
    arg = testing.InitializerArgument(None, 0)
    assert (arg.argument_value, arg.expected_initializer) == (None, 0)
