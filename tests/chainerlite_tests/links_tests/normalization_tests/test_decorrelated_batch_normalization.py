import os
import tempfile

import numpy
import pytest

import chainerlite
import chainerlite.functions as F
from chainerlite import links
from chainerlite import serializers


def test_train_whitens_and_updates_then_test_uses_statistics():
    link = links.DecorrelatedBatchNormalization(
        4, groups=2, decay=0.5, dtype=numpy.float64
    )
    assert link.avg_projection.shape == (2, 2, 2)
    x = numpy.random.uniform(-1, 1, (20, 4))
    y = link(x)
    expected = F.decorrelated_batch_normalization(x, groups=2)
    numpy.testing.assert_allclose(y.array, expected.array)
    projection = expected.creator.projection
    numpy.testing.assert_allclose(link.avg_mean, 0.5 * x.mean(axis=0).reshape(2, 2))
    numpy.testing.assert_allclose(
        link.avg_projection, 0.5 * numpy.eye(2) + 0.5 * projection
    )
    with chainerlite.using_config('train', False):
        y = link(x)
    centered = x.reshape(20, 2, 2) - link.avg_mean
    numpy.testing.assert_allclose(
        y.array.reshape(20, 2, 2),
        numpy.einsum('gij,bgj->bgi', link.avg_projection, centered),
    )


def test_rejects_groups_not_dividing_size():
    with pytest.raises(ValueError, match='groups') as info:
        links.DecorrelatedBatchNormalization(6, groups=4)
    # Chainer 7.8.1's forward refuses such a link with InvalidType
    assert isinstance(info.value, chainerlite.utils.type_check.InvalidType)


@pytest.mark.parametrize('groups', [1, 2])
def test_loads_statistics_saved_without_group_axis(groups):
    fd, path = tempfile.mkstemp(suffix='.npz')
    os.close(fd)
    try:
        cg = 4 // groups
        mean = numpy.random.uniform(-1, 1, cg).astype(numpy.float32)
        numpy.savez(
            path,
            avg_mean=mean,
            avg_projection=numpy.eye(cg, dtype=numpy.float32) * 2,
            N=numpy.array(3),
        )
        link = links.DecorrelatedBatchNormalization(4, groups=groups)
        if groups == 1:
            serializers.load_npz(path, link)
        else:
            with pytest.warns(UserWarning, match='group axis'):
                serializers.load_npz(path, link)
        numpy.testing.assert_array_equal(link.avg_mean, numpy.tile(mean, (groups, 1)))
        assert (link.avg_projection == 2 * numpy.eye(cg)).all()
        assert link.N == 3
    finally:
        os.remove(path)
