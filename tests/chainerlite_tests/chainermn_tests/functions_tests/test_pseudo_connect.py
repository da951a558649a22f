import numpy
import pytest

import chainerlite
from chainerlite import gradient_check
from chainerlite.chainermn import functions


@pytest.mark.parametrize('shapes', [[(3, 2)], [(4, 5), ()]])
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_pseudo_connect(shapes, dtype):
    delegate = numpy.random.uniform(-1, 1, (2,)).astype(dtype)
    xs = tuple(numpy.random.uniform(-1, 1, s).astype(dtype) for s in shapes)
    ys = functions.pseudo_connect(chainerlite.Variable(delegate), *xs)
    assert isinstance(ys, tuple) and len(ys) == len(xs)
    for x, y in zip(xs, ys):
        assert y.dtype == dtype
        numpy.testing.assert_array_equal(y.array, x)
    gys = tuple(numpy.random.uniform(-1, 1, s).astype(dtype) for s in shapes)
    gradient_check.check_backward(
        functions.pseudo_connect, (delegate,) + xs, gys, dtype=numpy.float64
    )


def test_pseudo_connect_needs_an_actual_variable():
    with pytest.raises(ValueError, match='pseudo_connect'):
        functions.pseudo_connect(chainerlite.Variable(numpy.zeros(1)))
