"""The references of the differential harness (tools/diff_chainer/
references.py, distribution_references.py) and how cases are scored with
them, on NumPy, fakes and chainerlite alone (no Chainer)."""

import types

import numpy
import pytest

import chainerlite
from tools.diff_chainer import pair
from tools.diff_chainer import references


# Chainer's outcome where it raised (a second order it refuses)
REFUSED = types.SimpleNamespace(raised=True, value=None)


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
        ref = make(libs, scratch, [REFUSED, outcome])
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
        ref = make((None, chainerlite), scratch, [REFUSED, outcome])
        assert ref.differences(actual, 'grad2') == []
    wrong = ('list', [('variable', numpy.array([2.0, 1.0], numpy.float32))])
    outcomes = [REFUSED, types.SimpleNamespace(value=wrong)]
    ref = make((None, chainerlite), scratch, outcomes)
    assert ref.differences(wrong, 'grad2')


def _product_first_order(lib, xs, s):
    # the first order of x0**2 * x1 + x2**3 is (2 x0 x1, x0**2, 3 x2**2),
    # entry by entry weighted by w; the second order is
    # (2 x1 w0 + 2 x0 w1, 2 x0 w0, 6 x2 w2)
    x = lib.Variable(xs[0])
    (gx,) = lib.grad([x[0] ** 2 * x[1] + x[2] ** 3], [x])
    return gx.array * s['w']


def _second_order_at(x, lite_value):
    make = references.second_order_by_differences(_product_first_order, [x])
    actual = ('list', [('variable', numpy.array(lite_value, numpy.float32))])
    scratch = [{}, {'w': numpy.array([1.0, 3.0, 2.0])}]
    outcomes = [REFUSED, types.SimpleNamespace(value=actual)]
    ref = make((None, chainerlite), scratch, outcomes)
    return ref.differences(actual, 'grad2')


def test_a_nan_slope_where_the_first_order_is_nan_in_its_dtype():
    # exp(12) overflows float16: the first order there is inf, finite in
    # float64 where the differences are taken; a non-finite second order
    # there is accepted, a wrong finite one is not
    def first_order(lib, xs, s):
        x = lib.Variable(xs[0])
        (gx,) = lib.grad([lib.functions.sum(lib.functions.exp(x))], [x])
        return gx.array * s['w']

    x = numpy.array([12.0, 1.0], numpy.float16)
    gx = chainerlite.Variable(numpy.array([numpy.inf, numpy.e], numpy.float16))
    make = references.second_order_by_differences(first_order, [x])
    for lite, agrees in (([numpy.inf, numpy.e], True), ([1.0, numpy.e], False)):
        actual = ('list', [('variable', numpy.array(lite, numpy.float16))])
        outcomes = [REFUSED, types.SimpleNamespace(value=actual)]
        scratch = [{}, {'w': numpy.ones(2), 'gxs': [gx]}]
        ref = make((None, chainerlite), scratch, outcomes)
        assert (ref.differences(actual, 'grad2') == []) is agrees


def test_finite_differences_at_nan_check_what_does_not_meet_it():
    nan = numpy.nan
    # x0 is NaN: its own entry is not measured; x1 and x2 move only finite
    # first order entries (x0**2 w1 is NaN but moves with x0 alone): checked
    x = numpy.array([nan, 2.0, 0.5], numpy.float32)
    assert _second_order_at(x, [7.0, nan, 6.0]) == []
    assert _second_order_at(x, [nan, nan, 6.0]) == []
    assert _second_order_at(x, [nan, nan, 5.0])
    # x1 is NaN: the first order entry 2 x0 x1 w0 is, and x0 moves it, so
    # x0's entry (NaN, or what a library makes of NaN) is not checked; x2's is
    x = numpy.array([2.0, nan, 0.5], numpy.float32)
    assert _second_order_at(x, [nan, nan, 6.0]) == []
    assert _second_order_at(x, [1.0, 4.0, 6.0]) == []
    assert _second_order_at(x, [nan, nan, nan])
    # all finite: every entry is checked
    x = numpy.array([2.0, 1.0, 0.5], numpy.float32)
    assert _second_order_at(x, [14.0, 4.0, 6.0]) == []
    assert _second_order_at(x, [14.0, nan, 6.0])


def test_no_finite_differences_for_large_inputs():
    actual = ('tuple', [('variable', numpy.zeros(2, numpy.float32))])
    outcome = types.SimpleNamespace(value=actual)
    big = numpy.zeros(references.MAX_DIFFERENCED + 1, numpy.float32)
    make = references.second_order_by_differences(_cube_first_order, [big])
    assert make((None, chainerlite), [{}, {}], [REFUSED, outcome]) is None


def test_no_finite_differences_where_chainer_answers():
    x = numpy.array([0.5], numpy.float32)
    actual = ('tuple', [('variable', 3 * x * x)])
    answered = types.SimpleNamespace(raised=False, value=actual)
    make = references.second_order_by_differences(_cube_first_order, [x])
    outcomes = [answered, types.SimpleNamespace(value=actual)]
    assert make((None, chainerlite), [{}, {'w': x}], outcomes) is None


def _gradients(*arrays):
    return ('tuple', [('variable', a) for a in arrays])


def test_gradients_in_other_dtypes_are_cast_to_their_inputs():
    # Chainer answers a float16 input with a float32 gradient: the reference
    # is its gradient in float16, compared at float16's precision
    x = numpy.ones(3, numpy.float32)
    h = numpy.ones(3, numpy.float16)
    wide = numpy.array([1.0, 2.0, 1.0 / 3.0], numpy.float32)
    chainer = types.SimpleNamespace(raised=False, value=_gradients(x, wide))
    make = references.in_input_dtypes([x, h, 'label'])
    ref = make(None, [{'gxs': [x, wide]}, {}], [chainer, None])
    assert ref.precision is numpy.float16
    assert ref.differences(_gradients(x, wide.astype(numpy.float16)), 'grad') == []
    # the cast does not excuse another value or a gradient left wide
    assert ref.differences(_gradients(x, (wide + 1).astype(numpy.float16)), 'grad')
    assert ref.differences(_gradients(x, wide), 'grad')
    # a second order after such gradients is compared the same way
    second = types.SimpleNamespace(raised=False, value=_gradients(x, h))
    assert make(None, [{'gxs': [x, wide]}, {}], [second, None]) is not None


def test_a_second_order_in_another_dtype_that_overflowed_in_chainer():
    # the first order keeps the dtypes, the second order of the float32
    # input comes in float16 with an entry that overflowed (NaN): the
    # reference is that entry from Chainer on float64 inputs, cast to float32
    x = numpy.ones(2, numpy.float32)
    h = numpy.ones(2, numpy.float16)
    nan_entry = numpy.array([1.5, numpy.nan], numpy.float16)
    chainer = types.SimpleNamespace(raised=False, value=_gradients(h, nan_entry))
    # what the stage returns on float64 inputs: two Variables
    in_float64 = tuple(
        types.SimpleNamespace(array=a, creator=None)
        for a in (numpy.ones(2), numpy.array([1.5, 2.25]))
    )

    def restage(dtype):
        assert dtype is numpy.float64
        return [('grad2', lambda lib, s: in_float64)]

    make = references.in_input_dtypes([h, x], restage)
    ref = make((None,), [{'gxs': [h, x]}, {}], [chainer, None])
    want = numpy.array([1.5, 2.25], numpy.float32)
    assert ref.differences(_gradients(h, want), 'grad2') == []
    assert ref.differences(_gradients(h, want.astype(numpy.float16)), 'grad2')
    # without the float64 run the NaN stays Chainer's
    ref = references.in_input_dtypes([h, x])(
        (None,), [{'gxs': [h, x]}, {}], [chainer, None]
    )
    assert ref.differences(_gradients(h, want), 'grad2')


def test_no_cast_reference_where_chainer_keeps_the_dtypes_or_raises():
    x = numpy.ones(2, numpy.float32)
    h = numpy.ones(2, numpy.float16)
    make = references.in_input_dtypes([x, h])
    kept = types.SimpleNamespace(raised=False, value=_gradients(x, h))
    assert make(None, [{'gxs': [x, h]}, {}], [kept, None]) is None
    assert make(None, [{'gxs': [x, x]}, {}], [REFUSED, None]) is None


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


def test_second_order_of_mixed_dtype_gradients_runs():
    # a float32 and a float16 input: their gradients' weighted sums are
    # added in float32 (the library's + refuses a mix), so the second order
    # stage answers, each gradient in its input's dtype
    from tools.diff_chainer import functions

    def call(lib, F, a, b):
        return a * F.cast(b, numpy.float32) ** 2

    inputs = [numpy.full(3, 2.0, numpy.float32), numpy.full(3, 3.0, numpy.float16)]
    scratch = {}
    for _, stage in functions.stages(call, inputs):
        result = stage(chainerlite, scratch)
    assert [g.dtype for g in result] == [numpy.float32, numpy.float16]
    ws, gys = scratch['ws'], scratch['gys'][0]
    # d/da of (sum(gy*b^2*wa) + sum(gy*2ab*wb)) and d/db of it
    numpy.testing.assert_allclose(result[0].array, gys * 6.0 * ws[1], rtol=1e-2)
    expected_b = gys * (6.0 * ws[0] + 4.0 * ws[1])
    numpy.testing.assert_allclose(result[1].array, expected_b, rtol=1e-2)


def test_gradients_of_other_shapes_get_differences_of_the_forward():
    # Chainer's gradient of a broadcast input keeps the broadcast shape: the
    # reference is then the differences of sum(gy * y), here y = x**2
    def weighted_outputs(lib, xs, s):
        return (xs[0] ** 2 * s['gys'][0]).ravel()

    x = numpy.array([1.0, -2.0], numpy.float32)
    gy = numpy.array([3.0, 0.5])
    make = references.first_order_by_differences(weighted_outputs, [x])
    broadcast = chainerlite.Variable(numpy.ones((2, 2), numpy.float32))
    chainer = types.SimpleNamespace(raised=False, value=_gradients(broadcast.array))
    scratch = [{'gxs': [broadcast]}, {'gys': [gy]}]
    right = _gradients(numpy.array([6.0, -2.0], numpy.float32))
    outcomes = [chainer, types.SimpleNamespace(value=right)]
    ref = make((None, chainerlite), scratch, outcomes)
    assert ref.differences(right, 'grad') == []
    assert ref.differences(_gradients(numpy.array([6.0, 2.0], numpy.float32)), 'grad')
    # of the right shape, Chainer's answer stands: no reference
    same = chainerlite.Variable(numpy.ones(2, numpy.float32))
    assert make(None, [{'gxs': [same]}, {'gys': [gy]}], outcomes) is None


def test_past_overflow_takes_chainer_in_float64_where_float16_overflowed():
    # Chainer's e / (1 + e)**2 overflows float16 at x = 12: NaN there, tiny
    # in float64; at x = 1e4 float64 overflows too, so NaN stays expected
    def restage(dtype):
        def stage(lib, s):
            e = numpy.exp(numpy.array([0.0, 12.0, 1e4], dtype))
            return e / (1 + e) ** 2

        return [('out', stage)]

    with numpy.errstate(all='ignore'):
        narrow = restage(numpy.float16)[0][1](None, {})
    make = references.past_overflow(restage, [numpy.zeros(3, numpy.float16)])
    chainer = types.SimpleNamespace(raised=False, value=narrow)
    with numpy.errstate(all='ignore'):
        ref = make(
            (None, None), [{}, {}], [chainer, types.SimpleNamespace(raised=False)]
        )
    assert ref.value.dtype == numpy.float16
    expected = numpy.array([0.25, 6.1e-6, numpy.nan], numpy.float16)
    assert ref.differences(expected, 'out') == []
    assert ref.differences(numpy.array([0.25, 6.1e-6, 0], numpy.float16), 'out')
    # nothing overflowed: no reference
    fine = types.SimpleNamespace(raised=False, value=numpy.ones(3, numpy.float16))
    assert make((None, None), [{}, {}], [fine, fine]) is None


def test_an_expected_exception_stands_in_where_both_raise():
    # Chainer leaves the method unimplemented; its sibling raises TypeError
    # on the input: chainerlite's TypeError agrees with that reference, its
    # ValueError or an answer does not
    def stage_raising(error):
        def stage(lib, s):
            if lib.refuses:
                raise NotImplementedError
            if error:
                raise error('bad input')
            return numpy.zeros(1)

        return stage

    def expected_type_error(libs, scratch, outcomes):
        return references.Reference(None, error='builtins.TypeError')

    tally = pair.Tally()
    for error in (TypeError, ValueError, None):
        makers = {'prob': expected_type_error}
        pair.run_case(_libs(0.0), [('prob', stage_raising(error))], tally, 'c', makers)
    assert (tally.cases, tally.agreed, tally.agreed_with_references) == (3, 0, 1)
    assert tally.aspects['prob:reference'] == 2


def _raising(error, message=''):
    return pair.compare.run(lambda: (_ for _ in ()).throw(error(message)))


def test_linalg_refusing_float16_counts_as_refusing_the_dtype():
    # NumPy's linalg refuses float16 with a TypeError, as a type check
    # would: Chainer on float32 inputs is the reference, at float16 precision
    def restage(dtype):
        def stage(lib, s):
            if dtype is numpy.float16:
                raise TypeError('array type float16 is unsupported in linalg')
            return numpy.full(2, 0.5, dtype)

        return [('forward', stage)]

    arrays = [numpy.eye(2, dtype=numpy.float16)]
    refused = _raising(TypeError, 'array type float16 is unsupported in linalg')
    got = references.promoted(restage, arrays)((None, None), None, [refused, None])
    assert got.value.dtype == numpy.float32
    assert got.precision is numpy.float16
    # another TypeError is no refusal of the dtype
    other = _raising(TypeError, 'unsupported operand')
    make = references.promoted(restage, arrays)
    assert make((None, None), None, [other, None]) is None


def test_scipy_sparse_refusing_float16_counts_as_refusing_the_dtype():
    # sparse_matmul's type check takes float16, but on the CPU SciPy refuses
    # it: Chainer on float32 inputs is the reference, at float16 precision
    message = 'scipy.sparse does not support dtype float16. The only ...'

    def restage(dtype):
        def stage(lib, s):
            if dtype is numpy.float16:
                raise ValueError(message)
            return numpy.full(2, 0.25, dtype)

        return [('forward', stage)]

    arrays = [numpy.ones((2, 2), numpy.float16)]
    got = references.promoted(restage, arrays)(
        (None, None), None, [_raising(ValueError, message), None]
    )
    assert got.value.dtype == numpy.float32
    assert got.precision is numpy.float16
    # another ValueError is no refusal of the dtype
    make = references.promoted(restage, arrays)
    other = _raising(ValueError, 'shapes differ')
    assert make((None, None), None, [other, None]) is None


def test_promoted_inputs_that_raise_give_the_exception_where_chainerlite_raised():
    # Chainer refuses the dtype mix; on promoted inputs it raises IndexError
    # (an image index out of range), as chainerlite did on the mix
    def restage(dtype):
        def stage(lib, s):
            raise IndexError('index 1 is out of bounds')

        return [('forward', stage)]

    arrays = [numpy.zeros(2, numpy.float32), numpy.zeros(2, numpy.float64)]
    make = references.promoted(restage, arrays)
    refused = _raising(InvalidType)
    lite_index, lite_value = _raising(IndexError), pair.compare.run(lambda: 1.0)
    ref = make((None, None), None, [refused, lite_index])
    assert ref.error == 'builtins.IndexError'
    assert ref.against(lite_index, 'forward') == []
    assert ref.against(_raising(ValueError), 'forward')
    # where chainerlite answered, Chainer's exception is no reference
    assert make((None, None), None, [refused, lite_value]) is None


def _where_none(x, chainer_answer, lite_answer, first_order=_cube_first_order):
    make = references.second_order_where_none(first_order, [x])
    outcomes = [
        types.SimpleNamespace(raised=False, value=chainer_answer),
        types.SimpleNamespace(raised=False, value=lite_answer),
    ]
    return make((None, chainerlite), [{}, {'w': numpy.ones(x.shape)}], outcomes)


def test_a_second_order_chainer_leaves_none_is_checked_by_differences():
    x = numpy.array([0.5, -1.0], numpy.float32)
    right = ('tuple', [('variable', 6 * x)])
    wrong = ('tuple', [('variable', 5 * x)])
    for actual, agrees in ((right, True), (wrong, False)):
        ref = _where_none(x, ('tuple', [None]), actual)
        assert (ref.differences(actual, 'grad2') == []) is agrees
    # Chainer answered: no reference
    assert _where_none(x, right, right) is None


def test_a_none_second_order_stands_where_nothing_depends_on_the_input():
    # the first order of sum(2 x) is 2 everywhere: its derivative is zero, so
    # Chainer's None is an answer and chainerlite's zeros are no match for it
    def linear_first_order(lib, xs, s):
        v = lib.Variable(xs[0])
        (gx,) = lib.grad([lib.functions.sum(2 * v)], [v])
        return gx.array * s['w']

    x = numpy.array([0.5, -1.0], numpy.float32)
    zeros = ('tuple', [('variable', numpy.zeros(2, numpy.float32))])
    assert _where_none(x, ('tuple', [None]), zeros, linear_first_order) is None


def test_a_multiprocess_iterator_chainer_cannot_save_is_checked_as_a_serial_one():
    from tools.diff_chainer import iterators

    class Unsaveable(chainerlite.iterators.SerialIterator):
        def __init__(self, *args, n_processes=None):
            super().__init__(*args)

        def serialize(self, serializer):
            raise AttributeError("'NoneType' object has no attribute 'copy'")

    fake = types.SimpleNamespace(
        iterators=types.SimpleNamespace(
            MultiprocessIterator=Unsaveable,
            SerialIterator=chainerlite.iterators.SerialIterator,
        ),
        serializers=chainerlite.serializers,
    )
    tally = pair.Tally()
    for shuffle in (False, True):
        # the first batches and the state of four numbers in batches of three
        makers = {'serialize': iterators._as_serial_iterator((5, 4, 3, True, shuffle))}

        def batches(lib, s, shuffle=shuffle):
            return iterators._batches(
                lib, s, 'MultiprocessIterator', 5, 4, 3, True, shuffle
            )

        stages = [('batches', batches), ('serialize', iterators._serialized)]
        pair.run_case((fake, chainerlite), stages, tally, 'c', makers)
    assert (tally.cases, tally.agreed, tally.agreed_with_references) == (2, 0, 2)
    # a state that is not the serial iterator's does not agree
    s = {}
    iterators._batches(chainerlite, s, 'SerialIterator', 5, 4, 3, True, False)
    s['it'].next()
    later = pair.compare.run(lambda: iterators._serialized(chainerlite, s))
    refused = pair.compare.run(
        lambda: fake.iterators.MultiprocessIterator([], 1).serialize(None)
    )
    ref = iterators._as_serial_iterator((5, 4, 3, True, False))(
        (fake, None), None, [refused, later]
    )
    assert ref.against(later, 'serialize')


def _first_order_case(x, forward, chainer_gradient):
    """Chainer's side of a gradient stage of y = ``forward(x)`` (elementwise)
    whose answer is ``chainer_gradient(x, gy)``, as the stages and the
    reference maker see it, and chainerlite's outcome for a gradient."""
    gy = numpy.array([1.0, -2.0, 0.5])[: x.size]

    def restage(dtype):
        def grad(lib, s):
            s['gys'] = [gy.astype(dtype)]
            xs = x.astype(dtype)
            return [chainerlite.Variable(chainer_gradient(xs, s['gys'][0]))]

        return [('grad', grad)]

    def weighted_outputs(lib, xs, s):
        return (forward(xs[0]) * s['gys'][0]).ravel()

    make = references.refuted_first_order(restage, weighted_outputs, [x])
    scratch = [{}, {}]
    theirs = pair.compare.run(lambda: restage(x.dtype.type)[0][1](None, scratch[0]))

    def ours(gradient):
        return pair.compare.run(lambda: [chainerlite.Variable(gradient)])

    return make, scratch, theirs, ours


def _square_case(x, chainer_slope):
    """y = x**2 with Chainer's gradient ``chainer_slope`` times the true one."""
    make, scratch, theirs, ours = _first_order_case(
        x, numpy.square, lambda xs, gy: chainer_slope * 2 * xs * gy
    )
    gy = numpy.array([1.0, -2.0, 0.5])[: x.size]
    return make, scratch, theirs, lambda slope: ours(slope * 2 * x * gy)


def test_a_gradient_that_is_not_the_derivative_of_chainers_forward_is_refuted():
    x = numpy.array([0.5, -1.0, 2.0], numpy.float32)
    # Chainer gives no gradient where its forward moves: finite differences
    # of its forward are the reference, chainerlite's true gradient meets it
    make, scratch, theirs, ours = _square_case(x, 0.0)
    ref = make((None, None), scratch, [theirs, ours(1.0)])
    assert ref.against(ours(1.0), 'grad') == []
    assert ref.against(ours(1.5), 'grad')
    # Chainer's gradient is the derivative up to rounding: its answer stands
    make, scratch, theirs, ours = _square_case(x, 1.0 + 1e-3)
    assert make((None, None), scratch, [theirs, ours(1.0)]) is None
    # at NaN or infinity no refutation is made
    make, scratch, theirs, ours = _square_case(numpy.array([0.5, numpy.nan]), 0.0)
    assert make((None, None), scratch, [theirs, ours(1.0)]) is None


def test_only_the_refuted_entries_of_chainers_gradient_are_replaced():
    # y = |x| where Chainer's gradient misses its first entry (0 where the
    # forward moves) and takes 0 at the kink x = 0, a convention
    x = numpy.array([0.5, 0.0, 2.0])

    def chainer_gradient(xs, gy):
        out = numpy.sign(xs) * gy
        out[0] = 0.0
        return out

    make, scratch, theirs, ours = _first_order_case(x, numpy.abs, chainer_gradient)
    true_at_first = ours(numpy.array([1.0, 0.0, 0.5]))
    ref = make((None, None), scratch, [theirs, true_at_first])
    assert ref.against(true_at_first, 'grad') == []
    # a one-sided derivative at the kink is not Chainer's convention there:
    # the entries Chainer's gradient is not refuted at stay its own
    one_sided = ours(numpy.array([1.0, -2.0, 0.5]))
    ref = make((None, None), scratch, [theirs, one_sided])
    assert ref.against(one_sided, 'grad')
    assert ref.against(ours(numpy.array([1.0, 0.0, 0.6])), 'grad')


def _contract_outcomes(name, args, chainer_answer):
    from tools.diff_chainer import contracts

    make = contracts.forward(name, args, {})
    theirs = pair.compare.run(lambda: chainerlite.Variable(chainer_answer))
    ours = pair.compare.run(lambda: getattr(chainerlite.functions, name)(*args))
    return make((chainerlite, chainerlite), None, [theirs, ours]), ours


def test_a_sum_to_answer_of_another_shape_is_refuted_by_broadcasting():
    x = numpy.ones((1, 2), numpy.float32)
    # Chainer sums (1, 2) "to" (2, 1) into shape (1, 1); broadcasting (2, 1)
    # to (1, 2) is refused, so the type check's exception is the reference
    ref, ours = _contract_outcomes('sum_to', [x, (2, 1)], numpy.full((1, 1), 2.0))
    assert ref.error == 'InvalidType'
    assert ref.against(ours, 'forward') == []
    assert ref.against(pair.compare.run(lambda: x), 'forward')
    # a negative size has no array, but the check still refuses it
    ref, _ = _contract_outcomes('sum_to', [x, (-1,)], numpy.ones(2))
    assert ref.error == 'InvalidType'
    # an answer of the shape asked for stands
    ref, _ = _contract_outcomes('sum_to', [x, (2,)], numpy.ones(2))
    assert ref is None


def test_permutate_indices_that_are_no_permutation_get_the_debug_mode_exception():
    x = numpy.arange(3, dtype=numpy.float32)
    duplicated = numpy.array([0, 0, 1], numpy.int32)
    ref, ours = _contract_outcomes('permutate', [x, duplicated], x[duplicated])
    assert ref.error == 'builtins.ValueError'
    assert ref.against(ours, 'forward') == []
    permutation = numpy.array([2, 0, 1], numpy.int32)
    ref, _ = _contract_outcomes('permutate', [x, permutation], x[permutation] + 1)
    assert ref is None


def test_msvag_in_a_narrow_dtype_is_checked_against_its_float64_run():
    from tools.diff_chainer import optimizers

    def make(lib):
        return lib.optimizers.MSVAG()

    stages = optimizers.training(make, 3, numpy.float16, 2)
    makers = optimizers.in_float64(make, 3, numpy.float16, 2)
    assert list(makers) == [name for name, _ in stages]
    s = {}
    outcomes = [pair.compare.run(lambda st=st: st(chainerlite, s)) for _, st in stages]
    update = outcomes[1]
    ref = makers['update']((chainerlite, chainerlite), None, [update, update])
    assert ref.precision is numpy.float16
    assert ref.value[1]['params'][1]['/W'].dtype == numpy.float64
    assert ref.against(update, 'update') == []
    moved = pair.compare.Outcome(
        (
            'dict',
            {
                **update.value[1],
                'params': (
                    'dict',
                    {k: v + 0.5 for k, v in update.value[1]['params'][1].items()},
                ),
            },
        )
    )
    assert ref.against(moved, 'update')
    # a float64 case is its own reference: none
    wide = optimizers.in_float64(make, 3, numpy.float64, 2)['update']
    assert wide((chainerlite, chainerlite), None, [update, update]) is None


def test_a_backward_failing_chainers_own_gradient_dtype_check_is_a_refusal():
    def outcome(error, message):
        return pair.compare.Outcome(
            error=(error, 'builtins.Exception'), message=message
        )

    bug = (
        'TypeError: Function `f` (BatchRenormalizationFunction) has a bug.\n'
        'Please report this error ...\nDtype of data and grad mismatc'
    )
    assert references.refused_by_type_check(outcome('builtins.TypeError', bug))
    assert references.refused_by_type_check(outcome('InvalidType', 'Expect: ...'))
    # another TypeError is no refusal of the dtypes
    other = 'TypeError: unsupported operand type(s)'
    assert not references.refused_by_type_check(outcome('builtins.TypeError', other))
    assert not references.refused_by_type_check(outcome('builtins.ValueError', bug))


def test_zero_d_calls_chainer_fails_on_are_checked_against_one_element_arrays():
    from tools.diff_chainer import zero_d_reference as Z

    x = numpy.array(0.5)
    label = numpy.array(1, numpy.int32)
    seen = []

    def reshaped(shaped):
        seen.append([a.shape for a in shaped])
        gradient = types.SimpleNamespace(array=numpy.array([0.25]), creator=None)
        return [('grad', lambda lib, s: (gradient,))]

    failed = types.SimpleNamespace(
        raised=True, message=f'TypeError: {Z.NOT_ARRAYS}.\nFunction: G', value=None
    )
    ref = Z.one_element_for_zero_d(reshaped, [x, label])(
        (None,), [{}, {}], [failed, None]
    )
    assert seen == [[(1,), (1,)]]
    assert ref.differences(_gradients(numpy.array(0.25)), 'grad') == []
    assert ref.differences(_gradients(numpy.array(0.5)), 'grad')
    assert ref.differences(_gradients(numpy.array([0.25])), 'grad')
    # another failure, or no 0-d input: no reference
    other = types.SimpleNamespace(raised=True, message='TypeError: other', value=None)
    assert (
        Z.one_element_for_zero_d(reshaped, [x, label])((None,), [{}, {}], [other, None])
        is None
    )
    one_d = [x.reshape(1), label.reshape(1)]
    assert (
        Z.one_element_for_zero_d(reshaped, one_d)((None,), [{}, {}], [failed, None])
        is None
    )
