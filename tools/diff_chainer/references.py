"""What a case is compared against where Chainer gives no answer.

A ``Reference`` holds the plain form (``compare.plain``) expected of
chainerlite's result, and optionally the dtype at whose precision both are
compared. Two kinds are built here, for any runner whose stages can be
rebuilt: ``promoted`` (Chainer on the inputs promoted to a dtype its type
check accepts, where it refused a dtype or a mix of dtypes) and
``second_order_by_differences`` (central finite differences, in float64, of
chainerlite's own first-order gradient, where Chainer refuses a second
order). ``distribution_references.py`` gives the SciPy/closed-form values of
the distribution methods Chainer leaves unimplemented.
"""

import dataclasses

import numpy

from tools.diff_chainer import compare

# The floating dtypes from the least to the most precise.
PRECISION = (numpy.float16, numpy.float32, numpy.float64)
# Finite differences evaluate the first-order gradient twice per input
# element: inputs with more elements get no reference (the case stays a
# difference in both counts).
MAX_DIFFERENCED = 400


@dataclasses.dataclass
class Reference:
    value: object  # the plain form expected of chainerlite's result
    precision: object = None  # dtype both are rounded to before comparing
    # whether the arrays' dtypes are the value's too (not only the rounding's)
    exact_dtypes: bool = False
    # or, instead of a value, the class (named as compare names it) whose
    # instance chainerlite is to raise
    error: str = ''

    def against(self, outcome, path):
        """What differs between the reference and chainerlite's ``outcome``."""
        if self.error:
            if self.error in outcome.error:
                return []
            got = outcome.message or 'no exception'
            return [f'{path}: expected {self.error}, chainerlite gave {got}']
        return self.differences(outcome.value, path)

    def differences(self, actual, path):
        expected = self.value
        found = []
        if self.exact_dtypes:
            found = compare.differences(dtypes_of(expected), dtypes_of(actual), path)
        if self.precision is not None:
            expected = rounded(expected, self.precision)
            actual = rounded(actual, self.precision)
        return found or compare.differences(expected, actual, path)


def dtypes_of(value):
    """``value`` (a plain form) with each array replaced by its dtype's name."""
    if isinstance(value, numpy.ndarray):
        return f'dtype {value.dtype}'
    if isinstance(value, (tuple, list)):
        return type(value)(dtypes_of(v) for v in value)
    if isinstance(value, dict):
        return {k: dtypes_of(v) for k, v in value.items()}
    return value


def rounded(value, dtype):
    """``value`` (a plain form) with each floating array cast to ``dtype``."""
    if isinstance(value, numpy.ndarray):
        return value.astype(dtype) if value.dtype.kind == 'f' else value
    if isinstance(value, tuple):
        return tuple(rounded(v, dtype) for v in value)
    if isinstance(value, list):
        return [rounded(v, dtype) for v in value]
    if isinstance(value, dict):
        return {k: rounded(v, dtype) for k, v in value.items()}
    return value


def refused_by_type_check(outcome):
    """Whether Chainer refused the dtypes: its type check did, or NumPy's
    linalg did (float16, which a type check would refuse), or SciPy's
    sparse matrices did (float16: ``sparse_matmul``, whose type check and
    GPU path take float16, fails on the CPU when SciPy refuses it), or an
    old-style ``Function``'s backward failed Chainer's own check that a
    gradient has its input's dtype (the ``TypeError`` that says the function
    "has a bug": ``batch_renormalization`` with running statistics of
    another dtype than ``gamma`` computes ``gamma``'s gradient in theirs)."""
    if 'builtins.ValueError' in outcome.error:
        return 'scipy.sparse does not support dtype float16' in outcome.message
    if 'builtins.TypeError' not in outcome.error:
        return 'InvalidType' in outcome.error
    return 'is unsupported in linalg' in outcome.message or (
        'has a bug' in outcome.message
        and 'Dtype of data and grad mismatc' in outcome.message
    )


def lowest_precision(arrays):
    """The least precise floating dtype among ``arrays`` (None if none is)."""
    found = [a.dtype.type for a in arrays if _floating(a)]
    return min(found, key=PRECISION.index) if found else None


def promoted(restage, arrays):
    """A reference maker for a stage whose inputs Chainer's type check may
    refuse: ``restage(dtype)`` gives the stages up to that one with every
    floating input cast to ``dtype``. Chainer runs them for the most precise
    dtype of ``arrays``, then float32, then float64; the first answer it gives
    is the reference, compared at the lower precision of the least precise
    input and that dtype. Where chainerlite raised and Chainer, on promoted
    inputs, raises at that stage too (not refusing them), the reference is
    its exception."""
    low = lowest_precision(arrays)
    found = {a.dtype.type for a in arrays if _floating(a)}
    candidates = [max(found, key=PRECISION.index)] if found else []
    candidates += [d for d in (numpy.float32, numpy.float64) if d not in candidates]

    def make(libs, scratch, outcomes):
        if low is None or not refused_by_type_check(outcomes[0]):
            return None
        for dtype in candidates:
            if found == {dtype}:
                continue  # what Chainer just refused
            s = {}
            stages = restage(dtype)
            for count, (_, stage) in enumerate(stages, 1):
                outcome = compare.run(lambda stage=stage: stage(libs[0], s))
                if outcome.raised:
                    break
            else:
                return Reference(outcome.value, min(low, dtype, key=PRECISION.index))
            if (
                count == len(stages)
                and not refused_by_type_check(outcome)
                and outcomes[1].raised
            ):
                return Reference(None, error=outcome.error[0])
        return None

    return make


def past_overflow(restage, arrays):
    """A reference maker for a stage where Chainer answers NaN or infinity
    because an intermediate overflowed (or lost its precision in) a dtype
    narrower than float64: ``restage(numpy.float64)`` gives the stages up
    to that one with every floating input in float64. The reference is
    Chainer's answer with each entry that is not finite, where Chainer's
    float64 answer is, replaced by that one cast to the entry's dtype."""
    low = lowest_precision(arrays)

    def make(libs, scratch, outcomes):
        if low in (None, numpy.float64) or outcomes[0].raised or outcomes[1].raised:
            return None
        wide = _in_float64(restage, libs[0], {})
        if wide is None:
            return None
        merged, replaced = _finite_from(outcomes[0].value, wide.value)
        return Reference(merged) if replaced else None

    return make


def _in_float64(restage, lib, scratch):
    """The outcome of the last of ``restage(numpy.float64)``'s stages run
    on ``lib`` with ``scratch``, or None where one of them raised."""
    return last_outcome(restage(numpy.float64), lib, scratch)


def last_outcome(stages, lib, scratch):
    """The outcome of the last of ``stages`` run on ``lib`` with
    ``scratch``, or None where one of them raised."""
    for _, stage in stages:
        outcome = compare.run(lambda stage=stage: stage(lib, scratch))
        if outcome.raised:
            return None
    return outcome


def _finite_from(value, wide):
    """``value`` (a plain form) with its non-finite entries taken from
    ``wide`` (the same form in float64) where those are finite, and whether
    any was."""
    if isinstance(value, numpy.ndarray):
        if not (
            value.dtype.kind == 'f'
            and isinstance(wide, numpy.ndarray)
            and wide.shape == value.shape
        ):
            return value, False
        taken = ~numpy.isfinite(value) & numpy.isfinite(wide)
        out = value.copy()
        out[taken] = wide[taken].astype(value.dtype)
        return out, bool(taken.any())
    if isinstance(value, (tuple, list)) and isinstance(wide, type(value)):
        if len(value) != len(wide):
            return value, False
        pairs = [_finite_from(v, w) for v, w in zip(value, wide)]
        return type(value)(p[0] for p in pairs), any(p[1] for p in pairs)
    return value, False


def second_order_by_differences(first_order, inputs):
    """A reference maker for a second-order stage that Chainer refuses.

    ``first_order(lib, xs, scratch)`` gives the entries of the first-order
    gradients, each weighted as the second-order stage weights it (their sum
    is what that stage differentiates), for ``xs``: the case's inputs with
    floating ones in float64 (``scratch`` is chainerlite's, as its stages left
    it). Also asked where Chainer's first-order gradients have other shapes
    than their inputs' (its second order then differentiates gradients its own
    ``Variable.backward`` refuses). The reference is ``by_differences`` of
    it; a non-finite entry where
    chainerlite's first-order gradient (in the case's dtype, which the
    gradient stage compared with Chainer's) is non-finite too is accepted.
    """

    def make(libs, scratch, outcomes):
        if not (outcomes[0].raised or _other_shapes(scratch[0].get('gxs'), inputs)):
            return None
        return by_differences(
            first_order, inputs, libs[1], scratch[1], outcomes[1], scratch[1].get('gxs')
        )

    return make


def second_order_where_none(first_order, inputs):
    """A reference maker for a second-order stage where Chainer answers None
    for an input whose gradient chainerlite gives (Chainer's backward of the
    function is not differentiable, so its second order silently misses
    that input). For each such input, ``by_differences`` of ``first_order``
    (as ``second_order_by_differences`` takes it) is the reference where it
    is not zero everywhere; where it is, nothing depends on the input and
    Chainer's None stands. Chainer's answer stands for the other inputs. No
    reference where no input gets differences."""

    def make(libs, scratch, outcomes):
        theirs, ours = outcomes[0].value, outcomes[1].value
        if not (_sequence(theirs) and _sequence(ours) and theirs[0] == ours[0]):
            return None
        missing = [
            i
            for i, (e, a) in enumerate(zip(theirs[1], ours[1]))
            if e is None and isinstance(a, tuple) and a[:1] == ('variable',)
        ]
        if outcomes[1].raised or len(theirs[1]) != len(ours[1]) or not missing:
            return None
        # differences only along the inputs Chainer left None
        only = (ours[0], [a if i in missing else None for i, a in enumerate(ours[1])])
        measured = by_differences(
            first_order,
            inputs,
            libs[1],
            scratch[1],
            compare.Outcome(only),
            scratch[1].get('gxs'),
        )
        if measured is None:
            return None
        expected = list(theirs[1])
        for i in missing:
            derivative = measured.value[1][i]
            if numpy.any(derivative[1] != 0):
                expected[i] = derivative
        if all(expected[i] is None for i in missing):
            return None
        return Reference((theirs[0], expected), measured.precision)

    return make


def _sequence(value):
    return isinstance(value, tuple) and value[:1] in (('list',), ('tuple',))


def first_order_by_differences(weighted_outputs, inputs):
    """A reference maker for a gradient stage where Chainer answers with a
    gradient of another shape than its input's (a form its own
    ``Variable.backward`` refuses): ``by_differences`` of
    ``weighted_outputs(lib, xs, scratch)``, the entries of the outputs each
    times its upstream gradient."""

    def make(libs, scratch, outcomes):
        if outcomes[0].raised or not _other_shapes(scratch[0].get('gxs'), inputs):
            return None
        return by_differences(
            weighted_outputs, inputs, libs[1], scratch[1], outcomes[1]
        )

    return make


def refuted_first_order(restage, weighted_outputs, inputs):
    """A reference maker for a gradient stage where Chainer's gradient is
    not the derivative of its own forward at some entries.
    ``restage(numpy.float64)`` gives the stages up to it with every
    floating input in float64; Chainer's gradient there is checked, entry
    by entry, against ``by_differences`` of ``weighted_outputs`` (as
    ``first_order_by_differences`` takes it) on Chainer, where that
    gradient is finite, at float16's tolerance: only a gross error refutes
    an entry (the differences of a steep function are rough; either
    one-sided difference stands at a kink, so a tie's convention is no
    refutation). The reference is Chainer's answer in the case's dtype
    with only the refuted entries replaced by the differences of Chainer's
    forward at the case's inputs: elsewhere, conventions (ties, kinks) and
    values stay Chainer's. No reference where no entry is refuted, nor at
    inputs holding NaN or infinity (what they give is a convention)."""
    wide_inputs = [numpy.array(x, numpy.float64) if _floating(x) else x for x in inputs]
    finite = all(numpy.isfinite(x).all() for x in wide_inputs if _floating(x))

    def make(libs, scratch, outcomes):
        if not finite or outcomes[0].raised or outcomes[1].raised:
            return None
        s = {}
        wide = _in_float64(restage, libs[0], s)
        if wide is None:
            return None
        check = by_differences(weighted_outputs, wide_inputs, libs[0], s, wide)
        if check is None:
            return None
        refuted = _refuted(check.value, wide.value)
        if refuted is None:
            return None
        measured = by_differences(
            weighted_outputs, inputs, libs[0], scratch[0], outcomes[1]
        )
        if measured is None:
            return None
        theirs = outcomes[0].value
        expected = [
            ('variable', numpy.where(r, m[1].astype(t[1].dtype), t[1]))
            if r is not None and isinstance(m, tuple)
            else t
            for t, m, r in zip(theirs[1], measured.value[1], refuted)
        ]
        return Reference((theirs[0], expected), measured.precision)

    return make


def _refuted(measured, answer):
    """Per gradient of ``answer`` (Chainer's, a list or tuple of
    ``('variable', array)`` or None), where it misses ``measured`` (the
    same form: differences of Chainer's forward) beyond float16's
    tolerance at a finite entry: a boolean array, or None for a gradient
    with no such entry; None in all where no gradient has one."""
    if not (
        isinstance(answer, tuple)
        and answer[:1] in (('list',), ('tuple',))
        and len(answer[1]) == len(measured[1])
    ):
        return None
    rtol, atol = compare.TOLERANCE['float16']
    found = []
    for m, a in zip(measured[1], answer[1]):
        if not (isinstance(a, tuple) and a[:1] == ('variable',)) or m is None:
            found.append(None)
            continue
        got, want = a[1].astype(numpy.float64), m[1].astype(numpy.float64)
        scale = compare._scale(got)
        with numpy.errstate(invalid='ignore'):
            miss = numpy.isfinite(got) & ~numpy.isclose(
                want, got, rtol=rtol, atol=atol * max(1.0, scale), equal_nan=True
            )
        found.append(miss if miss.any() else None)
    return found if any(f is not None for f in found) else None


def _other_shapes(gradients, inputs):
    """Whether one of ``gradients`` (Variables or None, one per floating
    input) has another shape than its input's."""
    floating = [x for x in inputs if _floating(x)]
    if not gradients or len(gradients) != len(floating):
        return False
    return any(
        g is not None and g.shape != x.shape for g, x in zip(gradients, floating)
    )


def by_differences(entries, inputs, lib, scratch, outcome, first=None):
    """The reference a stage's gradients get by central finite differences.

    ``entries(lib, xs, scratch)`` gives the terms whose sum the stage
    differentiates, for ``xs``: the case's inputs with floating ones in
    float64 (``scratch`` is chainerlite's, as its stages left it). The
    reference is the differences of the sum with respect to each floating
    input element, in the layout of chainerlite's result ``outcome.value`` (a
    list or tuple with one gradient per floating input), at the precision of
    the least precise input. Inputs with too many elements get none.

    At inputs holding NaN or infinity only the terms finite at the point
    are summed (a non-finite one says nothing about its slope), and
    chainerlite's entries are compared with their differences, except: an
    entry at an element that moves a term non-finite at the point (what such
    a term adds is a convention of how NaN spreads; the dependence is
    measured where the non-finite input elements are replaced by 0.5); an
    entry where nothing is measured (the element is non-finite, or a step
    makes a summed term non-finite); a non-finite entry where ``first`` (the
    gradients this stage differentiates, in the case's dtype) is non-finite.
    """
    low = lowest_precision(inputs)
    slots = [i for i, x in enumerate(inputs) if _floating(x)]
    actual = outcome.value
    if low is None or sum(inputs[i].size for i in slots) > MAX_DIFFERENCED:
        return None
    if not (isinstance(actual, tuple) and actual[0] in ('list', 'tuple')):
        return None
    if len(actual[1]) != len(slots):
        return None
    base = [numpy.array(x, dtype=numpy.float64) if _floating(x) else x for x in inputs]
    expected = []
    try:
        counted = numpy.isfinite(_entries(entries, lib, base, scratch))
        for slot, got, gx in zip(slots, actual[1], first or [None] * len(slots)):
            if not (isinstance(got, tuple) and got and got[0] == 'variable'):
                expected.append(got)  # None: no gradient to check
                continue
            derivative, unmeasured = one_sided_or_central(
                entries, lib, base, slot, scratch, got[1], counted
            )
            if gx is not None:  # NaN's slope is NaN in the case's dtype
                unmeasured |= ~numpy.isfinite(gx.array) & ~numpy.isfinite(got[1])
            if not counted.all():
                for index in zip(*numpy.nonzero(~unmeasured)):
                    unmeasured[index] = _feeds_non_finite(
                        entries, lib, base, slot, index, scratch, ~counted
                    )
            derivative[unmeasured] = got[1][unmeasured]
            expected.append(('variable', derivative.astype(got[1].dtype)))
    except Exception:  # noqa: BLE001 - then there is no reference
        return None
    return Reference((actual[0], expected), low)


def _feeds_non_finite(first_order, lib, base, slot, index, scratch, uncounted):
    """Whether input ``slot``'s element ``index`` moves a first-order entry
    that is non-finite at the point (``uncounted``): measured at the point
    with every non-finite input element replaced by 0.5, where the entries
    are finite (True where they are not: nothing tells it does not)."""
    finite = [
        numpy.where(numpy.isfinite(x), x, 0.5) if _floating(x) else x for x in base
    ]
    x = finite[slot]
    step = 1e-5 * max(1.0, abs(x[index]))
    sides = []
    for sign in (1.0, -1.0):
        moved = list(finite)
        moved[slot] = x.copy()
        moved[slot][index] += sign * step
        sides.append(_entries(first_order, lib, moved, scratch)[uncounted])
    if not all(numpy.isfinite(side).all() for side in sides):
        return True
    return bool((sides[0] != sides[1]).any())


def _entries(first_order, lib, xs, scratch):
    return numpy.atleast_1d(numpy.asarray(first_order(lib, xs, scratch), float))


def in_input_dtypes(inputs, restage=None):
    """A reference maker for the gradient stages of a case where Chainer's
    first-order gradients (``scratch['gxs']``), or the stage's own
    gradients, are in other dtypes than their inputs' (its own
    ``Variable.backward`` refuses such a gradient): Chainer's result with
    each gradient cast to its input's dtype, compared at the precision of
    the least precise input (the second order differentiates Chainer's
    wider gradients, rounded less than chainerlite's). ``inputs`` are the
    case's inputs; the stage's result has one entry per floating input.
    With ``restage`` (as ``past_overflow`` takes it), an entry Chainer
    answers NaN or infinity for, where Chainer on float64 inputs answers a
    finite one, is that one first (the two rules of one case: a float16
    second order that overflows in Chainer's and comes in another dtype)."""
    dtypes = [x.dtype for x in inputs if _floating(x)]
    low = lowest_precision(inputs)

    def make(libs, scratch, outcomes):
        value = outcomes[0].value
        first = scratch[0].get('gxs') or ()
        if outcomes[0].raised or not (
            isinstance(value, tuple) and value[0] in ('list', 'tuple')
        ):
            return None
        if len(value[1]) != len(dtypes) or len(first) != len(dtypes):
            return None
        own = [
            g[1] if isinstance(g, tuple) and g[:1] == ('variable',) else None
            for g in value[1]
        ]
        if all(
            g is None or g.dtype == d for gs in (first, own) for g, d in zip(gs, dtypes)
        ):
            return None  # Chainer's gradients have their inputs' dtypes
        if _other_shapes(first, inputs):
            return None  # and not their shapes: first_order_by_differences
        if restage is not None and low is not numpy.float64:
            wide = _in_float64(restage, libs[0], {})
            if wide is not None:
                value, _ = _finite_from(value, wide.value)
        expected = [
            ('variable', g[1].astype(dtype))
            if isinstance(g, tuple) and g[:1] == ('variable',)
            else g
            for g, dtype in zip(value[1], dtypes)
        ]
        return Reference((value[0], expected), low, exact_dtypes=True)

    return make


def either(*makers):
    """A reference maker giving the first reference one of ``makers`` gives."""

    def make(libs, scratch, outcomes):
        for maker in makers:
            found = maker(libs, scratch, outcomes)
            if found is not None:
                return found
        return None

    return make


def one_sided_or_central(first_order, lib, base, slot, scratch, actual, counted):
    """Differences of the sum of ``first_order``'s ``counted`` entries along
    input ``slot``: per element the central one, or where chainerlite's
    ``actual`` is nearer to it, the one-sided one from the left or the right
    (at a kink, where the function is not differentiable, either side's
    derivative is an answer). Also returns where nothing was measured: the
    element is not finite, or a step makes a counted entry non-finite."""
    x = base[slot]
    at = _entries(first_order, lib, base, scratch)[counted].sum()
    out = numpy.zeros(x.shape)
    unknown = numpy.zeros(x.shape, bool)
    for index in numpy.ndindex(x.shape):
        value = x[index]
        if not numpy.isfinite(value):
            unknown[index] = True
            continue
        step = 1e-5 * max(1.0, abs(value))
        sides = []
        for sign in (1.0, -1.0):
            moved = list(base)
            moved[slot] = x.copy()
            moved[slot][index] = value + sign * step
            sides.append(_entries(first_order, lib, moved, scratch)[counted])
        if not all(numpy.isfinite(side).all() for side in sides):
            unknown[index] = True
            continue
        sides = [side.sum() for side in sides]
        candidates = numpy.array(
            [
                (sides[0] - sides[1]) / (2 * step),
                (sides[0] - at) / step,
                (at - sides[1]) / step,
            ]
        )
        with numpy.errstate(invalid='ignore'):
            gap = numpy.abs(candidates - float(actual[index]))
        nearest = 0 if numpy.isnan(gap).all() else numpy.nanargmin(gap)
        out[index] = candidates[nearest]
    return out, unknown


def _floating(x):
    return isinstance(x, numpy.ndarray) and x.dtype.kind == 'f'
