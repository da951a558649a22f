import threading

import pytest

import chainerlite
from chainerlite import configuration


def test_local_value_falls_back_to_global():
    assert chainerlite.config.train is True
    chainerlite.global_config.some_flag = 3
    try:
        assert chainerlite.config.some_flag == 3
        chainerlite.config.some_flag = 4
        assert chainerlite.config.some_flag == 4
        assert chainerlite.global_config.some_flag == 3
        del chainerlite.config.some_flag
        assert chainerlite.config.some_flag == 3
    finally:
        del chainerlite.global_config.some_flag


def test_missing_entry_raises_attribute_error():
    with pytest.raises(AttributeError):
        chainerlite.config.no_such_entry
    with pytest.raises(AttributeError):
        del chainerlite.config.no_such_entry


def test_using_config_nests_and_restores():
    assert not hasattr(configuration.config._local, 'train')
    with chainerlite.using_config('train', False):
        assert chainerlite.config.train is False
        with chainerlite.using_config('train', 'x'):
            assert chainerlite.config.train == 'x'
        assert chainerlite.config.train is False
    assert chainerlite.config.train is True
    assert not hasattr(configuration.config._local, 'train')


def test_using_config_restores_on_error():
    with pytest.raises(ZeroDivisionError):
        with chainerlite.using_config('enable_backprop', False):
            1 / 0
    assert chainerlite.config.enable_backprop is True


def test_backprop_modes_nest():
    with chainerlite.no_backprop_mode():
        assert not chainerlite.config.enable_backprop
        with chainerlite.force_backprop_mode():
            assert chainerlite.config.enable_backprop
        assert not chainerlite.config.enable_backprop
    assert chainerlite.config.enable_backprop
    from chainerlite.function import force_backprop_mode, no_backprop_mode

    assert no_backprop_mode is chainerlite.no_backprop_mode
    assert force_backprop_mode is chainerlite.force_backprop_mode


def test_config_is_thread_local():
    seen = {}

    def worker():
        seen['train'] = chainerlite.config.train
        seen['backprop'] = chainerlite.config.enable_backprop
        chainerlite.config.train = 'worker'

    with chainerlite.using_config('train', False), chainerlite.no_backprop_mode():
        t = threading.Thread(target=worker)
        t.start()
        t.join()
        assert chainerlite.config.train is False
    assert seen == {'train': True, 'backprop': True}


def test_show_lists_entries(capsys):
    import io

    buf = io.StringIO()
    with chainerlite.using_config('train', False):
        chainerlite.config.show(buf)
    lines = buf.getvalue().splitlines()
    assert any(line.split() == ['train', 'False'] for line in lines)
    assert lines == sorted(lines)


def test_backprop_mode_contexts_are_of_chainers_class():
    for make, inside in (
        (chainerlite.no_backprop_mode, False),
        (chainerlite.force_backprop_mode, True),
    ):
        context = make()
        assert type(context).__name__ == '_BackpropModeContext'
        before = chainerlite.config.enable_backprop
        with context as entered:
            assert entered is None
            assert chainerlite.config.enable_backprop is inside
        assert chainerlite.config.enable_backprop is before
