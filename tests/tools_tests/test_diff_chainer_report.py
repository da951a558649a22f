"""The differential harness's scores and floor file (tools/diff_chainer/report.py)."""

import json
import pathlib

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


def test_checked_in_floor_is_well_formed():
    root = pathlib.Path(__file__).resolve().parents[2]
    floor = report.load_floor(root / 'tests' / 'diff_chainer_floor.json')
    assert 0 < floor['total'] <= 1
    assert floor['names']
    for name, low in floor['names'].items():
        assert name.startswith('chainer.') and 0 <= low <= 1
