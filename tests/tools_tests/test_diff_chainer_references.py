"""The references of the differential harness (tools/diff_chainer/
references.py, distribution_references.py) and how cases are scored with
them, on NumPy, fakes and chainerlite alone (no Chainer)."""

import types

import numpy
import pytest

import chainerlite
from tools.diff_chainer import pair
from tools.diff_chainer import references


class InvalidType(Exception):
    """Named as a type check's refusal is (the harness compares by name)."""


def _fake(refuses):
    def stage(lib, s):
        if lib.refuses:
            raise refuses()
        return numpy.array([lib.value], numpy.float32)

    return types.SimpleNamespace(refuses=False, value=0.0), stage


def _libs(lite_value):
    chainer = types.SimpleNamespace(refuses=True, value=1.0)
    lite = types.SimpleNamespace(refuses=False, value=lite_value)
    return chainer, lite


def _fixed(value):
    def make(libs, scratch, outcomes):
        return references.Reference(numpy.array([value], numpy.float32))

    return make


def test_a_matching_reference_counts_only_in_the_second_share():
    _, stage = _fake(NotImplementedError)
    tally = pair.Tally()
    for lite_value in (3.0, 4.0):
        pair.run_case(
            _libs(lite_value), [('cdf', stage)], tally, 'c', {'cdf': _fixed(3.0)}
        )
    # no reference for this stage: a difference in both counts
    pair.run_case(_libs(3.0), [('mode', stage)], tally, 'c', {'cdf': _fixed(3.0)})
    assert (tally.cases, tally.agreed, tally.agreed_with_references) == (3, 0, 1)
    assert tally.referenced == 2
    # the mismatch is its own aspect, so an unlisted one fails the run
    assert tally.aspects == {'cdf:raises': 2, 'cdf:reference': 1, 'mode:raises': 1}
    assert 'values differ' in tally.examples['cdf:reference']


def test_a_reference_is_not_asked_where_both_answer():
    def stage(lib, s):
        return numpy.float64(lib.value)

    def never(libs, scratch, outcomes):
        raise AssertionError('asked for a reference where Chainer answered')

    tally = pair.Tally()
    pair.run_case(_libs(1.0), [('mean', stage)], tally, 'c', {'mean': never})
    assert (tally.agreed, tally.agreed_with_references, tally.referenced) == (1, 1, 0)


def test_reference_compares_at_the_stated_precision():
    exact = numpy.array([1.0 / 3.0])
    ref = references.Reference(exact, numpy.float16)
    assert ref.differences(numpy.array([0.3334]), 'out') == []
    assert references.Reference(exact).differences(numpy.array([0.3334]), 'out')
    assert ref.differences(numpy.array([0.36]), "out")


def test_promoted_reruns_chainer_on_a_dtype_it_accepts():
    seen = []

    def restage(dtype):
        def stage(lib, s):
            seen.append(dtype)
            if dtype is numpy.float16:
                raise InvalidType()
            return numpy.ones(2, dtype) / 3

        return [('forward', stage)]

    arrays = [numpy.zeros(2, numpy.float16), numpy.zeros(2, numpy.float32)]
    make = references.promoted(restage, arrays)
    refused = pair.compare.run(lambda: (_ for _ in ()).throw(InvalidType()))
    got = make((None, None), None, [refused, None])
    assert seen == [numpy.float32]  # the most precise input's dtype first
    assert got.precision is numpy.float16  # compared at the least precise
    assert got.value.dtype == numpy.float32
    # another refusal than the type check's gets no reference
    other = pair.compare.run(lambda: (_ for _ in ()).throw(ValueError()))
    assert make((None, None), None, [other, None]) is None


def test_promoted_falls_back_to_float64_and_gives_up_when_all_refuse():
    def restage(dtype):
        def stage(lib, s):
            if dtype is not numpy.float64:
                raise InvalidType()
            return numpy.zeros(1)

        return [('forward', stage)]

    refused = pair.compare.run(lambda: (_ for _ in ()).throw(InvalidType()))
    arrays = [numpy.zeros(2, numpy.float16)]
    got = references.promoted(restage, arrays)((None, None), None, [refused, None])
    assert got.value.dtype == numpy.float64
    assert got.precision is numpy.float16

    def never(dtype):
        def stage(lib, s):
            raise InvalidType()

        return [('forward', stage)]

    assert (
        references.promoted(never, arrays)((None, None), None, [refused, None]) is None
    )


def _cube_first_order(lib, xs, s):
    # d/dx sum(x**3) = 3 x**2, weighted by w and summed: its derivative is 6 x w
    x = lib.Variable(xs[0])
    (gx,) = lib.grad([lib.functions.sum(x**3)], [x])
    return float(numpy.sum(gx.array * s['w']))


def test_finite_differences_match_a_known_second_order():
    x = numpy.array([[0.5, -1.0, 2.0]], numpy.float32)
    w = numpy.array([[1.0, 2.0, -0.5]])
    make = references.second_order_by_differences(_cube_first_order, [x, 'label'])
    right = ('tuple', [('variable', (6 * x * w).astype(numpy.float32))])
    wrong = ('tuple', [('variable', (5 * x * w).astype(numpy.float32))])
    libs, scratch = (None, chainerlite), [{}, {'w': w}]
    for actual, agrees in ((right, True), (wrong, False)):
        outcome = types.SimpleNamespace(value=actual)
        ref = make(libs, scratch, [None, outcome])
        assert (ref.differences(actual, 'grad2') == []) is agrees


def test_finite_differences_accept_either_side_at_a_kink():
    # the first order of relu(x)**2 / 2 is relu(x), whose derivative jumps
    # at 0: there the left (0), the right (1) and the central (0.5)
    # differences are answers, another value is not
    def first_order(lib, xs, s):
        x = lib.Variable(xs[0])
        (gx,) = lib.grad([lib.functions.sum(lib.functions.relu(x) ** 2 / 2)], [x])
        return float(numpy.sum(gx.array))

    x = numpy.array([0.0, 1.0], numpy.float32)
    make = references.second_order_by_differences(first_order, [x])
    scratch = [{}, {}]
    for at_zero in (0.0, 0.5, 1.0):
        actual = ('list', [('variable', numpy.array([at_zero, 1.0], numpy.float32))])
        outcome = types.SimpleNamespace(value=actual)
        ref = make((None, chainerlite), scratch, [None, outcome])
        assert ref.differences(actual, 'grad2') == []
    wrong = ('list', [('variable', numpy.array([2.0, 1.0], numpy.float32))])
    ref = make((None, chainerlite), scratch, [None, types.SimpleNamespace(value=wrong)])
    assert ref.differences(wrong, 'grad2')


def test_no_finite_differences_through_nan_or_for_large_inputs():
    actual = ('tuple', [('variable', numpy.zeros(2, numpy.float32))])
    outcome = types.SimpleNamespace(value=actual)
    nan = numpy.array([numpy.nan, 1.0], numpy.float32)
    make = references.second_order_by_differences(_cube_first_order, [nan])
    assert make((None, chainerlite), [{}, {}], [None, outcome]) is None
    big = numpy.zeros(references.MAX_DIFFERENCED + 1, numpy.float32)
    make = references.second_order_by_differences(_cube_first_order, [big])
    assert make((None, chainerlite), [{}, {}], [None, outcome]) is None


def test_distribution_references_are_the_closed_forms():
    pytest.importorskip('scipy')
    from tools.diff_chainer import distribution_references as D

    x = numpy.array([0.5, 2.0])
    lam = numpy.array([1.5, 0.5])
    numpy.testing.assert_allclose(
        D.value('Exponential', 'log_survival_function', {'lam': lam}, x), -lam * x
    )
    numpy.testing.assert_allclose(
        D.value('Exponential', 'prob', {'lam': lam}, x), lam * numpy.exp(-lam * x)
    )
    loc, scale = numpy.array([0.0, 1.0]), numpy.array([1.0, 2.0])
    params = {'loc': loc, 'scale': scale}
    numpy.testing.assert_allclose(
        D.value('Gumbel', 'cdf', params, x), numpy.exp(-numpy.exp(-(x - loc) / scale))
    )
    assert (D.value('Cauchy', 'mode', params, x) == loc).all()
    numpy.testing.assert_allclose(
        D.value('Laplace', 'survival_function', params, numpy.array([0.0, 1.0])),
        [0.5, 0.5],
    )
    p = numpy.array([[0.2, 0.8]])
    numpy.testing.assert_allclose(
        D.value('OneHotCategorical', 'entropy', {'p': p}, None),
        [-(0.2 * numpy.log(0.2) + 0.8 * numpy.log(0.8))],
    )
    q = numpy.array([0.25])
    pmf = 0.25 * 0.75 ** numpy.arange(400)  # P(k) for k = 1, 2, ...
    numpy.testing.assert_allclose(
        D.value('Geometric', 'entropy', {'p': q}, None),
        [-numpy.sum(pmf * numpy.log(pmf))],
    )
    assert D.value('Gamma', 'mode', {'k': q, 'theta': q}, None) is None
