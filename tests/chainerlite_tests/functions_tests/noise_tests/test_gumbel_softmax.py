import numpy
import pytest

import chainerlite
import chainerlite.functions as F


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_sample_is_a_distribution_of_the_input_dtype(dtype):
    log_pi = numpy.random.uniform(-1, 1, (4, 3)).astype(dtype)
    y = F.gumbel_softmax(log_pi, tau=0.5)
    assert y.dtype == dtype and y.shape == log_pi.shape
    numpy.testing.assert_allclose(y.array.sum(axis=1), 1, rtol=1e-2)


def test_low_temperature_samples_follow_the_probabilities():
    numpy.random.seed(0)
    pi = numpy.array([0.1, 0.6, 0.3])
    log_pi = numpy.tile(numpy.log(pi), (4000, 1))
    y = F.gumbel_softmax(log_pi, tau=1e-3).array
    frequencies = numpy.bincount(y.argmax(axis=1), minlength=3) / len(y)
    numpy.testing.assert_allclose(frequencies, pi, atol=0.03)
    assert numpy.median(y.max(axis=1)) > 0.99


def test_gradient_is_that_of_the_softmax_of_the_noisy_input():
    log_pi = chainerlite.Variable(numpy.random.uniform(-1, 1, (2, 3)))
    y = F.gumbel_softmax(log_pi, tau=2.0, axis=1)
    s = y.array
    gy = numpy.random.uniform(-1, 1, (2, 3))
    y.grad = gy
    y.backward()
    # The noise is a constant: the Jacobian is that of a softmax at 1 / tau.
    expected = s * (gy - (gy * s).sum(axis=1, keepdims=True)) / 2.0
    numpy.testing.assert_allclose(log_pi.grad, expected)


def test_scalar_input_gives_one():
    y = F.gumbel_softmax(numpy.array(0.3, numpy.float32))
    assert y.shape == () and float(y.array) == 1.0
