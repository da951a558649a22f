import io
import threading

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
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


def _public(obj):
    return [name for name in dir(obj) if not name.startswith('_')]


def test_dir_shows_what_chainers_shows():
    # Chainer's config lists no entry (only show); its global_config lists
    # its own entries, not chainerlite's retain_graph until a program sets it.
    assert _public(chainerlite.config) == ['show']
    assert 'train' in dir(chainerlite.global_config)
    assert 'retain_graph' not in dir(chainerlite.global_config)
    buf = io.StringIO()
    chainerlite.global_config.show(buf)
    assert 'retain_graph' not in buf.getvalue()


def test_retain_graph_reads_its_default_and_can_be_set_and_deleted():
    g = chainerlite.global_config
    assert g.retain_graph is True and chainerlite.config.retain_graph is True
    g.retain_graph = False
    try:
        assert chainerlite.config.retain_graph is False
        assert 'retain_graph' in dir(g)
        with chainerlite.using_config('retain_graph', True):
            assert chainerlite.config.retain_graph is True
        with chainerlite.using_config('retain_graph', True, config=g):
            assert g.retain_graph is True
        assert g.retain_graph is False
    finally:
        del g.retain_graph
    assert g.retain_graph is True and 'retain_graph' not in dir(g)
    x = chainerlite.Variable(numpy.ones(2, numpy.float32))
    y = F.sum(x * x)
    y.backward()
    y.backward()  # the default retains the graph again after the delete
    del g.retain_graph  # deleting the default is a no-op, not an error
    assert g.retain_graph is True
