"""Runner for ``chainer.reporter``: the observations a Reporter collects
(names prefixed by observers, Variables and arrays), and the means,
statistics and serialized state of Summary and DictSummary, for the same
generated values and weights."""

import numpy
from hypothesis import strategies as st

from tools.diff_chainer import pair
from tools.diff_chainer import strategies as S

# The reporter's names that ``chainer`` re-exports.
NAMES = frozenset(
    'Reporter Summary DictSummary report report_scope get_current_reporter'.split()
)
values = st.sampled_from(['float', 'array', 'variable', 'int'])


def _value(lib, kind, x):
    if kind == 'float':
        return float(x)
    if kind == 'int':
        return int(x * 10)
    if kind == 'array':
        return numpy.asarray(x, numpy.float32)
    return lib.Variable(numpy.asarray(x, numpy.float32))


def _observed(lib, name, kinds, xs):
    """What report / report_scope / Reporter.report put in an observation."""
    reporter = lib.reporter.Reporter()
    link = lib.links.Linear(2, 2)
    reporter.add_observer('main', link)
    observation = {}
    with reporter.scope(observation):
        for i, (kind, x) in enumerate(zip(kinds, xs)):
            values = {f'v{i}': _value(lib, kind, x)}
            if name == 'report':
                lib.reporter.report(values, link)
            elif name == 'get_current_reporter':
                lib.reporter.get_current_reporter().report(values)
            elif name == 'report_scope':
                inner = {}
                with lib.reporter.report_scope(inner):
                    lib.reporter.report(values)
                observation[f'inner{i}'] = inner
            else:
                reporter.report(values, link)
    return observation


def _summary(lib, name, kinds, xs, weights):
    summary = getattr(lib.reporter, name)()
    for i, (kind, x, w) in enumerate(zip(kinds, xs, weights)):
        value = _value(lib, kind, x)
        if name == 'DictSummary':
            summary.add({'a': value, f'k{i % 2}': value})
        else:
            summary.add(value, weight=w)
    target = lib.serializers.DictionarySerializer()
    target.save(summary)
    return {
        'mean': summary.compute_mean(),
        'statistics': summary.make_statistics(),
        'serialized': target.target,
    }


def run(qualified, libs, tally, examples, seconds):
    name = qualified.rpartition('.')[2]

    def draw_case(data):
        n = data.draw(st.integers(1, 4))
        kinds = data.draw(st.lists(values, min_size=n, max_size=n))
        xs = S.make_array(data.draw(S.seeds), (n,), numpy.float64).tolist()
        weights = data.draw(
            st.lists(st.sampled_from([1, 2, 0.5]), min_size=n, max_size=n)
        )
        if name in ('Summary', 'DictSummary'):
            stage = lambda lib, s: _summary(lib, name, kinds, xs, weights)  # noqa: E731
        else:
            stage = lambda lib, s: _observed(lib, name, kinds, xs)  # noqa: E731
        pair.run_case(libs, [('observed', stage)], tally, f'{name} {kinds} {weights}')

    pair.explore(draw_case, examples, seconds)
