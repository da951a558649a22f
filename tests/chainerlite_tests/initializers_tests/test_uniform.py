import numpy

from chainerlite import initializers


def test_uniform_range():
    array = numpy.empty((100, 100), numpy.float32)
    initializers.Uniform(scale=0.3)(array)
    assert array.min() >= -0.3
    assert array.max() <= 0.3
    assert array.min() < -0.25 and array.max() > 0.25


def test_rng_makes_draws_reproducible():
    a = numpy.empty(5)
    b = numpy.empty(5)
    initializers.Uniform(rng=numpy.random.RandomState(3))(a)
    initializers.Uniform(rng=numpy.random.RandomState(3))(b)
    numpy.testing.assert_array_equal(a, b)
