import numpy
import pytest

import chainerlite
from chainerlite import gradient_check
from chainerlite import initializers
from chainerlite import links
from chainerlite.utils import type_check


def test_forward_matches_reference_and_backward():
    W = numpy.random.uniform(-1, 1, (4, 3, 6))
    b = numpy.random.uniform(-1, 1, (4, 3))
    link = links.Maxout(6, 4, 3, initialW=W, initial_bias=b)
    assert link.linear.W.shape == (12, 6)
    x = numpy.random.uniform(-1, 1, (5, 2, 3))
    y = link(x.astype(numpy.float32))
    expected = (numpy.einsum('ocj,nj->noc', W, x.reshape(5, 6)) + b).max(2)
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-5, atol=1e-5)
    link = links.Maxout(6, 4, 3, initialW=W, initial_bias=b)
    link.to_device('@numpy')
    for p in link.params():
        p.array = p.array.astype(numpy.float64)
    gradient_check.check_backward(
        link,
        (x,),
        numpy.random.uniform(-1, 1, (5, 4)),
        params=(link.linear.W, link.linear.b),
        atol=1e-4,
        rtol=1e-4,
    )


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float64])
def test_initializers_see_maxout_shapes(dtype):
    seen = []

    def init(array):
        seen.append((array.shape, array.dtype))
        array.fill(2)

    with chainerlite.using_config('dtype', dtype):
        link = links.Maxout(
            2, 3, 4, initialW=init, initial_bias=initializers.Constant(1)
        )
    assert seen == [((3, 4, 2), numpy.dtype(dtype))]
    assert link.linear.b.dtype == dtype
    assert (link.linear.W.array == 2).all()
    assert (link.linear.b.array == 1).all()


def test_no_bias():
    link = links.Maxout(2, 3, 4, initial_bias=None)
    assert link.linear.b is None


def test_invalid_arguments():
    with pytest.raises(ValueError, match='initialW'):
        links.Maxout(2, 3, 4, initialW=numpy.zeros((3, 4, 2, 1)))
    with pytest.raises(ValueError, match='initial_bias'):
        links.Maxout(2, 3, 4, initial_bias=numpy.zeros((3, 4, 1)))
    with pytest.raises(type_check.InvalidType):
        links.Maxout(2, 3, 4)(numpy.zeros((10, 7), numpy.float32))
