"""The kinds of difference the differential harness counts
(tools/diff_chainer/kinds.py), from descriptions made by compare.py."""

import numpy
import pytest

from tools.diff_chainer import compare
from tools.diff_chainer import kinds
from tools.diff_chainer import pair


class InvalidType(Exception):
    pass


def _raising(exc):
    def thunk():
        raise exc

    return thunk


def _outcome(value):
    return compare.run(lambda: value)


def _kind(stage, expected, actual):
    found = compare.differences(expected, actual, stage)
    assert found
    return kinds.of(pair.aspect_of(stage, expected, actual), found[0])


F32 = numpy.array([1.0, 2.0, 3.0], numpy.float32)


@pytest.mark.parametrize(
    ('chainer', 'lite', 'kind'),
    [
        (
            compare.run(_raising(NotImplementedError())),
            _outcome(F32),
            'only Chainer raises NotImplementedError @ prob',
        ),
        (
            _outcome(F32),
            compare.run(_raising(InvalidType('no'))),
            'only chainerlite raises InvalidType @ prob',
        ),
        (
            compare.run(_raising(IndexError())),
            compare.run(_raising(InvalidType('no'))),
            'exception type @ prob',
        ),
        (_outcome(F32), _outcome(F32.astype(numpy.float64)), 'dtype @ prob'),
        (_outcome(F32), _outcome(F32[:2]), 'shape @ prob'),
        # 1e-4 relative is 1.7 times float32's allowance at 3
        (
            _outcome(F32),
            _outcome(F32 * numpy.float32(1.0002)),
            'values <= 10x tolerance @ prob',
        ),
        (_outcome(F32), _outcome(F32 * 1.01), 'values <= 1000x tolerance @ prob'),
        (_outcome(F32), _outcome(F32 * 2), 'values > 1000x tolerance @ prob'),
        (
            _outcome(F32),
            _outcome(numpy.array([1.0, 2.0, numpy.nan], numpy.float32)),
            'values: NaN/inf placement @ prob',
        ),
        (
            _outcome(numpy.array([1, 2])),
            _outcome(numpy.array([1, 3])),
            'values of an exact dtype @ prob',
        ),
        (_outcome('a'), _outcome('b'), 'other @ prob'),
    ],
)
def test_kind_of_each_difference(chainer, lite, kind):
    assert _kind('prob', chainer, lite) == kind


def test_values_message_says_how_far_past_the_tolerance():
    # float32 allows 1e-5 + 1e-4 * |x| (atol scaled by the largest |x|, 2)
    e = numpy.array([0.0, 2.0], numpy.float32)
    a = numpy.array([0.0, 2.01], numpy.float32)
    (found,) = compare.differences(e, a, 'out')
    assert found.startswith('out: values differ (max abs 0.01')
    allowed = 2e-5 + 1e-4 * 2.01
    assert f'{0.0100002 / allowed:.3g} x tolerance' in found


def test_a_case_counts_once_under_its_first_difference():
    tally = pair.Tally()
    diffs = [
        ('grad:raises', 'grad: Chainer raised TypeError: bug; chainerlite did not')
    ]
    tally.add(diffs, ran=False)
    tally.add([('grad', 'grad[0]: dtype float64 vs float32'), ('grad2', 'x')], ran=True)
    tally.add([], ran=True)
    assert tally.kinds == {'only Chainer raises TypeError @ grad': 1, 'dtype @ grad': 1}
    entries = {'a': {'kinds': tally.kinds}, 'b': {'kinds': {'dtype @ grad': 2}}}
    assert kinds.totals(entries) == {
        'dtype @ grad': 3,
        'only Chainer raises TypeError @ grad': 1,
    }
