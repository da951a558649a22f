"""F.zeta (the Hurwitz zeta function, gradient to q) against a series
written here, and its first and second derivatives checked numerically.
SciPy computes the forward on the CPU; without it see
test_polygamma_zeta.py."""

import numpy
import pytest

import chainerlite.functions as F
from chainerlite import testing

pytest.importorskip('scipy.special')


def _hurwitz_zeta(x, q, terms=200):
    # Euler-Maclaurin: sum of the first terms, then the integral of the tail
    # and two correction terms (error far below float64's for these x, q)
    x, q = numpy.broadcast_arrays(x, q)
    k = numpy.arange(terms).reshape((terms,) + (1,) * q.ndim)
    head = ((k + q) ** -x).sum(axis=0)
    n = terms + q
    tail = n ** (1 - x) / (x - 1) + n**-x / 2 + x * n ** (-x - 1) / 12
    tail -= x * (x + 1) * (x + 2) * n ** (-x - 3) / 720
    return head + tail


def test_reference_series_is_exact_at_known_values():
    # zeta(2, 1) = pi^2 / 6 and zeta(4, 1) = pi^4 / 90
    got = _hurwitz_zeta(numpy.array([2.0, 4.0]), numpy.array([1.0, 1.0]))
    numpy.testing.assert_allclose(got, [numpy.pi**2 / 6, numpy.pi**4 / 90], rtol=1e-13)


@testing.parameterize(*testing.product({'dtype': [numpy.float32, numpy.float64]}))
@testing.inject_backend_tests(None, [{}])
class TestZeta(testing.FunctionTestCase):
    def setUp(self):
        rng = numpy.random.RandomState(0)
        self.x = rng.uniform(2.5, 4.5, (3, 4)).astype(self.dtype)
        if self.dtype == numpy.float32:
            self.check_forward_options = {'rtol': 1e-5, 'atol': 1e-6}
        self.check_backward_options = {'dtype': numpy.float64, 'rtol': 1e-4}
        self.check_double_backward_options = {'dtype': numpy.float64, 'rtol': 1e-4}

    def generate_inputs(self):
        q = numpy.random.RandomState(1).uniform(0.5, 3.0, (3, 4))
        return (q.astype(self.dtype),)

    def forward(self, inputs, device):
        return (F.zeta(self.x, inputs[0]),)

    def forward_expected(self, inputs):
        (q,) = inputs
        return (_hurwitz_zeta(self.x.astype(numpy.float64), q).astype(self.dtype),)


def test_zeta_rejects_integer_q():
    from chainerlite.utils import type_check

    with pytest.raises(type_check.InvalidType, match='zeta'):
        F.zeta(numpy.full(3, 2.0), numpy.ones(3, numpy.int32))
