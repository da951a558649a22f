"""The error classes of the function and link test cases, and the
``backend_config`` attribute of the test case classes outside a test."""

import pytest

from chainerlite import testing


@pytest.mark.parametrize('error', [testing.FunctionTestError, testing.LinkTestError])
def test_check_raises_only_when_false(error):
    error.check(1 + 1 == 2, 'never raised')
    with pytest.raises(error, match='^sums differ$'):
        error.check(1 + 1 == 3, 'sums differ')


@pytest.mark.parametrize('error', [testing.FunctionTestError, testing.LinkTestError])
def test_fail_names_the_cause(error):
    with pytest.raises(error, match='^plain$'):
        error.fail('plain')
    cause = KeyError('missing')
    with pytest.raises(error) as info:
        error.fail('lookup went wrong', cause)
    message = str(info.value)
    assert message.startswith('lookup went wrong')
    assert "KeyError: 'missing'" in message


def test_raise_if_fail_converts_the_listed_errors_only():
    with pytest.raises(testing.FunctionTestError, match='outputs differ'):
        with testing.FunctionTestError.raise_if_fail('outputs differ'):
            assert False, 'the assert inside'
    with pytest.raises(ValueError):
        with testing.FunctionTestError.raise_if_fail('outputs differ'):
            raise ValueError('not an AssertionError')
    with pytest.raises(testing.LinkTestError, match='bad value'):
        with testing.LinkTestError.raise_if_fail('bad value', ValueError):
            raise ValueError('inner')
    with testing.LinkTestError.raise_if_fail('unused'):
        pass


@pytest.mark.parametrize(
    'case',
    [testing.FunctionTestCase, testing.LinkTestCase, testing.LinkInitializersTestCase],
)
def test_backend_config_is_none_outside_a_test(case):
    assert case.backend_config is None
