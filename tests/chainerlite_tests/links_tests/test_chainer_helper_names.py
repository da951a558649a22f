"""Helpers of Chainer 7.8.1's link modules that code built on Chainer
reaches: n_step_rnn's permutate_list, argsort_list_descent,
NStepRNNBase.init_hx and rnn, and decorrelated_batch_normalization's
fix_avg_mean and fix_avg_projection (values recorded with Chainer 7.8.1)."""

import warnings

import numpy as np
import pytest

import chainerlite
from chainerlite.links.normalization import decorrelated_batch_normalization as dbn
from chainerlite.links.rnn import n_step_rnn


def test_permutate_list_and_its_inverse():
    assert n_step_rnn.permutate_list(['a', 'b', 'c'], [2, 0, 1], False) == [
        'c',
        'a',
        'b',
    ]
    assert n_step_rnn.permutate_list(['c', 'a', 'b'], [2, 0, 1], True) == [
        'a',
        'b',
        'c',
    ]


def test_argsort_list_descent_orders_by_length():
    order = n_step_rnn.argsort_list_descent([[1], [1, 2, 3], [], [1, 2]])
    assert order.dtype == np.int32 and order.tolist() == [1, 3, 0, 2]


@pytest.mark.parametrize(
    'link, dtype, shape',
    [
        (chainerlite.links.NStepLSTM(2, 3, 4, 0.0), np.float32, (2, 2, 4)),
        (chainerlite.links.NStepBiGRU(1, 3, 4, 0.0), np.float64, (2, 2, 4)),
    ],
)
def test_init_hx_is_zeros_of_chainers_shape(link, dtype, shape):
    hx = link.init_hx([np.zeros((5, 3), dtype), np.zeros((2, 3), dtype)])
    assert isinstance(hx, chainerlite.Variable)
    assert hx.shape == shape and hx.dtype == dtype and not hx.array.any()


def test_init_hx_gives_the_missing_states():
    class Ones(chainerlite.links.NStepGRU):
        def init_hx(self, xs):
            hx = super().init_hx(xs)
            return chainerlite.Variable(hx.array + 1)

    xs = [np.ones((2, 3), np.float32)]
    zeros = chainerlite.links.NStepGRU(1, 3, 4, 0.0)
    ones = Ones(1, 3, 4, 0.0)
    ones.copyparams(zeros)
    hy_zero, _ = zeros(None, xs)
    hy_one, _ = ones(None, xs)
    hy_given, _ = zeros(np.ones((1, 1, 4), np.float32), xs)
    np.testing.assert_array_equal(hy_one.array, hy_given.array)
    assert not np.array_equal(hy_one.array, hy_zero.array)


def test_base_rnn_is_abstract():
    class NoRNN(n_step_rnn.NStepRNNBase):
        n_weights = 2

    with pytest.raises(NotImplementedError, match='NoRNN.rnn'):
        NoRNN(1, 2, 2, 0.0).rnn()


def test_fix_avg_mean_and_projection():
    mean = np.arange(6.0).reshape(2, 3)
    assert dbn.fix_avg_mean(mean, 2) is mean
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        fixed = dbn.fix_avg_mean(np.arange(3.0), 2)
        assert fixed.shape == (2, 3) and len(caught) == 1
        assert dbn.fix_avg_mean(np.arange(3.0), 1).shape == (1, 3)
        assert len(caught) == 1
    np.testing.assert_array_equal(fixed, [[0, 1, 2], [0, 1, 2]])
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        assert dbn.fix_avg_projection(np.eye(3), 4).shape == (4, 3, 3)
    with pytest.raises(ValueError, match='avg_projection'):
        dbn.fix_avg_projection(np.zeros(3), 2)
    with pytest.raises(ValueError, match='avg_mean'):
        dbn.fix_avg_mean(np.zeros((1, 1, 1)), 2)
