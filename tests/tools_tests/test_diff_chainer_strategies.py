"""The input strategies and the scoring of the Chainer differential harness
(``tools/diff_chainer``), on NumPy and fakes alone."""

import json
import pathlib
import types

import numpy
import pytest
from hypothesis import given
from hypothesis import settings
from hypothesis import strategies as st

from tools.diff_chainer import functions
from tools.diff_chainer import pair
from tools.diff_chainer import report
from tools.diff_chainer import strategies as S


def test_layouts_hold_the_same_values():
    c = S.make_array(3, (2, 3), numpy.float32, 'C')
    f = S.make_array(3, (2, 3), numpy.float32, 'F')
    strided = S.make_array(3, (2, 3), numpy.float32, 'strided')
    rev = S.make_array(3, (2, 3), numpy.float32, 'reversed')
    assert f.flags.f_contiguous and not f.flags.c_contiguous
    assert not strided.flags.c_contiguous and not strided.flags.f_contiguous
    assert rev.strides[-1] < 0
    for other in (f, strided, rev):
        numpy.testing.assert_array_equal(c, other)


def test_edge_shapes_keep_their_layout_request():
    for layout in S.LAYOUTS:
        assert S.make_array(0, (), numpy.float16, layout).shape == ()
        assert S.make_array(0, (2, 0), numpy.float64, layout).shape == (2, 0)


@settings(max_examples=50, deadline=None)
@given(st.data())
def test_axes_are_valid_for_the_rank(data):
    ndim = data.draw(st.integers(0, 4))
    axis = data.draw(S.axes(ndim))
    picked = () if axis is None else axis if isinstance(axis, tuple) else (axis,)
    for a in picked:
        assert -max(ndim, 1) <= a < max(ndim, 1)
    assert len({a % max(ndim, 1) for a in picked}) == len(picked)


@settings(max_examples=50, deadline=None)
@given(st.data())
def test_broadcast_partners_broadcast_and_labels_index_classes(data):
    shape = data.draw(S.base_shapes)
    partner = data.draw(S.broadcast_partner(shape))
    assert numpy.broadcast_shapes(shape, partner) == tuple(shape)
    t = data.draw(S.labels(shape))
    assert t.dtype == numpy.int32
    if len(shape) >= 2 and t.size:
        assert t.shape == shape[:1] + shape[2:]
        assert -1 <= t.min() and t.max() < shape[1]


def test_signature_plan_gives_kinds_or_the_reason():
    def op(x, axis=None, keepdims=False, scale=1.0):
        pass

    def odd(x, frobnicate):
        pass

    plan = functions.signature_plan(op)
    assert [(n, k) for n, k, *_ in plan] == [
        ('x', 'array'),
        ('axis', 'axis'),
        ('keepdims', 'bool'),
        ('scale', 'float'),
    ]
    assert (
        functions.signature_plan(odd)
        == "no argument kind for required parameter 'frobnicate'"
    )


def test_an_array_name_with_a_number_as_the_default_is_a_number():
    # beta is the shift array of batch_normalization, a float exponent
    # (0.75 by default) of local_response_normalization
    def lrn(x, n=5, k=2, alpha=1e-4, beta=0.75):
        pass

    def bn(x, gamma, beta, eps=2e-5, running_mean=None):
        pass

    kinds = [(n, k) for n, k, *_ in functions.signature_plan(lrn)]
    assert kinds[-1] == ('beta', 'float')
    kinds = [(n, k) for n, k, *_ in functions.signature_plan(bn)]
    assert kinds == [
        ('x', 'array'),
        ('gamma', 'array'),
        ('beta', 'array'),
        ('eps', 'float'),
        ('running_mean', 'array'),
    ]


def test_run_case_scores_aspects_and_stops_where_one_side_raises():
    chainer = types.SimpleNamespace(value=1.0, fail=False)
    lite = types.SimpleNamespace(value=2.0, fail=True)

    def forward(lib, s):
        return numpy.float64(lib.value)

    def later(lib, s):
        if lib.fail:
            raise ValueError('no')
        return 0

    def never(lib, s):
        raise AssertionError('runs after a stage that raised')

    tally = pair.Tally()
    stages = [('forward', forward), ('grad', later), ('grad2', never)]
    pair.run_case((chainer, lite), stages, tally, 'case')
    pair.run_case((chainer, chainer), stages[:2], tally, 'same')
    assert (tally.cases, tally.agreed, tally.both_ran) == (2, 1, 1)
    assert tally.aspects == {'forward': 1, 'grad:raises': 1}
    assert tally.examples['grad:raises'].startswith(
        'case: grad: chainerlite raised ValueError'
    )


def test_report_fails_only_on_differences_the_baseline_lacks():
    results = {
        'chainer.functions.a': {
            'aspects': {'retained': 3},
            'examples': {},
            'cases': 5,
            'agreed': 2,
        },
        'chainer.functions.b': {
            'aspects': {'forward': 1},
            'examples': {'forward': 'ex'},
            'cases': 5,
            'agreed': 4,
        },
        'chainer.functions.c': {'aspects': {}, 'examples': {}, 'cases': 5, 'agreed': 5},
        'chainer.links.D': {
            'aspects': {},
            'examples': {},
            'reason': 'no runner',
            'cases': 0,
            'agreed': 0,
        },
    }
    known = {
        'chainer.functions.a': {'retained': 'why'},
        'chainer.functions.c': {'grad': 'why'},
    }
    assert report.regressions(results, known) == [
        ('chainer.functions.b', 'forward', 'ex')
    ]
    assert report.resolved(results, known) == [('chainer.functions.c', 'grad')]
    summary = report.summary(results)
    assert (summary['equal'], summary['different'], summary['not_covered']) == (1, 2, 1)
    assert summary['case_agreement'] == round(11 / 15, 4)


def test_baseline_resolves_reason_keys(tmp_path):
    path = tmp_path / 'known.json'
    path.write_text(
        json.dumps(
            {'reasons': {'r': 'why'}, 'known': {'chainer.functions.a': {'grad': 'r'}}}
        )
    )
    assert report.load_known(path) == {'chainer.functions.a': {'grad': 'why'}}
    path.write_text(json.dumps({'reasons': {}, 'known': {'chainer.x': {'grad': 'r'}}}))
    with pytest.raises(ValueError, match="no reason 'r'"):
        report.load_known(path)


def test_checked_in_baseline_is_well_formed():
    root = pathlib.Path(__file__).resolve().parents[2]
    known = report.load_known(root / 'tests' / 'diff_chainer_known.json')
    assert known
    for name, aspects in known.items():
        assert name.startswith('chainer.') and aspects
        assert all(len(reason) > 20 for reason in aspects.values())
    docs = (root / 'docs' / 'differences.rst').read_text()
    assert 'diff_chainer_known.json' in docs


def test_explore_without_a_time_bound_draws_the_same_cases_every_run():
    def drawn():
        seen = []
        pair.explore(lambda data: seen.append(data.draw(S.seeds)), 15, None)
        return seen

    first = drawn()
    assert len(first) == 15
    assert drawn() == first
