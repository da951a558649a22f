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
    assert observation == {'main/loss': 2.0, 'lr': 0.1}
    assert isinstance(observation['main/loss'], np.ndarray)
    assert reporter.get_current_reporter() is None


def test_report_without_reporter_does_nothing_and_unknown_observer_fails():
    reporter.report({'x': 1.0})
    with reporter.Reporter() as r:
        with pytest.raises(KeyError):
            r.report({'x': 1.0}, object())
    with pytest.raises(RuntimeError):
        with reporter.report_scope({}):
            pass


def test_reporters_are_thread_local():
    seen = []
    with reporter.Reporter():
        t = threading.Thread(
            target=lambda: seen.append(reporter.get_current_reporter()))
        t.start()
        t.join()
    assert seen == [None]


def test_summaries():
    s = reporter.Summary()
    for v in (1.0, 2.0, np.array(3.0), chainerlite.Variable(np.array(6.0))):
        s.add(v)
    assert s.compute_mean() == pytest.approx(3.0)
    mean, std = s.make_statistics()
    assert std == pytest.approx(np.std([1.0, 2.0, 3.0, 6.0]))
    d = reporter.DictSummary()
    d.add({'a': 1.0, 'b': np.array(2.0), 'skip': np.ones(3)})
    d.add({'a': 3.0})
    assert d.compute_mean() == {'a': 2.0, 'b': 2.0}
    assert d.make_statistics()['a.std'] == pytest.approx(1.0)
