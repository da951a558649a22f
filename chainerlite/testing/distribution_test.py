"""Base test case comparing a distribution against its SciPy counterpart."""

import unittest

import numpy

from chainerlite import backend
from chainerlite.backends import cuda
from chainerlite.testing import array
from chainerlite.testing import attr
from chainerlite import variable


def _as_numpy(x):
    return backend.CpuDevice().send(variable.as_array(x))


_TARGETS = frozenset(
    'batch_shape cdf entropy event_shape icdf log_cdf log_prob log_survival '
    'mean prob sample stddev support survival variance'.split()
)


def _target_tests(target, check):
    """The CPU and GPU tests of ``target``: each skips unless ``target`` is
    in ``test_targets`` and otherwise calls the method ``check(is_gpu)``."""

    def run(self, is_gpu):
        if target not in self.test_targets:
            self.skipTest('{} is not a test target'.format(target))
        getattr(self, check)(is_gpu)

    def test_cpu(self):
        run(self, False)

    def test_gpu(self):
        run(self, True)

    for test, device in ((test_cpu, 'cpu'), (test_gpu, 'gpu')):
        test.__name__ = 'test_{}_{}'.format(target, device)
        test.__qualname__ = 'distribution_unittest.' + test.__name__
    return test_cpu, attr.gpu_test_method(test_gpu)


class distribution_unittest(unittest.TestCase):
    """Checks ``self.dist`` against ``self.scipy_dist``.

    A subclass defines ``setUp_configure``, which sets ``dist``,
    ``scipy_dist``, ``params``, ``scipy_params``, ``shape`` (the batch
    shape), ``test_targets`` (the names of what to compare: ``batch_shape``,
    ``cdf``, ``entropy``, ``event_shape``, ``icdf``, ``log_cdf``,
    ``log_prob``, ``log_survival``, ``mean``, ``prob``, ``sample``,
    ``stddev``, ``support``, ``survival``, ``variance``) and, when a method
    taking a value is tested, ``sample_shape`` and ``sample_for_test()``.
    Optional attributes: ``options`` (extra constructor arguments),
    ``support``, ``continuous`` (``True``), ``scipy_onebyone`` (``False``;
    compare each batch element with its own SciPy distribution),
    ``event_shape`` (``()``), ``is_variable`` (``False``; pass the
    parameters as Variables).

    Each target has a ``check_<target>(is_gpu)`` method (the shapes and the
    support excepted) run by ``test_<target>_cpu`` and ``test_<target>_gpu``;
    ``cpu_dist`` and ``gpu_dist`` build the distribution on each device.

    Raises:
        ValueError: From ``setUp``, if ``test_targets`` names something
            else.
    """

    # The base is not a test itself; its subclasses are (pytest).
    __test__ = False
    scipy_onebyone = False
    is_variable = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if '__test__' not in cls.__dict__:
            cls.__test__ = True

    def setUp(self):
        self.support = 'real'
        if not hasattr(self, 'event_shape'):
            self.event_shape = ()
        self.continuous = True
        self.test_targets = set()
        self.options = {}
        self.setUp_configure()
        unknown = set(self.test_targets) - _TARGETS
        if unknown:
            raise ValueError(
                'distribution_unittest: unknown test target(s) {}; the '
                'targets are {}'.format(sorted(unknown), sorted(_TARGETS))
            )

    @property
    def cpu_dist(self):
        """The distribution under test, built on the CPU."""
        return self._make_dist(False)

    @property
    def gpu_dist(self):
        """The distribution under test, its parameters sent to the GPU."""
        return self._make_dist(True)

    def _make_dist(self, is_gpu):
        params = {}
        for key, value in self.params.items():
            value = variable.as_array(value)
            if is_gpu:
                value = cuda.to_gpu(value)
            if self.is_variable:
                value = variable.Variable(value)
            params[key] = value
        return self.dist(**dict(params, **self.options))

    def _batch_index(self):
        return numpy.ndindex(*self.shape)

    def scipy_onebyone_params_iter(self):
        """Yields the SciPy parameters of each batch element in turn."""
        for index in self._batch_index():
            yield {
                key: numpy.asarray(value)[index]
                for key, value in self.scipy_params.items()
            }

    def _scipy_value(self, name, *args):
        """Evaluates ``name`` with SciPy, element by element when asked."""
        if not self.scipy_onebyone:
            return getattr(self.scipy_dist, name)(*args, **self.scipy_params)
        params = self.scipy_onebyone_params_iter()
        if not args:
            # a property of each element (a vector of the event's length
            # for a mean or variance of a multivariate one)
            values = [getattr(self.scipy_dist(**one), name)() for one in params]
            return numpy.asarray(values).reshape(self.shape + numpy.shape(values[0]))
        out = numpy.empty(args[0].shape[: args[0].ndim - len(self.event_shape)])
        for index, one_params in zip(self._batch_index(), params):
            one = self.scipy_dist(**one_params)
            sel = (Ellipsis,) + index + (slice(None),) * len(self.event_shape)
            out[(Ellipsis,) + index] = getattr(one, name)(args[0][sel])
        return out

    def _dist(self, is_gpu):
        return self.gpu_dist if is_gpu else self.cpu_dist

    def _check_property(self, name, scipy_name, is_gpu):
        actual = _as_numpy(getattr(self._dist(is_gpu), name))
        expected = self._scipy_value(scipy_name)
        array.assert_allclose(actual, expected, rtol=1e-2, atol=1e-2)

    def _check_method(self, name, scipy_name, is_gpu, arg=None):
        if arg is None:
            arg = self.sample_for_test()
        x = cuda.to_gpu(arg) if is_gpu else arg
        actual = _as_numpy(getattr(self._dist(is_gpu), name)(x))
        expected = self._scipy_value(scipy_name, arg)
        array.assert_allclose(actual, expected, rtol=1e-2, atol=1e-2)

    def _check_batch_shape(self, is_gpu):
        self.assertEqual(self._dist(is_gpu).batch_shape, self.shape)

    def _check_event_shape(self, is_gpu):
        self.assertEqual(self._dist(is_gpu).event_shape, self.event_shape)

    def _check_support(self, is_gpu):
        self.assertEqual(self._dist(is_gpu).support, self.support)

    def check_mean(self, is_gpu):
        self._check_property('mean', 'mean', is_gpu)

    def check_variance(self, is_gpu):
        self._check_property('variance', 'var', is_gpu)

    def check_stddev(self, is_gpu):
        self._check_property('stddev', 'std', is_gpu)

    def check_entropy(self, is_gpu):
        self._check_property('entropy', 'entropy', is_gpu)

    def check_log_prob(self, is_gpu):
        name = 'logpdf' if self.continuous else 'logpmf'
        self._check_method('log_prob', name, is_gpu)

    def check_prob(self, is_gpu):
        name = 'pdf' if self.continuous else 'pmf'
        self._check_method('prob', name, is_gpu)

    def check_cdf(self, is_gpu):
        self._check_method('cdf', 'cdf', is_gpu)

    def check_log_cdf(self, is_gpu):
        self._check_method('log_cdf', 'logcdf', is_gpu)

    def check_survival(self, is_gpu):
        self._check_method('survival_function', 'sf', is_gpu)

    def check_log_survival(self, is_gpu):
        self._check_method('log_survival_function', 'logsf', is_gpu)

    def check_icdf(self, is_gpu):
        u = numpy.random.uniform(0.02, 0.98, self.sample_shape + self.shape)
        self._check_method('icdf', 'ppf', is_gpu, u.astype(numpy.float32))

    def check_sample(self, is_gpu):
        dist = self._dist(is_gpu)
        smp = _as_numpy(dist.sample(sample_shape=(100000,)))
        self.assertEqual(smp.shape, (100000,) + self.shape + self.event_shape)
        if 'mean' in self.test_targets:
            expected = _as_numpy(dist.mean)
            array.assert_allclose(smp.mean(axis=0), expected, rtol=3e-2, atol=3e-2)

    test_batch_shape_cpu, test_batch_shape_gpu = _target_tests(
        'batch_shape', '_check_batch_shape'
    )
    test_event_shape_cpu, test_event_shape_gpu = _target_tests(
        'event_shape', '_check_event_shape'
    )
    test_support_cpu, test_support_gpu = _target_tests('support', '_check_support')
    test_mean_cpu, test_mean_gpu = _target_tests('mean', 'check_mean')
    test_variance_cpu, test_variance_gpu = _target_tests('variance', 'check_variance')
    test_stddev_cpu, test_stddev_gpu = _target_tests('stddev', 'check_stddev')
    test_entropy_cpu, test_entropy_gpu = _target_tests('entropy', 'check_entropy')
    test_log_prob_cpu, test_log_prob_gpu = _target_tests('log_prob', 'check_log_prob')
    test_prob_cpu, test_prob_gpu = _target_tests('prob', 'check_prob')
    test_cdf_cpu, test_cdf_gpu = _target_tests('cdf', 'check_cdf')
    test_log_cdf_cpu, test_log_cdf_gpu = _target_tests('log_cdf', 'check_log_cdf')
    test_survival_cpu, test_survival_gpu = _target_tests('survival', 'check_survival')
    test_log_survival_cpu, test_log_survival_gpu = _target_tests(
        'log_survival', 'check_log_survival'
    )
    test_icdf_cpu, test_icdf_gpu = _target_tests('icdf', 'check_icdf')
    test_sample_cpu, test_sample_gpu = _target_tests('sample', 'check_sample')
