"""F.arctanh, the erf family and the normal CDF family against math.erf."""

import math
import unittest

import numpy
import pytest

import chainerlite.functions as F
from chainerlite import testing
from chainerlite.utils import type_check

try:
    import scipy  # NOQA

    _have_scipy = True
except ImportError:
    _have_scipy = False


def _elementwise(f):
    return numpy.vectorize(f, otypes=[numpy.float64])


def _inverse(f, lo, hi):
    """Inverse of the increasing scalar ``f`` on ``[lo, hi]`` by bisection."""

    def solve(y):
        a, b = lo, hi
        for _ in range(80):
            m = 0.5 * (a + b)
            if f(m) < y:
                a = m
            else:
                b = m
        return 0.5 * (a + b)

    return _elementwise(solve)


def _ndtr(x):
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


_erfinv = _inverse(math.erf, -6, 6)


# name: (function, reference, input range, needs SciPy)
FUNCTIONS = {
    'arctanh': (F.arctanh, numpy.arctanh, (-0.9, 0.9), False),
    'erfc': (F.erfc, _elementwise(lambda x: 1.0 - math.erf(x)), (-2, 2), False),
    'ndtr': (F.ndtr, _elementwise(_ndtr), (-3, 3), False),
    'erfcx': (
        F.erfcx,
        _elementwise(lambda x: math.exp(x * x) * (1.0 - math.erf(x))),
        (-2, 2),
        True,
    ),
    'log_ndtr': (F.log_ndtr, _elementwise(lambda x: math.log(_ndtr(x))), (-3, 3), True),
    'ndtri': (F.ndtri, _inverse(_ndtr, -10, 10), (0.1, 0.9), True),
    'erfinv': (F.erfinv, _erfinv, (-0.9, 0.9), True),
    'erfcinv': (F.erfcinv, lambda x: _erfinv(1.0 - x), (0.1, 1.9), True),
}


@testing.parameterize(
    *testing.product(
        {
            'name': sorted(FUNCTIONS),
            'shape': [(), (3, 2)],
            'dtype': [numpy.float32, numpy.float64],
        }
    )
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestErrorFunctions(testing.FunctionTestCase):
    def setUp(self):
        self.function, self.reference, self.bounds, needs_scipy = FUNCTIONS[self.name]
        if needs_scipy and not _have_scipy:
            raise unittest.SkipTest('needs SciPy')
        if self.dtype == numpy.float32:
            self.check_forward_options = {'atol': 1e-5, 'rtol': 1e-5}
        self.check_backward_options = {
            'dtype': numpy.float64,
            'atol': 1e-4,
            'rtol': 1e-3,
        }
        self.check_double_backward_options = {
            'dtype': numpy.float64,
            'atol': 1e-3,
            'rtol': 1e-2,
        }

    def generate_inputs(self):
        x = numpy.random.uniform(*self.bounds, size=self.shape)
        return (x.astype(self.dtype),)

    def forward(self, inputs, device):
        (x,) = inputs
        return (self.function(x),)

    def forward_expected(self, inputs):
        (x,) = inputs
        return (self.reference(x.astype(numpy.float64)).astype(x.dtype),)


@pytest.mark.parametrize('name', sorted(FUNCTIONS))
def test_integer_input_is_invalid(name):
    # the message names the node: Chainer's labels, 'Arctanh' or 'erf'
    with pytest.raises(type_check.InvalidType, match='(?i)' + name):
        FUNCTIONS[name][0](numpy.arange(3, dtype=numpy.int32))


@pytest.mark.skipif(_have_scipy, reason='SciPy is installed')
@pytest.mark.parametrize('name', sorted(n for n, spec in FUNCTIONS.items() if spec[3]))
def test_needs_scipy_on_the_cpu(name):
    with pytest.raises(ImportError, match=name):
        FUNCTIONS[name][0](numpy.full((2,), 0.5, numpy.float32))


def test_tails_keep_their_relative_accuracy():
    x = numpy.array([10.0, -10.0])
    numpy.testing.assert_allclose(
        F.erfc(x).array, [2.088487583762545e-45, 2.0], rtol=1e-14
    )
    numpy.testing.assert_allclose(
        F.ndtr(x).array, [1.0, 7.619853024160527e-24], rtol=1e-14
    )
