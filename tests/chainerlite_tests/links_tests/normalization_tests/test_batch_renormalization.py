import numpy

import chainerlite
from chainerlite import links


def test_train_updates_statistics_and_test_uses_them():
    link = links.BatchRenormalization(3, rmax=2, dmax=1, decay=0.5)
    x = numpy.random.uniform(-1, 1, (8, 3, 2)).astype(numpy.float32)
    y = link(x)
    axis = (0, 2)
    mean, var = x.mean(axis=axis), x.var(axis=axis)
    std = numpy.sqrt(var + 2e-5)
    r = numpy.clip(std / numpy.sqrt(1 + 2e-5), 0.5, 2)
    d = numpy.clip(mean / numpy.sqrt(1 + 2e-5), -1, 1)
    expected = (x - mean[:, None]) / std[:, None] * r[:, None] + d[:, None]
    numpy.testing.assert_allclose(y.array, expected, atol=1e-5)
    numpy.testing.assert_allclose(link.avg_mean, 0.5 * mean, rtol=1e-5)
    numpy.testing.assert_allclose(link.avg_var, 0.5 + 0.5 * var * 16 / 15, rtol=1e-5)
    with chainerlite.using_config('train', False):
        y = link(x)
    numpy.testing.assert_allclose(
        y.array,
        (x - link.avg_mean[:, None]) / numpy.sqrt(link.avg_var[:, None] + 2e-5),
        atol=1e-5,
    )


def test_finetune_averages_batches():
    link = links.BatchRenormalization(2)
    a = numpy.random.uniform(-1, 1, (10, 2)).astype(numpy.float32)
    b = numpy.random.uniform(-1, 1, (10, 2)).astype(numpy.float32)
    link(a, finetune=True)
    link(b, finetune=True)
    numpy.testing.assert_allclose(link.avg_mean, (a.mean(0) + b.mean(0)) / 2, rtol=1e-5)
    assert link.N == 2
