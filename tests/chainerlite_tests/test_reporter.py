import threading

import numpy as np
import pytest

import chainerlite
from chainerlite import reporter


def test_report_goes_to_the_current_reporter_with_observer_prefix():
    r = reporter.Reporter()
    link = chainerlite.Link()
    r.add_observer('main', link)
    observation = {}
    with r.scope(observation):
        reporter.report({'loss': chainerlite.Variable(np.array(2.0))}, link)
        chainerlite.report({'lr': 0.1})
    assert set(observation) == {'main/loss', 'lr'}
    assert observation['lr'] == 0.1
    # A Variable is stored detached from its graph (same array).
    loss = observation['main/loss']
    assert isinstance(loss, chainerlite.Variable) and loss.creator is None
    assert float(loss.array) == 2.0
    with pytest.raises(IndexError, match='get_current_reporter: no reporter'):
        reporter.get_current_reporter()
    with r:
        assert reporter.get_current_reporter() is r


def test_keep_graph_on_report_keeps_the_variable():
    x = chainerlite.Variable(np.array([1.0]))
    y = x * 2.0
    r = reporter.Reporter()
    with chainerlite.using_config('keep_graph_on_report', True):
        r.report({'y': y})
    assert r.observation['y'] is y and y.creator is not None
    r.report({'y': y})
    assert r.observation['y'] is not y
    assert r.observation['y'].creator is None


def test_report_without_reporter_does_nothing_and_unknown_observer_fails():
    reporter.report({'x': 1.0})
    with reporter.Reporter() as r:
        with pytest.raises(KeyError):
            r.report({'x': 1.0}, object())
    with pytest.raises(IndexError):  # no current reporter, as in Chainer
        with reporter.report_scope({}):
            pass


def test_reporters_are_thread_local():
    seen = []
    with reporter.Reporter():
        t = threading.Thread(target=lambda: seen.append(reporter._current()))
        t.start()
        t.join()
    assert seen == [None]


def test_summaries():
    s = reporter.Summary()
    for v in (1.0, 2.0, np.array(3.0), chainerlite.Variable(np.array(6.0))):
        s.add(v)
    # As in Chainer, a Variable value makes the sums Variables.
    assert float(s.compute_mean().array) == pytest.approx(3.0)
    mean, std = s.make_statistics()
    assert float(std.array) == pytest.approx(np.std([1.0, 2.0, 3.0, 6.0]))
    d = reporter.DictSummary()
    d.add({'a': 1.0, 'b': np.array(2.0), 'skip': np.ones(3), 'none': None})
    d.add({'a': 3.0})
    assert d.compute_mean() == {'a': 2.0, 'b': 2.0}
    assert d.make_statistics()['a.std'] == pytest.approx(1.0)


def test_dict_summary_refuses_a_string_as_chainer_does():
    # a str is a scalar to NumPy, so Chainer 7.8.1 tries to sum it
    d = reporter.DictSummary()
    with pytest.raises(TypeError):
        d.add({'s': 'text'})
    with pytest.raises(TypeError):
        d.add({'w': (1.0, 'heavy')})


def test_weights():
    s = reporter.Summary()
    s.add(1.0, 0.5)
    s.add(2.0, np.array(1.5))
    assert s.compute_mean() == pytest.approx((0.5 + 3.0) / 2.0)
    d = reporter.DictSummary()
    d.add({'a': (4.0, chainerlite.Variable(np.array(3.0)))})
    d.add({'a': 0.0})
    assert d.compute_mean()['a'] == pytest.approx(3.0)
    with pytest.raises(ValueError, match="'a'"):
        d.add({'a': (1.0, np.ones(2))})


def test_summaries_round_trip_and_old_files(tmp_path):
    from chainerlite import serializers

    d = reporter.DictSummary()
    d.add({'a/b': 1.0, 'c': np.array(2, np.int32)})
    d.add({'a/b': 3.0, 'c': np.array(5, np.int32)})
    path = str(tmp_path / 's.npz')
    serializers.save_npz(path, d)
    loaded = reporter.DictSummary()
    loaded.add({'old': 7.0})
    serializers.load_npz(path, loaded)
    assert loaded.compute_mean() == pytest.approx({'a/b': 2.0, 'c': 3.5})
    np.savez(path, unrelated=0)
    with pytest.warns(UserWarning, match='older version'):
        serializers.load_npz(path, loaded)
    assert loaded.compute_mean() == {}
