"""One call per function of ``chainer.functions`` and the model around it."""

import numpy

from tools import kink_cases

LOW, HIGH = 0.1, 0.9  # in every domain: log, sqrt, arccos, ndtri, erfcinv


def _labels():
    return numpy.array([0, 3, 1], numpy.int32)


def _ramp(*shape):
    return kink_cases.ramp(shape)


# Calls that Chainer exports and the kink cases do not make (their labels
# hold ignore_label, their axes and reductions are the defaults).
EXTRA = (
    kink_cases.Case('softmax_cross_entropy', 'labels', (_ramp(3, 4), _labels()), None),
    kink_cases.Case(
        'softmax_cross_entropy',
        'labels_double_bp',
        (_ramp(3, 4), _labels()),
        lambda ch, F, x, t: F.softmax_cross_entropy(x, t, enable_double_backprop=True),
    ),
    kink_cases.Case(
        'average', 'axis', (_ramp(3, 4),), lambda ch, F, x: F.average(x, axis=1)
    ),
    kink_cases.Case(
        'maxout',
        'last_axis',
        (_ramp(2, 3, 4),),
        lambda ch, F, x: F.maxout(x, 2, axis=2),
    ),
    kink_cases.Case(
        'gaussian_nll',
        'mean',
        (_ramp(3, 4),) * 3,
        lambda ch, F, x, m, v: F.gaussian_nll(x, m, v, reduce='mean'),
    ),
    kink_cases.Case(
        'bernoulli_nll',
        'no',
        (_ramp(3, 4),) * 2,
        lambda ch, F, x, y: F.bernoulli_nll(x, y, reduce='no'),
    ),
    kink_cases.Case(
        'gaussian_kl_divergence',
        'mean',
        (_ramp(3, 4),) * 2,
        lambda ch, F, m, v: F.gaussian_kl_divergence(m, v, reduce='mean'),
    ),
)


def cases():
    """``{'function/label': case}``: every kink case and the extra calls."""
    out = {}
    for case in kink_cases.CASES + list(EXTRA):
        if case.call is None:
            case = case._replace(
                call=lambda ch, F, *xs, name=case.func: getattr(F, name)(*xs)
            )
        out[case.key] = case
    return dict(sorted(out.items()))


def redrawn(case, seed, labels=True, dtype=numpy.float32):
    """The case's inputs, each floating array replaced by values of
    ``dtype`` and its shape in ``[LOW, HIGH)``; and the positions of the
    arrays that are model inputs: the floating ones and, with ``labels``,
    the others too (Chainer's converters read the labels' values)."""
    rng = numpy.random.RandomState(seed)
    inputs, arrays = [], []
    for i, x in enumerate(case.inputs):
        if isinstance(x, numpy.ndarray):
            floating = x.dtype.kind == 'f'
            if floating:
                x = rng.uniform(LOW, HIGH, x.shape).astype(dtype)
            if floating or labels:
                arrays.append(i)
        inputs.append(x)
    return inputs, arrays


def flat_variables(lib, value):
    """The Variables of an output (a Variable, or nested tuples and lists)."""
    if isinstance(value, lib.Variable):
        return [value]
    if isinstance(value, (tuple, list)):
        return [v for item in value for v in flat_variables(lib, item)]
    return []


def model(lib, case, inputs, arrays):
    """A Chain whose forward takes the arrays (the other inputs are
    constants) and returns the call's output Variables as a tuple."""

    class OneCall(lib.Chain):
        def forward(self, *args):
            xs = list(inputs)
            for i, arg in zip(arrays, args):
                xs[i] = arg
            return tuple(flat_variables(lib, case.call(lib, lib.functions, *xs)))

    return OneCall()
