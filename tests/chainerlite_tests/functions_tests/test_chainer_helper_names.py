"""Constants and small helpers of Chainer 7.8.1's function and distribution
modules that code built on Chainer imports (values recorded with Chainer
7.8.1)."""

import numpy as np
import pytest

import chainerlite.functions as F
from chainerlite.distributions import gumbel
from chainerlite.distributions import log_normal
from chainerlite.distributions import multivariate_normal
from chainerlite.distributions import normal
from chainerlite.functions.activation import crelu
from chainerlite.functions.array import squeeze
from chainerlite.functions.evaluation import classification_summary
from chainerlite.functions.loss import squared_error
from chainerlite.functions.math import einsum
from chainerlite.functions.math import erfcinv
from chainerlite.functions.math import erfcx
from chainerlite.functions.math import erfinv
from chainerlite.functions.math import ndtri
from chainerlite.functions.math import sum as sum_module
from chainerlite.functions.pooling import max_pooling_nd


def test_distribution_constants():
    assert gumbel.EULER == 0.5772156649015329
    assert normal.ENTROPYC == 1.4189385332046727
    assert normal.LOGPROBC == -0.9189385332046727
    assert normal.PROBC == 0.3989422804014327
    assert log_normal.LOGPROBC == -0.9189385332046727
    assert multivariate_normal.ENTROPYC == 1.4189385332046727
    assert multivariate_normal.LOGPROBC == -0.9189385332046727
    loc = np.zeros(3, np.float32)
    scale = np.ones(3, np.float32)
    dist = normal.Normal(loc, scale)
    np.testing.assert_allclose(dist.log_prob(loc).array, [normal.LOGPROBC] * 3)
    np.testing.assert_allclose(dist.entropy.array, [normal.ENTROPYC] * 3)


@pytest.mark.parametrize('module', [erfinv, erfcinv, erfcx, ndtri, multivariate_normal])
def test_available_cpu_tells_whether_the_cpu_forward_runs(module):
    try:
        F.erfinv(np.array([0.5], np.float32))
        runs = True
    except ImportError:
        runs = False
    assert module.available_cpu is runs


def test_erfinv_backward_constant():
    assert erfinv.BACKWORDC == erfcinv.BACKWORDC == 0.8862269254527579


def test_einsum_symbols_name_sublist_subscripts():
    assert einsum.einsum_symbols == (
        'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
    )
    a = np.arange(6.0).reshape(2, 3)
    out = F.einsum(a, [0, 27], [0])
    np.testing.assert_allclose(out.array, a.sum(axis=1))


def test_argone():
    assert squeeze.argone((1, 3, 1, 2)) == [0, 2]
    assert squeeze.argone(()) == []
    with pytest.raises(ValueError, match='int'):
        squeeze.argone((1, np.int64(1)))


def test_crelu_output_shape():
    assert crelu.CReLU(axis=1).get_output_shape((2, 3, 4)) == (2, 6, 4)
    assert crelu.CReLU(axis=-1).get_output_shape((2, 3, 4)) == (2, 3, 8)
    x = np.ones((2, 3, 4), np.float32)
    assert F.crelu(x, axis=2).shape == crelu.CReLU(2).get_output_shape(x.shape)


def test_fbeta_score_matches_chainer():
    y = np.array([[0.1, 0.9], [0.8, 0.2], [0.3, 0.7], [0.6, 0.4]], np.float32)
    t = np.array([1, 0, 0, 1], np.int32)
    score, support = classification_summary.fbeta_score(y, t, beta=2.0)
    assert score.array.tolist() == [0.5, 0.5]
    assert support.array.tolist() == [2, 2]
    y = np.array([[0.1, 0.9], [0.8, 0.2], [0.3, 0.7]], np.float32)
    t = np.array([1, 1, 0], np.int32)
    score, _ = classification_summary.fbeta_score(y, t, beta=2.0)
    np.testing.assert_array_equal(score.array, [np.nan, 0.5])


def test_squared_difference():
    out = squared_error.squared_difference(
        np.array([1.0, 2.0, 3.0], np.float32), np.array([1.0, 0.0, 0.0], np.float32)
    )
    assert out.array.tolist() == [0.0, 4.0, 9.0]


def test_sum_module_has_sum_to():
    x = np.arange(6.0).reshape(2, 3)
    assert sum_module.sum_to(x, (1, 3)).array.tolist() == [[3.0, 5.0, 7.0]]
    assert sum_module.SumTo is type(sum_module.sum_to(x, (3,)).creator)


def test_max_pooling_nd_module_max_pooling_2d():
    x = np.random.rand(1, 2, 4, 4).astype(np.float32)
    np.testing.assert_array_equal(
        max_pooling_nd.max_pooling_2d(x, 2).array, F.max_pooling_2d(x, 2).array
    )
    out, indices = max_pooling_nd.max_pooling_2d(x, 2, return_indices=True)
    assert out.shape == indices.shape == (1, 2, 2, 2)
    with pytest.raises(ValueError, match='max_pooling_2d'):
        max_pooling_nd.max_pooling_2d(np.zeros((1, 1, 2, 2, 2), np.float32), 2)
