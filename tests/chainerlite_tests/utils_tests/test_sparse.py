"""utils.CooMatrix, to_coo, get_order."""

import numpy
import pytest

from chainerlite import utils


@pytest.mark.parametrize('nbatch', [0, 1, 3])
@pytest.mark.parametrize('ldnz', [None, 12])
def test_to_coo_round_trip(nbatch, ldnz):
    shape = (nbatch, 3, 4) if nbatch else (3, 4)
    x = numpy.random.uniform(0.5, 1, shape).astype(numpy.float32)
    x[x < 0.75] = 0
    sp = utils.to_coo(x, ldnz=ldnz)
    assert sp.data.shape == sp.row.shape == sp.col.shape
    counts = [numpy.count_nonzero(m) for m in x.reshape((-1, 3, 4))]
    assert sp.data.shape[-1] == (max(counts) if ldnz is None else ldnz)
    assert sp.order == 'C' and sp.shape == (3, 4)
    numpy.testing.assert_array_equal(sp.to_dense(), x)


def test_duplicates_add_up_and_padding_is_ignored():
    data = numpy.array([3.0, 0.0, 4.0, -5.0, 9.0], numpy.float32)
    row = numpy.array([0, 0, 1, 0, -1])
    col = numpy.array([0, 1, 2, 0, -1])
    dense = utils.CooMatrix(data, row, col, (2, 3)).to_dense()
    numpy.testing.assert_array_equal(dense, [[-2, 0, 0], [0, 0, 4]])
    batched = utils.CooMatrix(data[None], row[None], col[None], (2, 3))
    numpy.testing.assert_array_equal(batched.to_dense(), dense[None])


def test_get_order():
    r = numpy.array([0, 0, 1, 2])
    c = numpy.array([1, 2, 0, 0])
    assert utils.get_order(r, c) == 'C'
    assert utils.get_order(c, r) == 'F'
    assert utils.get_order(numpy.array([0, 2, 1]), numpy.array([0, 1, 2])) == 'F'
    assert utils.get_order(numpy.array([0, 2, 1]), numpy.array([1, 0, 2])) == 'other'
    diag = numpy.array([0, 1, 2])
    assert utils.get_order(diag, diag) == 'C'


def test_errors():
    with pytest.raises(ValueError, match='same shape'):
        utils.get_order(numpy.zeros(3, int), numpy.zeros(4, int))
    with pytest.raises(ValueError, match='negative'):
        utils.get_order(numpy.array([0, -1]), numpy.array([0, 1]))
    with pytest.raises(ValueError, match='dimensional'):
        utils.to_coo(numpy.ones(3))
    with pytest.raises(ValueError, match='same shape'):
        utils.CooMatrix(numpy.ones(2), numpy.zeros(3, int), numpy.zeros(3, int), (2, 2))
    index = numpy.zeros(2, numpy.int32)
    with pytest.raises(ValueError, match='positive'):
        utils.CooMatrix(numpy.ones(2), index, index, (0, 2))
    with pytest.raises(ValueError, match='order'):
        utils.CooMatrix(numpy.ones(2), index, index, (2, 2), order='c')


def test_ldnz_below_the_nonzeros_counts_them_all():
    # as Chainer: the entry arrays grow to the number of nonzero elements
    sp = utils.to_coo(numpy.ones((2, 2)), ldnz=3)
    assert sp.data.shape == (4,) and sp.row.tolist() == [0, 0, 1, 1]
    batch = utils.to_coo(numpy.stack([numpy.eye(3), numpy.ones((3, 3))]), ldnz=5)
    assert batch.data.shape == (2, 9)
    numpy.testing.assert_array_equal(batch.to_dense()[1], numpy.ones((3, 3)))


@pytest.mark.parametrize('shape', [(2, 3), (2, 2, 3), (0, 2, 3)])
def test_all_zero_matrices(shape):
    x = numpy.zeros(shape, numpy.float32)
    sp = utils.to_coo(x)
    assert sp.data.shape[-1] == 0
    numpy.testing.assert_array_equal(sp.to_dense(), x)
