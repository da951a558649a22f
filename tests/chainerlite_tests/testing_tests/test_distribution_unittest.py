"""testing.distribution_unittest: its targets, checks and device tests."""

import unittest

import numpy
import pytest

from chainerlite import distributions
from chainerlite import testing

# the checks compare with SciPy's distributions (the NumPy 1 venv has none)
stats = pytest.importorskip('scipy.stats')


class _NormalCase(testing.distribution_unittest):
    # A distribution whose every target agrees with SciPy's.
    __test__ = False

    def setUp_configure(self):
        self.dist = distributions.Normal
        self.scipy_dist = stats.norm
        self.shape = (2, 3)
        self.sample_shape = (4,)
        loc = numpy.random.uniform(-1, 1, self.shape).astype(numpy.float32)
        scale = numpy.random.uniform(0.5, 2, self.shape).astype(numpy.float32)
        self.params = {'loc': loc, 'scale': scale}
        self.scipy_params = {'loc': loc, 'scale': scale}
        self.test_targets = set(self.targets)

    def sample_for_test(self):
        return numpy.random.normal(size=self.sample_shape + self.shape).astype(
            numpy.float32
        )


_ALL = (
    'batch_shape cdf entropy event_shape icdf log_cdf log_prob log_survival '
    'mean prob sample stddev support survival variance'.split()
)


def _run(case, names):
    suite = unittest.TestSuite(case(name) for name in names)
    result = unittest.TestResult()
    suite.run(result)
    return result


def test_every_cpu_test_passes_for_a_correct_distribution():
    case = type('Case', (_NormalCase,), {'targets': _ALL})
    result = _run(case, ['test_{}_cpu'.format(t) for t in _ALL])
    assert result.testsRun == len(_ALL)
    assert not result.failures and not result.errors, result.failures + result.errors
    assert not result.skipped


def test_targets_not_listed_are_skipped():
    case = type('Case', (_NormalCase,), {'targets': ['mean']})
    result = _run(case, ['test_mean_cpu', 'test_survival_cpu', 'test_sample_cpu'])
    assert not result.failures and not result.errors
    assert [t.id().rsplit('.', 1)[1] for t, _ in result.skipped] == [
        'test_survival_cpu',
        'test_sample_cpu',
    ]


def test_a_wrong_mean_fails_its_check():
    class Shifted(distributions.Normal):
        @property
        def mean(self):
            return super().mean + 1

    case = type(
        'Case',
        (_NormalCase,),
        {'targets': ['mean'], 'setUp_configure': _shifted_configure(Shifted)},
    )
    result = _run(case, ['test_mean_cpu'])
    assert len(result.failures) == 1


def _shifted_configure(dist):
    def setUp_configure(self):
        _NormalCase.setUp_configure(self)
        self.dist = dist

    return setUp_configure


def test_unknown_target_is_a_value_error():
    case = type('Case', (_NormalCase,), {'targets': ['survival_function']})
    result = _run(case, ['test_mean_cpu'])
    assert len(result.errors) == 1
    assert 'ValueError' in result.errors[0][1]
    assert 'survival_function' in result.errors[0][1]


def test_checks_and_devices_as_attributes():
    case = type('Case', (_NormalCase,), {'targets': ['mean']})('test_mean_cpu')
    case.setUp()
    assert isinstance(case.cpu_dist, distributions.Normal)
    assert case.cpu_dist is not case.cpu_dist  # built on each access
    case.check_mean(False)
    case.check_log_prob(False)
    for target in _ALL:
        assert callable(getattr(case, 'test_{}_gpu'.format(target)))


@pytest.mark.parametrize('is_variable', [False, True])
def test_parameters_as_variables(is_variable):
    case = type(
        'Case',
        (_NormalCase,),
        {'targets': ['mean', 'log_prob'], 'is_variable': is_variable},
    )
    result = _run(case, ['test_mean_cpu', 'test_log_prob_cpu'])
    assert not result.failures and not result.errors


class _DirichletCase(testing.distribution_unittest):
    # SciPy's Dirichlet takes one vector of parameters: checked one batch
    # element at a time, its mean and variance are vectors
    __test__ = False
    scipy_onebyone = True

    def setUp_configure(self):
        self.dist = distributions.Dirichlet
        self.scipy_dist = stats.dirichlet
        self.shape = (2,)
        self.event_shape = (3,)
        self.sample_shape = (4,)
        alpha = numpy.random.uniform(0.5, 2, self.shape + (3,)).astype(numpy.float32)
        self.params = {'alpha': alpha}
        self.scipy_params = {'alpha': alpha}
        self.test_targets = set(self.targets)


def test_one_by_one_checks_of_a_multivariate_distribution():
    names = ['mean', 'variance', 'entropy', 'batch_shape', 'event_shape']
    case = type('Case', (_DirichletCase,), {'targets': names})
    result = _run(case, ['test_{}_cpu'.format(t) for t in names])
    assert result.testsRun == len(names)
    assert not result.failures and not result.errors, result.failures + result.errors
