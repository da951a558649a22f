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


class distribution_unittest(unittest.TestCase):
    """Checks ``self.dist`` against ``self.scipy_dist``.

    A subclass defines ``setUp_configure``, which sets ``dist``,
    ``scipy_dist``, ``params``, ``scipy_params``, ``test_targets`` (the names
    of the properties and methods to compare) and, when ``'sample'`` or a
    method taking a value is tested, ``sample_for_test()``.  Optional
    attributes: ``options`` (extra constructor arguments), ``support``,
    ``continuous`` (``True``), ``scipy_onebyone`` (``False``; compare each
    batch element with its own SciPy distribution), ``event_shape``
    (``()``), ``is_variable`` (``False``).
    """

    # The base is not a test itself; its subclasses are (pytest).
    __test__ = False
    scipy_onebyone = False

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if '__test__' not in cls.__dict__:
            cls.__test__ = True

    def setUp(self):
        self.support = 'real'
        if not hasattr(self, 'event_shape'):
            self.event_shape = ()
        self.continuous = True
        self.options = {}
        self.setUp_configure()
        self.cpu_dist = self.make_dist(False)
        if cuda.available:
            self.gpu_dist = self.make_dist(True)

    def make_dist(self, is_gpu):
        params = {}
        for key, value in self.params.items():
            if is_gpu:
                value = cuda.to_gpu(value)
            if getattr(self, 'is_variable', False):
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
        out = numpy.empty(
            args[0].shape[: args[0].ndim - len(self.event_shape)]
            if args
            else self.shape
        )
        params = self.scipy_onebyone_params_iter()
        for index, one_params in zip(self._batch_index(), params):
            one = self.scipy_dist(**one_params)
            if args:
                sel = (Ellipsis,) + index + (slice(None),) * len(self.event_shape)
                out[(Ellipsis,) + index] = getattr(one, name)(args[0][sel])
            else:
                out[index] = getattr(one, name)()
        return out

    def _check_property(self, name, scipy_name, is_gpu):
        if name not in self.test_targets:
            self.skipTest('{} is not a test target'.format(name))
        dist = self.gpu_dist if is_gpu else self.cpu_dist
        actual = _as_numpy(getattr(dist, name))
        expected = self._scipy_value(scipy_name)
        array.assert_allclose(actual, expected, rtol=1e-2, atol=1e-2)

    def _check_method(self, name, scipy_name, is_gpu, arg=None):
        if name not in self.test_targets:
            self.skipTest('{} is not a test target'.format(name))
        dist = self.gpu_dist if is_gpu else self.cpu_dist
        if arg is None:
            arg = self.sample_for_test()
        x = cuda.to_gpu(arg) if is_gpu else arg
        actual = _as_numpy(getattr(dist, name)(x))
        expected = self._scipy_value(scipy_name, arg)
        array.assert_allclose(actual, expected, rtol=1e-2, atol=1e-2)

    def _log_prob_name(self):
        return 'logpdf' if self.continuous else 'logpmf'

    def test_batch_shape_cpu(self):
        if 'batch_shape' not in self.test_targets:
            self.skipTest('batch_shape is not a test target')
        self.assertEqual(self.cpu_dist.batch_shape, self.shape)

    def test_event_shape_cpu(self):
        if 'event_shape' not in self.test_targets:
            self.skipTest('event_shape is not a test target')
        self.assertEqual(self.cpu_dist.event_shape, self.event_shape)

    def test_support_cpu(self):
        if 'support' not in self.test_targets:
            self.skipTest('support is not a test target')
        self.assertEqual(self.cpu_dist.support, self.support)

    def test_mean_cpu(self):
        self._check_property('mean', 'mean', False)

    def test_variance_cpu(self):
        self._check_property('variance', 'var', False)

    def test_stddev_cpu(self):
        self._check_property('stddev', 'std', False)

    def test_entropy_cpu(self):
        self._check_property('entropy', 'entropy', False)

    def test_log_prob_cpu(self):
        self._check_method('log_prob', self._log_prob_name(), False)

    def test_prob_cpu(self):
        name = 'pdf' if self.continuous else 'pmf'
        self._check_method('prob', name, False)

    def test_cdf_cpu(self):
        self._check_method('cdf', 'cdf', False)

    def test_log_cdf_cpu(self):
        self._check_method('log_cdf', 'logcdf', False)

    def test_survival_function_cpu(self):
        self._check_method('survival_function', 'sf', False)

    def test_log_survival_function_cpu(self):
        self._check_method('log_survival_function', 'logsf', False)

    def test_icdf_cpu(self):
        u = numpy.random.uniform(0.02, 0.98, self.sample_shape + self.shape)
        self._check_method('icdf', 'ppf', False, u.astype(numpy.float32))

    def test_sample_cpu(self):
        if 'sample' not in self.test_targets:
            self.skipTest('sample is not a test target')
        smp = _as_numpy(self.cpu_dist.sample(sample_shape=(100000,)))
        self.assertEqual(smp.shape, (100000,) + self.shape + self.event_shape)
        if 'mean' in self.test_targets:
            expected = _as_numpy(self.cpu_dist.mean)
            array.assert_allclose(smp.mean(axis=0), expected, rtol=3e-2, atol=3e-2)

    @attr.gpu_test_method
    def test_mean_gpu(self):
        self._check_property('mean', 'mean', True)

    @attr.gpu_test_method
    def test_log_prob_gpu(self):
        self._check_method('log_prob', self._log_prob_name(), True)
