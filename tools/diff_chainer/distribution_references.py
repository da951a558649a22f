"""Independent values of the distribution methods that Chainer 7.8.1 leaves
unimplemented (it raises NotImplementedError): SciPy's frozen distributions,
or closed forms, all in float64. Parameter names and parametrizations are
Chainer's (``distributions.TABLE``)."""

import numpy
from scipy import special
from scipy import stats

# Chainer's method or property -> the frozen SciPy distribution's method.
SCIPY_METHODS = {
    'prob': 'pdf',
    'log_prob': 'logpdf',
    'cdf': 'cdf',
    'log_cdf': 'logcdf',
    'survival_function': 'sf',
    'log_survival_function': 'logsf',
    'mean': 'mean',
    'variance': 'var',
    'stddev': 'std',
    'entropy': 'entropy',
}
DISCRETE = frozenset(('Bernoulli', 'Geometric', 'Poisson'))
LOCATION_MODE = frozenset(('Normal', 'Cauchy', 'Gumbel', 'Laplace'))


def _frozen(name, p):
    makers = {
        'Bernoulli': lambda: stats.bernoulli(p['p']),
        'Beta': lambda: stats.beta(p['a'], p['b']),
        'Cauchy': lambda: stats.cauchy(p['loc'], p['scale']),
        'Chisquare': lambda: stats.chi2(p['k']),
        'Exponential': lambda: stats.expon(scale=1.0 / p['lam']),
        'Gamma': lambda: stats.gamma(p['k'], scale=p['theta']),
        'Geometric': lambda: stats.geom(p['p']),
        'Gumbel': lambda: stats.gumbel_r(p['loc'], p['scale']),
        'Laplace': lambda: stats.laplace(p['loc'], p['scale']),
        'LogNormal': lambda: stats.lognorm(p['sigma'], scale=numpy.exp(p['mu'])),
        'Normal': lambda: stats.norm(p['loc'], p['scale']),
        'Pareto': lambda: stats.pareto(p['alpha'], scale=p['scale']),
        'Poisson': lambda: stats.poisson(p['lam']),
        'Uniform': lambda: stats.uniform(p['low'], p['high'] - p['low']),
    }
    return makers[name]() if name in makers else None


def _vector(name, attr, p, x):
    """Closed forms of the distributions over vectors (None where none)."""
    if name == 'Categorical' and attr == 'prob':
        return numpy.take_along_axis(p['p'], x[..., None].astype(int), -1)[..., 0]
    if name == 'OneHotCategorical':
        q = p['p']
        if attr == 'prob':
            return numpy.prod(numpy.where(x > 0, q, 1.0), axis=-1)
        if attr == 'entropy':
            return -numpy.sum(special.xlogy(q, q), axis=-1)
        if attr == 'stddev':
            return numpy.sqrt(q * (1.0 - q))
    if name == 'Dirichlet':
        a = p['alpha']
        total = a.sum(axis=-1, keepdims=True)
        if attr == 'prob':
            log = (
                special.gammaln(total[..., 0])
                - special.gammaln(a).sum(axis=-1)
                + numpy.sum((a - 1.0) * numpy.log(x), axis=-1)
            )
            return numpy.exp(log)
        if attr == 'stddev':
            return numpy.sqrt(a * (total - a) / (total**2 * (total + 1.0)))
    if name == 'MultivariateNormal' and attr == 'prob':
        loc, tril = p['loc'], p['scale_tril']
        out = numpy.empty(loc.shape[:-1])
        for index in numpy.ndindex(out.shape):
            cov = tril[index] @ tril[index].T
            out[index] = stats.multivariate_normal(loc[index], cov).pdf(x[index])
        return out
    return None


def value(name, attr, params, x):
    """``attr`` of the distribution ``name`` with ``params`` (at ``x`` for a
    method) in float64, or None where no independent value is known."""
    p = {k: numpy.asarray(v, dtype=numpy.float64) for k, v in params.items()}
    x = numpy.asarray(x, dtype=numpy.float64)
    if name in ('Categorical', 'OneHotCategorical', 'Dirichlet', 'MultivariateNormal'):
        return _vector(name, attr, p, x)
    if attr == 'mode':
        if name in LOCATION_MODE:
            return p['loc']
        if name == 'Exponential':
            return numpy.zeros_like(p['lam'])
        return None
    if name == 'Geometric' and attr == 'entropy':
        q = p['p']
        return -(special.xlogy(q, q) + special.xlog1py(1.0 - q, -q)) / q
    frozen = _frozen(name, p)
    method = SCIPY_METHODS.get(attr)
    if frozen is None or method is None:
        return None
    if name in DISCRETE:
        method = method.replace('pdf', 'pmf')
    if attr in ('mean', 'variance', 'stddev', 'entropy'):
        return numpy.asarray(getattr(frozen, method)(), dtype=numpy.float64)
    return numpy.asarray(getattr(frozen, method)(x), dtype=numpy.float64)
