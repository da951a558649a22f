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
    # the batch's projection enters the average scaled by m / (m - 1)
    numpy.testing.assert_allclose(
        link.avg_projection, 0.5 * numpy.eye(2) + 0.5 * (20 / 19) * projection
    )
    with chainerlite.using_config('train', False):
        y = link(x)
    centered = x.reshape(20, 2, 2) - link.avg_mean
    numpy.testing.assert_allclose(
        y.array.reshape(20, 2, 2),
        numpy.einsum('gij,bgj->bgi', link.avg_projection, centered),
    )


def test_groups_not_dividing_size_builds_and_the_call_raises():
    # as in Chainer 7.8.1: 6 // 4 channels per group, no input accepted
    link = links.DecorrelatedBatchNormalization(6, groups=4)
    assert link.avg_mean.shape == (4, 1)
    assert link.avg_projection.shape == (4, 1, 1)
    x = numpy.ones((3, 6), numpy.float32)
    with pytest.raises(chainerlite.utils.type_check.InvalidType, match='% 4'):
        link(x)
    with chainerlite.using_config('train', False):
        with pytest.raises(ValueError, match='groups'):
            link(x)
    assert link.avg_mean.tolist() == [[0.0]] * 4


@pytest.mark.parametrize(
    'groups, error',
    [(0, ZeroDivisionError), (-2, ValueError), (2.0, TypeError), (None, TypeError)],
)
def test_rejects_groups_not_a_positive_int(groups, error):
    with pytest.raises(error, match='DecorrelatedBatchNormalization: groups') as info:
        links.DecorrelatedBatchNormalization(4, groups=groups)
    assert isinstance(info.value, ValueError)


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


def test_statistics_dtype_under_config_dtypes():
    # config.dtype when dtype is None; mixed16 keeps them in float32 as
    # BatchNormalization's (the config's 'mixed16' is no NumPy dtype: the
    # constructor failed); an explicit dtype wins
    for config, expected in (
        (numpy.float64, numpy.float64),
        (chainerlite.mixed16, numpy.float32),
    ):
        with chainerlite.using_config('dtype', config):
            link = links.DecorrelatedBatchNormalization(4, groups=2)
            assert link.avg_mean.dtype == expected
            assert link.avg_projection.dtype == expected
            explicit = links.DecorrelatedBatchNormalization(
                4, groups=2, dtype=numpy.float32
            )
            assert explicit.avg_mean.dtype == numpy.float32
