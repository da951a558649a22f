"""Arrays of NumPy subclasses entering the graph.

``numpy.matrix`` redefines ``*`` and ``**`` as matrix products and keeps
every result 2-D, and a masked array's mask means nothing to the functions;
used as they are, both give wrong numbers without an error. A Variable (and
a function given raw arrays) should hold a plain ``numpy.ndarray`` view of
a subclass array (same memory, dtype and shape) and refuse a masked array.
"""

import numpy
import pytest

import chainerlite
import chainerlite.functions as F

# numpy.matrix warns that it is not recommended, which is the point here
pytestmark = pytest.mark.filterwarnings('ignore::PendingDeprecationWarning')


def _matrix():
    return numpy.matrix([[1.0, 2.0], [3.0, 4.0]], numpy.float32)


def test_variable_holds_a_plain_view_of_a_matrix():
    m = _matrix()
    v = chainerlite.Variable(m)
    assert type(v.array) is numpy.ndarray
    assert v.dtype == numpy.float32 and v.shape == (2, 2)
    assert numpy.shares_memory(v.array, m)


def test_masked_array_is_refused():
    masked = numpy.ma.masked_array(
        numpy.ones(3, numpy.float32), mask=[False, True, False]
    )
    with pytest.raises(TypeError, match='masked'):
        chainerlite.Variable(masked)


@pytest.mark.parametrize(
    'func',
    [
        lambda x: x * x,
        lambda x: x**2,
        lambda x: F.reshape(x, (4,)),
        lambda x: F.flatten(x),
        lambda x: F.get_item(x, 0),
        lambda x: F.sum(x, axis=0),
        lambda x: F.dropout(x, 0.0),
    ],
)
def test_functions_treat_a_matrix_as_an_array(func):
    expected = func(chainerlite.Variable(numpy.asarray(_matrix())))
    got = func(chainerlite.Variable(_matrix()))
    assert type(got.array) is numpy.ndarray
    numpy.testing.assert_array_equal(got.array, expected.array)


@pytest.mark.parametrize(
    'func', [lambda x: F.matmul(x, x), lambda x: F.linear(x, x), lambda x: F.tanh(x)]
)
def test_matrix_products_and_elementwise_functions_agree(func):
    expected = func(numpy.asarray(_matrix()))
    numpy.testing.assert_allclose(numpy.asarray(func(_matrix()).array), expected.array)


def test_memmap_data_is_used(tmp_path):
    path = tmp_path / 'x.npy'
    numpy.save(path, numpy.arange(6, dtype=numpy.float32).reshape(2, 3))
    x = chainerlite.Variable(numpy.load(path, mmap_mode='r'))
    y = F.sum(x * x)
    y.backward()
    assert float(y.array) == 55.0
    numpy.testing.assert_array_equal(x.grad, 2 * numpy.load(path))
