"""The kernels take an array whose dtype is an equal copy of NumPy's own
object (what an unpickled array carries on NumPy 1.26) as they take the
original, and still decline a byte-swapped dtype or one with metadata."""

import pickle

import numpy
import pytest

from chainerlite._kernels import norm as norm_kernels
from chainerlite._kernels import optim as optim_kernels
from chainerlite._kernels import relu as relu_kernels


def _copied(a):
    out = a.view(numpy.dtype(a.dtype.str, copy=True))
    assert out.dtype is not a.dtype and out.dtype == a.dtype
    return out


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_sgd_takes_a_copied_dtype(dtype):
    rng = numpy.random.RandomState(0)
    p, g = rng.randn(2, 5).astype(dtype)
    want = p.copy()
    assert optim_kernels.sgd(want, g, 0.1) is want
    got = _copied(p.copy())
    assert optim_kernels.sgd(got, _copied(g.copy()), 0.1) is got
    numpy.testing.assert_array_equal(got, want)


def test_an_unpickled_parameter_is_taken():
    p = pickle.loads(pickle.dumps(numpy.arange(4, dtype=numpy.float32)))
    assert optim_kernels.sgd(p, numpy.ones(4, numpy.float32), 0.5) is p
    numpy.testing.assert_array_equal(p, [-0.5, 0.5, 1.5, 2.5])


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_relu_and_softmax_take_a_copied_dtype(dtype):
    x = numpy.random.RandomState(1).randn(3, 7).astype(dtype)
    numpy.testing.assert_array_equal(
        relu_kernels.relu(_copied(x)), relu_kernels.relu(x)
    )
    want = norm_kernels.softmax(x, 1, False)
    assert want is not None
    numpy.testing.assert_array_equal(norm_kernels.softmax(_copied(x), 1, False), want)


def test_byte_swapped_and_metadata_dtypes_are_still_declined():
    g = numpy.ones(3, numpy.float32)
    swapped = numpy.ones(3, numpy.dtype(numpy.float32).newbyteorder())
    tagged = numpy.ones(3, numpy.dtype(numpy.float32, metadata={'unit': 'm'}))
    assert optim_kernels.sgd(swapped, swapped.copy(), 0.1) is None
    assert optim_kernels.sgd(tagged, g, 0.1) is None
