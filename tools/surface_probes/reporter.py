"""The reporter: observations, scopes, observer names, and the summaries
that average reported values (and serialize their sums)."""

import warnings

import numpy

from tools.surface_probes import _values

_try = _values.attempt


def report_and_scope(c):
    ch = c.chainer
    r = ch.Reporter()
    link = c.L.Linear(2, 2)
    r.add_observer('main', link)
    r.add_observers('main/', [('sub', link.W)])
    obs = {}
    with r.scope(obs):
        ch.report({'loss': 1.5})
        ch.report({'acc': numpy.float32(0.5)}, link)
        ch.report({'g': 2}, link.W)
        current = ch.get_current_reporter() is r
    outer = {}
    with r:
        with r.scope(outer):
            ch.report({'x': 3})
        ch.report({'after': 4})
    return [obs, outer, current, r.observation]


def report_without_reporter(c):
    ch = c.chainer
    ch.report({'ignored': 1})
    return [
        _try(lambda: ch.get_current_reporter()),
        _try(lambda: ch.reporter.report_scope({}).__enter__()),
    ]


def unregistered_observer(c):
    ch = c.chainer
    r = ch.Reporter()
    with r.scope({}):
        return [
            _try(lambda: ch.report({'a': 1}, object())),
            _try(lambda: r.report({'a': 1}, 'name')),
        ]


def nested_reporters(c):
    ch = c.chainer
    outer, inner = ch.Reporter(), ch.Reporter()
    a, b = {}, {}
    with outer.scope(a):
        ch.report({'first': 1})
        with inner.scope(b):
            ch.report({'second': 2})
            seen = ch.get_current_reporter() is inner
        ch.report({'third': 3})
    return [a, b, seen]


def report_scope_function(c):
    ch = c.chainer
    r = ch.Reporter()
    base, temp = {}, {}
    with r.scope(base):
        with ch.reporter.report_scope(temp):
            ch.report({'inside': 1})
        ch.report({'outside': 2})
    return [base, temp]


def reported_variables(c):
    ch = c.chainer
    x = ch.Variable(numpy.array([1.0, 2.0], numpy.float32))
    y = x * 2
    obs = {}
    with ch.Reporter().scope(obs):
        ch.report({'y': y})
    copied = obs['y']
    kept = {}
    with ch.using_config('keep_graph_on_report', True):
        with ch.Reporter().scope(kept):
            ch.report({'y': y})
    return [
        copied is y,
        copied.creator is None,
        copied.array is y.array,
        kept['y'] is y,
        type(copied).__name__,
    ]


def summary_statistics(c):
    S = c.chainer.reporter.Summary
    s = S()
    for v, w in ((1.0, 1), (2.0, 2), (4.0, 1)):
        s.add(v, weight=w)
    a = S()
    a.add(numpy.float32(3))
    a.add(numpy.array(5, numpy.float64))
    empty = S()
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        empty_mean = _try(lambda: empty.compute_mean())
    return [
        s.compute_mean(),
        list(s.make_statistics()),
        a.compute_mean(),
        type(a.compute_mean()).__name__,
        list(a.make_statistics()),
        empty_mean,
    ]


def dict_summary(c):
    ch = c.chainer
    d = ch.reporter.DictSummary()
    d.add({'a': 1.0, 'b': ch.Variable(numpy.array(2.0, numpy.float32))})
    d.add({'a': 3.0, 'c': numpy.ones(3), 'w': (4.0, 3)})
    d.add({'w': (ch.Variable(numpy.array(8.0)), numpy.array(1.0))})
    d.add({'n': None})
    out = [d.compute_mean(), d.make_statistics()]
    out.append(_try(lambda: d.add({'bad': (1.0, numpy.ones(2))})))
    text = ch.reporter.DictSummary()
    out.append(_try(lambda: text.add({'s': 'text'})))
    out.append(_try(lambda: text.add({'w': (1.0, 'heavy')})))
    return out


def summary_serialize(c):
    ch = c.chainer
    s = ch.reporter.Summary()
    s.add(2.0)
    s.add(4.0, weight=3)
    saved = ch.serializers.DictionarySerializer()
    s.serialize(saved)
    t = ch.reporter.Summary()
    t.serialize(ch.serializers.NpzDeserializer(saved.target))
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        u = ch.reporter.Summary()
        u.serialize(ch.serializers.NpzDeserializer({}))
    return [
        sorted(saved.target),
        {k: v for k, v in saved.target.items()},
        t.compute_mean(),
        [x.category.__name__ for x in w],
    ]


def dict_summary_serialize(c):
    ch = c.chainer
    d = ch.reporter.DictSummary()
    d.add({'loss': 1.0, 'acc': 0.5})
    d.add({'loss': 3.0})
    saved = ch.serializers.DictionarySerializer()
    d.serialize(saved)
    e = ch.reporter.DictSummary()
    e.add({'stale': 9.0})
    e.serialize(ch.serializers.NpzDeserializer(saved.target))
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        f = ch.reporter.DictSummary()
        f.serialize(ch.serializers.NpzDeserializer({}))
    names = saved.target['_names']
    return [
        sorted(saved.target),
        str(numpy.asarray(names)),
        e.compute_mean(),
        f.compute_mean(),
        [x.category.__name__ for x in w],
    ]


def observer_names_in_a_chain(c):
    ch = c.chainer
    m = ch.Chain()
    with m.init_scope():
        m.enc = c.L.Linear(2, 2)
        m.dec = c.L.Linear(2, 2)
    r = ch.Reporter()
    r.add_observer('main', m)
    r.add_observers('main', m.namedlinks(skipself=True))
    obs = {}
    with r.scope(obs):
        ch.report({'loss': 1}, m)
        ch.report({'loss': 2}, m.enc)
        ch.report({'loss': 3}, m.dec)
    return obs


PROBES = _values.probes(globals(), __name__)
