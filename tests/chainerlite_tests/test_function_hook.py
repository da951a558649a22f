import pytest

import chainerlite


class _Recorder(chainerlite.FunctionHook):
    name = 'Recorder'

    def __init__(self):
        self.deleted_calls = 0

    def deleted(self, function=None):
        self.deleted_calls += 1


def test_exit_without_enter_is_a_key_error():
    # as in Chainer 7.8.1: the registry has nothing under the hook's name
    hook = _Recorder()
    with pytest.raises(KeyError, match='Recorder'):
        hook.__exit__(None, None, None)
    assert hook.deleted_calls == 0


def test_exit_twice_is_a_key_error():
    hook = _Recorder()
    with hook:
        pass
    assert hook.deleted_calls == 1
    with pytest.raises(KeyError, match='Recorder'):
        hook.__exit__(None, None, None)
    assert hook.deleted_calls == 1


def test_exit_removes_the_hook_registered_under_the_name():
    # Chainer 7.8.1 works by name: another instance's exit removes the
    # registered one, whose deleted() is called
    registered, other = _Recorder(), _Recorder()
    with registered:
        other.__exit__(None, None, None)
        assert 'Recorder' not in chainerlite.get_function_hooks()
        assert (registered.deleted_calls, other.deleted_calls) == (1, 0)
        registered.__enter__()
