"""Runner for ``chainer.distributions``: the same distribution built from
the same generated parameters; its shapes, moments, entropy, ``repr``, and
the (log) density, distribution functions and their gradients with respect
to the parameters at generated points of its support."""

import numpy
from hypothesis import strategies as st

from tools.diff_chainer import compare
from tools.diff_chainer import distribution_references
from tools.diff_chainer import pair
from tools.diff_chainer import references
from tools.diff_chainer import strategies as S

PROBABILITY, POSITIVE, REAL = 'probability', 'positive', 'real'
# name -> (parameters and their domains, support of the points evaluated)
TABLE = {
    'Bernoulli': ({'p': PROBABILITY}, 'binary'),
    'Beta': ({'a': POSITIVE, 'b': POSITIVE}, 'unit'),
    'Categorical': ({'p': 'simplex'}, 'index'),
    'Cauchy': ({'loc': REAL, 'scale': POSITIVE}, REAL),
    'Chisquare': ({'k': POSITIVE}, POSITIVE),
    'Dirichlet': ({'alpha': POSITIVE}, 'simplex'),
    'Exponential': ({'lam': POSITIVE}, POSITIVE),
    'Gamma': ({'k': POSITIVE, 'theta': POSITIVE}, POSITIVE),
    'Geometric': ({'p': PROBABILITY}, 'count1'),
    'Gumbel': ({'loc': REAL, 'scale': POSITIVE}, REAL),
    'Laplace': ({'loc': REAL, 'scale': POSITIVE}, REAL),
    'LogNormal': ({'mu': REAL, 'sigma': POSITIVE}, POSITIVE),
    'MultivariateNormal': ({'loc': REAL, 'scale_tril': 'tril'}, 'vector'),
    'Normal': ({'loc': REAL, 'scale': POSITIVE}, REAL),
    'OneHotCategorical': ({'p': 'simplex'}, 'onehot'),
    'Pareto': ({'scale': POSITIVE, 'alpha': POSITIVE}, 'above_scale'),
    'Poisson': ({'lam': POSITIVE}, 'count0'),
    'Uniform': ({'low': REAL, 'high': 'above_low'}, 'inside'),
}
NOT_COVERED = {
    'Distribution': 'the abstract base class',
    'Independent': 'wraps another distribution; no runner builds one yet',
}
PROPERTIES = (
    'batch_shape',
    'event_shape',
    'mean',
    'variance',
    'stddev',
    'entropy',
    'mode',
)
# A method or property Chainer may leave unimplemented -> the one of the
# same quantity that it computes from the same input.
SIBLINGS = {
    'prob': 'log_prob',
    'log_cdf': 'cdf',
    'survival_function': 'cdf',
    'log_survival_function': 'cdf',
    'stddev': 'variance',
}
# A sibling's exceptions that say nothing of the input: Chainer leaves it
# unimplemented too, or its type check refuses the dtype (chainerlite takes
# dtypes Chainer refuses).
UNINFORMATIVE = frozenset(('builtins.NotImplementedError', 'InvalidType'))
METHODS = (
    'log_prob',
    'prob',
    'cdf',
    'log_cdf',
    'survival_function',
    'log_survival_function',
)


def parameters(seed, domains, batch, event, dtype):
    """Arrays of each parameter's domain."""
    rng = numpy.random.RandomState(seed)
    shape = batch + event
    out = {}
    for name, domain in domains.items():
        if domain == PROBABILITY:
            value = rng.uniform(0.05, 0.95, shape)
        elif domain == POSITIVE:
            value = rng.uniform(0.3, 3.0, shape)
        elif domain == 'simplex':
            value = rng.uniform(0.1, 1.0, shape)
            value /= value.sum(axis=-1, keepdims=True)
        elif domain == 'tril':
            d = event[0]
            value = numpy.tril(rng.uniform(-0.5, 0.5, batch + (d, d)))
            value[..., numpy.arange(d), numpy.arange(d)] = rng.uniform(
                0.5, 2.0, batch + (d,)
            )
        elif domain == 'above_low':
            value = out['low'] + rng.uniform(0.5, 3.0, shape)
        else:
            value = rng.uniform(-2.0, 2.0, shape)
        out[name] = value.astype(dtype)
    return out


def points(seed, support, params, batch, event, dtype):
    """Points of the support (some outside it for the continuous ones)."""
    rng = numpy.random.RandomState(seed + 1)
    shape = batch + event
    if support == 'binary':
        return rng.randint(0, 2, shape).astype(dtype)
    if support == 'index':
        return rng.randint(0, event[0], batch).astype(numpy.int32)
    if support == 'onehot':
        return numpy.eye(event[0], dtype=dtype)[rng.randint(0, event[0], batch)]
    if support in ('count0', 'count1'):
        return rng.randint(support == 'count1', 5, shape).astype(dtype)
    if support == 'unit':
        return rng.uniform(0.05, 0.95, shape).astype(dtype)
    if support == 'simplex':
        value = rng.uniform(0.1, 1.0, shape)
        return (value / value.sum(axis=-1, keepdims=True)).astype(dtype)
    if support == 'above_scale':
        return (params['scale'] + rng.uniform(0.0, 2.0, shape)).astype(dtype)
    if support == 'inside':
        return (params['low'] + rng.uniform(-0.5, 3.5, shape)).astype(dtype)
    if support == POSITIVE:
        return rng.uniform(0.1, 4.0, shape).astype(dtype)
    return rng.uniform(-3.0, 3.0, shape).astype(dtype)


def stages(name, params, x):
    def build(lib, s):
        s['params'] = {k: lib.Variable(v.copy()) for k, v in params.items()}
        s['dist'] = getattr(lib.distributions, name)(**s['params'])
        return None

    def attribute(attr):
        return lambda lib, s: getattr(s['dist'], attr)

    def method(attr):
        def stage(lib, s):
            return getattr(s['dist'], attr)(x.copy())

        return stage

    def gradient(lib, s):
        y = s['dist'].log_prob(x.copy())
        return lib.grad([lib.functions.sum(y)], list(s['params'].values()))

    out = [('build', build)]
    out += [(a, attribute(a)) for a in PROPERTIES]
    out += [(m, method(m)) for m in METHODS]
    return out + [('log_prob grad', gradient)]


def reference_makers(name, params, x, dtype):
    """References for each check where Chainer gives no answer: SciPy's or
    a closed form's value (in float64, then ``dtype``) where Chainer raises
    NotImplementedError; Chainer on the parameters and points in float32
    where its type check refuses ``dtype``."""

    def independent(attr):
        def make(libs, scratch, outcomes):
            if 'builtins.NotImplementedError' not in outcomes[0].error:
                return None
            expected = distribution_references.value(name, attr, params, x)
            if expected is None:
                return None
            return references.Reference(
                ('variable', numpy.asarray(expected).astype(dtype))
            )

        return make

    def restage(check):
        def make(cast):
            p = {k: v.astype(cast) for k, v in params.items()}
            y = x.astype(cast) if x.dtype.kind == 'f' else x
            return [s for s in stages(name, p, y) if s[0] in ('build', check)]

        return make

    def sibling(check):
        # Chainer's method of the same quantity raises on this input: so
        # should chainerlite's (prob is exp(log_prob), ...)
        def make(libs, scratch, outcomes):
            if 'builtins.NotImplementedError' not in outcomes[0].error:
                return None
            if check not in SIBLINGS or 'dist' not in scratch[0]:
                return None
            attr = getattr(scratch[0]['dist'], SIBLINGS[check])
            outcome = compare.run(lambda: attr(x.copy()) if check in METHODS else attr)
            if not outcome.raised or set(outcome.error) & UNINFORMATIVE:
                return None  # it answers, or is unimplemented or refuses too
            return references.Reference(None, error=outcome.error[0])

        return make

    arrays = list(params.values())
    out = {}
    for check, _ in stages(name, params, x)[1:]:
        promoted = references.promoted(restage(check), arrays)
        out[check] = references.either(sibling(check), independent(check), promoted)
    return out


def run(qualified, libs, tally, examples, seconds):
    name = qualified.rpartition('.')[2]
    if name in NOT_COVERED:
        return NOT_COVERED[name]
    if name not in TABLE:
        return 'no parameter domains for it in distributions.TABLE'
    domains, support = TABLE[name]

    def draw_case(data):
        batch = data.draw(st.sampled_from([(), (1,), (3,), (2, 3)]))
        vector = support in ('index', 'onehot', 'simplex', 'vector')
        event = (data.draw(st.integers(2, 4)),) if vector else ()
        dtype = data.draw(st.sampled_from((numpy.float32, numpy.float64)))
        seed = data.draw(S.seeds)
        params = parameters(seed, domains, batch, event, dtype)
        if name in ('Categorical', 'OneHotCategorical'):
            params = {'p': params['p']}
        x = points(seed, support, params, batch, event, dtype)
        label = f'{name} batch={batch} event={event} {dtype.__name__}'
        # Each property and method is compared on its own: one that raises
        # on both sides does not hide the others.
        build, *checks = stages(name, params, x)
        makers = reference_makers(name, params, x, dtype)
        for check in checks:
            pair.run_case(libs, [build, check], tally, label, makers)

    pair.explore(draw_case, examples, seconds)
