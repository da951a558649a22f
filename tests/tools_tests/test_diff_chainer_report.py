"""The differential harness's scores and floor file (tools/diff_chainer/report.py)."""

import json
import pathlib

import pytest

from tools.diff_chainer import report


def _entry(cases, agreed):
    return {
        'aspects': {} if cases == agreed else {'forward': 1},
        'examples': {},
        'cases': cases,
        'agreed': agreed,
    }


RESULTS = {
    'chainer.functions.a': _entry(100, 100),
    'chainer.functions.b': _entry(100, 90),
    'chainer.functions.c': _entry(20, 19),
    'chainer.links.D': {
        'aspects': {},
        'examples': {},
        'reason': 'no runner',
        'cases': 0,
        'agreed': 0,
    },
}


def test_scores_per_name_and_total():
    s = report.scores(RESULTS)
    assert s['per_name'] == {
        'chainer.functions.a': 1.0,
        'chainer.functions.b': 0.9,
        'chainer.functions.c': 0.95,
    }
    assert s['total'] == round(209 / 220, 4)
    assert not s['total_meets_goal']
    assert (s['names_scored'], s['names_meeting_goal']) == (3, 2)
    assert s['below_goal'] == [
        {'name': 'chainer.functions.b', 'share': 0.9, 'cases': 100}
    ]
    assert report.scores({'x': _entry(200, 199)})['total_meets_goal']


def test_below_floor_names_and_total():
    floor = {
        'total': 0.96,
        'names': {
            'chainer.functions.a': 1.0,
            'chainer.functions.b': 0.91,
            'chainer.functions.c': 0.9,
            'chainer.functions.not_run': 1.0,
        },
    }
    assert report.below_floor(RESULTS, floor, whole_run=True) == [
        ('chainer.functions.b', 0.9, 0.91),
        ('total', round(209 / 220, 4), 0.96),
    ]
    # A run of some names (--only) does not judge the total.
    assert report.below_floor(RESULTS, floor, whole_run=False) == [
        ('chainer.functions.b', 0.9, 0.91)
    ]
    # A name whose runner now makes no case has share 0.
    gone = dict(RESULTS, **{'chainer.functions.a': _entry(0, 0)})
    assert ('chainer.functions.a', 0.0, 1.0) in report.below_floor(gone, floor, False)


def test_make_floor_keeps_a_margin_and_merges_partial_runs():
    whole = report.make_floor(RESULTS, {}, whole_run=True)
    assert whole['names'] == {
        'chainer.functions.a': 0.95,
        'chainer.functions.b': 0.85,
        'chainer.functions.c': 0.9,
    }
    assert whole['total'] == 0.945
    assert report.below_floor(RESULTS, whole, whole_run=True) == []
    previous = {'total': 0.5, 'names': {'chainer.x': 0.7, 'chainer.functions.b': 0.1}}
    partial = report.make_floor(RESULTS, previous, whole_run=False)
    assert partial['total'] == 0.5
    assert partial['names']['chainer.x'] == 0.7
    assert partial['names']['chainer.functions.b'] == 0.85


def test_load_floor_missing_file_is_empty(tmp_path):
    assert report.load_floor(tmp_path / 'none.json') == {}
    path = tmp_path / 'floor.json'
    path.write_text(json.dumps({'total': 0.5, 'names': {}}))
    assert report.load_floor(path) == {'total': 0.5, 'names': {}}


@pytest.mark.parametrize('name', ['diff_chainer_floor', 'diff_chainer_ci_floor'])
def test_checked_in_floor_is_well_formed(name):
    root = pathlib.Path(__file__).resolve().parents[2]
    floor = report.load_floor(root / 'tests' / f'{name}.json')
    assert 0 < floor['total'] <= floor['total_with_references'] <= 1
    assert floor['names']
    for name, low in floor['names'].items():
        assert name.startswith('chainer.') and 0 <= low <= 1


WITH_REFERENCES = {
    # 60 agree with Chainer; of the 40 where Chainer raised, 30 match the
    # reference
    'chainer.distributions.A': dict(
        _entry(100, 60), agreed_with_references=90, referenced=40
    ),
    'chainer.functions.a': _entry(100, 100),
}


def test_both_shares_are_reported():
    summary = report.summary(WITH_REFERENCES)
    assert (summary['cases_agreed'], summary['case_agreement']) == (160, 0.8)
    assert summary['cases_agreed_with_references'] == 190
    assert summary['case_agreement_with_references'] == 0.95
    assert summary['cases_referenced'] == 40
    s = report.scores(WITH_REFERENCES)
    assert (s['total'], s['total_with_references']) == (0.8, 0.95)
    assert s['per_name']['chainer.distributions.A'] == 0.6
    assert s['per_name_with_references']['chainer.distributions.A'] == 0.9
    assert (s['names_meeting_goal'], s['names_meeting_goal_with_references']) == (1, 1)
    assert [r['name'] for r in s['below_goal_with_references']] == [
        'chainer.distributions.A'
    ]
    # a report of a run that scored no reference: both shares are the strict one
    assert (
        report.scores(RESULTS)['total_with_references']
        == report.scores(RESULTS)['total']
    )


def test_floor_keeps_both_totals_with_the_mode_margins():
    ci = report.make_floor(WITH_REFERENCES, {}, True, report.MARGINS['ci'])
    assert (ci['total'], ci['total_with_references']) == (0.799, 0.949)
    assert ci['names']['chainer.distributions.A'] == 0.58
    timed = report.make_floor(WITH_REFERENCES, {}, True)
    assert (timed['total'], timed['total_with_references']) == (0.795, 0.945)
    assert timed['names']['chainer.distributions.A'] == 0.55
    worse = dict(WITH_REFERENCES)
    worse['chainer.distributions.A'] = dict(worse['chainer.distributions.A'])
    worse['chainer.distributions.A']['agreed_with_references'] = 80
    assert report.below_floor(worse, ci, whole_run=True) == [
        ('total_with_references', 0.9, 0.949)
    ]
