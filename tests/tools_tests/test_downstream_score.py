"""tools/downstream/score.py: test ids, suite shares, model agreement, floors."""

import numpy
import pytest

from tools.downstream import score

_MOD = 'tests.utils_tests.test_x'


def test_parameterized_ids_match_whatever_the_braces_say():
    chainer = score.normalize_test_id(
        _MOD + ".TestRead_param_27_{alpha=None, backend='cv2', dtype=float32}",
        'test_color',
    )
    chainerlite = score.normalize_test_id(
        _MOD + ".TestRead_param_27_{dtype=float32, backend='cv2', alpha=None}",
        'test_color',
    )
    assert chainer == chainerlite == _MOD + '.TestRead_param_27::test_color'


def test_ids_with_shortened_unbalanced_and_multiline_params():
    # Chainer shortens long values with '...', which can drop a '}' or ']'
    shortened = score.normalize_test_id(
        _MOD + ".TestStub_param_2_{outputs=({'shape': (3, 4), 'dtype': float3... 1})}",
        'test_cpu',
    )
    full = score.normalize_test_id(
        _MOD + ".TestStub_param_2_{outputs=({'shape': (3, 4), 'dtype': float32}, 1)}",
        'test_cpu',
    )
    assert shortened == full == _MOD + '.TestStub_param_2::test_cpu'
    # skipped cases put the class in the name, with newlines and a stray ']'
    skipped = score.normalize_test_id(
        _MOD, 'TestIou_param_0_{a=array([[0., 8.],\n  [1...2.]])}::test_iou_cpu]'
    )
    assert skipped == _MOD + '::TestIou_param_0::test_iou_cpu'


def test_pytest_parametrize_ids_are_kept():
    assert score.normalize_test_id(_MOD, 'test_f[1-float32]') == (
        _MOD + '::test_f[1-float32]'
    )
    assert score.normalize_test_id(_MOD, 'test_f[1]') != score.normalize_test_id(
        _MOD, 'test_f[2]'
    )


_XML = """<?xml version="1.0" encoding="utf-8"?>
<testsuites><testsuite name="pytest">
<testcase classname="m.TestA_param_0_{x=1}" name="test_ok" />
<testcase classname="m.TestA_param_1_{x=2}" name="test_ok"><failure/></testcase>
<testcase classname="m" name="test_err"><error message="e"/></testcase>
<testcase classname="m" name="test_skip"><skipped message="no cv2"/></testcase>
<testcase classname="m" name="test_twice" />
<testcase classname="m" name="test_twice"><failure message="f"/></testcase>
</testsuite></testsuites>
"""


def test_junit_outcomes_from_text_and_file(tmp_path):
    expected = {
        'm.TestA_param_0::test_ok': 'pass',
        'm.TestA_param_1::test_ok': 'fail',
        'm::test_err': 'fail',
        'm::test_skip': 'skip',
        'm::test_twice': 'fail',
    }
    assert score.junit_outcomes(_XML) == expected
    path = tmp_path / 'run.xml'
    path.write_text(_XML)
    assert score.junit_outcomes(str(path)) == expected


def test_compare_suites_counts_only_what_passes_on_chainer():
    base = {'a': 'pass', 'b': 'pass', 'c': 'pass', 'd': 'fail', 'e': 'skip'}
    run = {'a': 'pass', 'b': 'fail', 'd': 'pass', 'e': 'pass'}
    result = score.compare_suites(base, run)
    assert result == {
        'passed': 1,
        'total': 3,
        'lost': [('b', 'fail'), ('c', 'missing')],
        'gained': 2,
    }


def test_relative_difference():
    ref = numpy.array([2.0, -4.0], dtype=numpy.float32)
    assert score.relative_difference(ref, ref.astype(numpy.float64)) == 0.0
    assert score.relative_difference(ref, numpy.array([2.0, -3.0])) == 0.25
    assert score.relative_difference(ref, numpy.zeros(3)) == float('inf')
    assert score.relative_difference(numpy.zeros(2), numpy.ones(2)) == float('inf')
    assert score.relative_difference(numpy.zeros(0), numpy.zeros(0)) == 0.0


def test_model_agreement_names_the_worst_array_and_the_missing_ones():
    a = {'y': numpy.ones(3), 'g1': numpy.array([1.0, 2.0]), 'g2': numpy.ones(1)}
    b = {'y': numpy.ones(3), 'g1': numpy.array([1.0, 2.5]), 'g3': numpy.ones(1)}
    result = score.model_agreement(a, b)
    assert result == {'worst': 0.25, 'where': 'g1', 'missing': ['g2', 'g3'], 'count': 2}


@pytest.mark.parametrize(
    'results, lines',
    [
        ({'cv': [10, 10], 'zoo': [5, 6]}, []),
        ({'cv': [11, 12], 'zoo': [5, 6]}, ['cv: 11 of 12, below the floor 10 of 10']),
        ({'cv': [10, 10]}, ['zoo: not run (floor 5 of 6)']),
        ({'cv': [0, 0], 'zoo': [5, 6]}, ['cv: 0 of 0, below the floor 10 of 10']),
    ],
)
def test_below_floor(results, lines):
    assert score.below_floor(results, {'cv': [10, 10], 'zoo': [5, 6]}) == lines
