import warnings

import numpy
import pytest

from chainerlite import gradient_check
from chainerlite import links


def _uniform(*shape):
    return numpy.random.uniform(-1, 1, shape)


@pytest.mark.parametrize('nobias', [False, True])
def test_forward_and_backward(nobias):
    W, V1, V2, b = _uniform(2, 3, 4), _uniform(2, 4), _uniform(3, 4), _uniform(4)
    link = links.Bilinear(2, 3, 4, nobias, W, None if nobias else (V1, V2, b))
    for p in link.params():
        p.array = p.array.astype(numpy.float64)
    e1, e2 = _uniform(5, 2), _uniform(5, 1, 3)
    y = link(e1, e2)
    expected = numpy.einsum('ij,ik,jkl->il', e1, e2.reshape(5, 3), W)
    if not nobias:
        expected += e1.dot(V1) + e2.reshape(5, 3).dot(V2) + b
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-6)
    gradient_check.check_backward(
        link,
        (e1, e2),
        _uniform(5, 4),
        params=tuple(link.params()),
        atol=1e-5,
        rtol=1e-5,
    )


def test_default_initialization():
    link = links.Bilinear(2, 3, 4)
    assert link.W.shape == (2, 3, 4) and link.V2.shape == (3, 4)
    assert (link.b.array == 0).all()
    assert link.W.dtype == numpy.float32


@pytest.mark.parametrize('index', [0, 1, 2, 3])
def test_invalid_initial_shapes(index):
    arrays = [_uniform(2, 3, 4), _uniform(2, 4), _uniform(3, 4), _uniform(4)]
    arrays[index] = _uniform(*(n + 1 for n in arrays[index].shape))
    with pytest.raises(AssertionError, match='Bilinear'):
        links.Bilinear(2, 3, 4, False, arrays[0], tuple(arrays[1:]))


def test_zero_grads_fills_zeros_and_warns():
    # Chainer 7.8.1's Bilinear.zero_grads: Link.zerograds under its old name
    link = links.Bilinear(2, 3, 4)
    for param in link.params():
        param.grad = numpy.ones_like(param.array)
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter('always')
        link.zero_grads()
    assert any('Link.zerograds is deprecated' in str(w.message) for w in seen)
    for param in link.params():
        assert not param.grad.any()
