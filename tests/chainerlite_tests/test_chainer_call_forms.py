"""Calls written for Chainer 7.8.1's signatures bind as they do there (found
by tools/names_check.py): values recorded from Chainer."""

import numpy

import chainerlite.functions as F


def test_mean_is_average():
    # Chainer: F.mean is F.average(x, axis=None, weights=None, keepdims=False)
    x = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    assert F.mean is F.average
    numpy.testing.assert_array_equal(F.mean(x, 1, None, True).array, [[1.0], [4.0]])
    w = numpy.array([1, 0, 1], numpy.float32)
    numpy.testing.assert_array_equal(F.mean(x, 1, w).array, [1.0, 4.0])
    assert F.mean(x).array == 2.5


def test_upsampling_2d_takes_indexes():
    x = numpy.array([[[[3, 1], [4, 2]]]], numpy.float32)
    y, indexes = F.max_pooling_2d(x, 2, return_indices=True)
    out = F.upsampling_2d(y, indexes=indexes, ksize=2, outsize=(2, 2))
    numpy.testing.assert_array_equal(out.array[0, 0], [[0.0, 0.0], [4.0, 0.0]])


def test_sequential_index_start_none():
    import chainerlite

    seq = chainerlite.Sequential(F.relu, F.tanh, F.sigmoid)
    assert seq.index(F.tanh, None) == 1
    assert seq.index(F.sigmoid, None, None) == 2
    # Chainer gives 1 here (the place in layers[1:]; docs/differences.rst)
    assert seq.index(F.sigmoid, 1) == 2


def test_register_kl_takes_chainers_keywords():
    from chainerlite import distribution
    from chainerlite import distributions as D

    class MyNormal(D.Normal):
        pass

    @distribution.register_kl(Dist1=MyNormal, Dist2=MyNormal)
    def _kl(p, q):
        return 'mine'

    p = MyNormal(numpy.zeros(2, numpy.float32), numpy.ones(2, numpy.float32))
    assert distribution.kl_divergence(p, p) == 'mine'


def test_set_state_by_chainers_keywords():
    import pytest

    import chainerlite

    lstm = chainerlite.links.LSTM(2, 3)
    c = chainerlite.Variable(numpy.zeros((1, 3), numpy.float32))
    h = chainerlite.Variable(numpy.ones((1, 3), numpy.float32))
    lstm.set_state(h=h, c=c)  # Chainer: set_state(self, c, h)
    assert lstm.c is c and lstm.h is h
    lstm.set_state(h, h=c)
    with pytest.raises(TypeError, match="repeated keyword 'h'"):
        lstm.set_state(c, h, h=h)
    with pytest.raises(TypeError, match="unexpected keyword 'x'"):
        lstm.set_state(c, x=h)
    with pytest.raises(TypeError, match=r'takes 2 states \(c, h\), not 1'):
        lstm.set_state(c)
    gru = chainerlite.links.StatefulGRU(2, 3)
    gru.set_state(h=h)
    assert gru.h is h
