import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import gradient_check
from chainerlite import links


def _reference(x, t, W, samples):
    loss = numpy.empty(len(x))
    for b in range(len(x)):
        scores = W[numpy.concatenate(([t[b]], samples[b]))].dot(x[b])
        p = numpy.exp(scores - numpy.logaddexp.reduce(scores))
        loss[b] = -(numpy.log(p[0]) + numpy.log1p(-p[1:]).sum())
    return loss


@pytest.mark.parametrize('reduce', ['mean', 'no'])
def test_forward_and_backward(reduce):
    x = numpy.random.uniform(-1, 1, (5, 4))
    W = numpy.random.uniform(-1, 1, (3, 4))
    t = numpy.random.randint(3, size=5).astype(numpy.int32)
    samples = numpy.random.randint(3, size=(5, 2)).astype(numpy.int32)
    y = F.black_out(x, t, W, samples, reduce)
    expected = _reference(x, t, W, samples)
    if reduce == 'mean':
        expected = expected.mean()
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-10)
    gy = numpy.random.uniform(-1, 1, y.shape)

    def f(x, W):
        return F.black_out(x, t, W, samples, reduce)

    gradient_check.check_backward(f, (x, W), gy, atol=1e-6, rtol=1e-6)


def test_invalid_reduce():
    with pytest.raises(ValueError, match='reduce'):
        F.black_out(
            numpy.zeros((1, 1)),
            numpy.zeros(1, 'i'),
            numpy.zeros((1, 1)),
            numpy.zeros((1, 1), 'i'),
            'sum',
        )


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float64])
def test_link_uses_sample_data(dtype):
    with chainerlite.using_config('dtype', dtype):
        link = links.BlackOut(4, [3, 2, 1], 7)
    assert link.W.dtype == dtype
    x = numpy.random.uniform(-1, 1, (5, 4)).astype(dtype)
    t = numpy.random.randint(3, size=5).astype(numpy.int32)
    link.sample_data = link.sampler.sample((5, 7))
    y = link(x, t)
    expected = _reference(
        x.astype(numpy.float64), t, link.W.array.astype(numpy.float64), link.sample_data
    ).mean()
    tol = 1e-2 if dtype == numpy.float16 else 1e-8
    numpy.testing.assert_allclose(y.array, expected, rtol=tol)
