import numpy
import pytest

import chainerlite
from chainerlite import links


@pytest.mark.parametrize('reduce', ['sum', 'no'])
def test_loss_matches_reference(reduce):
    link = links.NegativeSampling(3, [10, 5, 2, 5, 2], 2)
    assert (link.W.array == 0).all() and link.W.shape == (5, 3)
    link.W.array[...] = numpy.random.uniform(-1, 1, link.W.shape)
    x = numpy.random.uniform(-1, 1, (3, 3)).astype(numpy.float32)
    t = numpy.array([0, -1, 4], numpy.int32)
    y, samples = link(x, t, reduce=reduce, return_samples=True)
    assert samples.shape == (3, 3) and samples.dtype == numpy.int32
    expected = numpy.zeros(3)
    for i in (0, 2):
        f = link.W.array[samples[i]].dot(x[i])
        f[0] *= -1
        expected[i] = numpy.logaddexp(f, 0).sum()
    if reduce == 'sum':
        expected = expected.sum()
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-5)


def test_sampler_follows_powered_counts_and_device():
    link = links.NegativeSampling(2, [1, 0, 16], 4, power=0.5)
    drawn = link.sampler.sample((4000,))
    assert not (drawn == 1).any()
    assert abs((drawn == 2).mean() - 0.8) < 0.05
    link.to_device('@numpy')
    assert link.sampler.device == chainerlite.backend.CpuDevice()


def test_dtype_follows_config():
    with chainerlite.using_config('dtype', numpy.float16):
        link = links.NegativeSampling(2, [1, 2], 1)
    assert link.W.dtype == numpy.float16
