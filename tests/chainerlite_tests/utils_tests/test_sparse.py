import numpy
import pytest

from chainerlite import utils


def _sparse_dense(shape, dtype):
    x = numpy.random.uniform(0.5, 1, shape).astype(dtype)
    x[x < 0.75] = 0
    return x


@pytest.mark.parametrize('shape', [(2, 3), (4, 2, 3)])
@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float64])
@pytest.mark.parametrize('ldnz', [None, 6])
def test_to_coo_round_trip(shape, dtype, ldnz):
    x = _sparse_dense(shape, dtype)
    x.reshape(-1, 3)[:, 0] = 1  # at least one non-zero per matrix
    sp = utils.to_coo(x, ldnz=ldnz)
    counts = [numpy.count_nonzero(m) for m in x.reshape((-1,) + shape[-2:])]
    assert sp.data.shape == sp.row.shape == sp.col.shape
    assert sp.data.shape[-1] == (ldnz or max(counts))
    assert sp.shape == shape[-2:] and sp.order == 'C'
    numpy.testing.assert_array_equal(sp.to_dense(), x)
    # Every entry that is not padding is a non-zero element of x.
    rows = sp.row.reshape(-1, sp.row.shape[-1])
    for b, m in enumerate(x.reshape((-1,) + shape[-2:])):
        used = rows[b] >= 0
        assert used.sum() == counts[b]


def test_to_dense_adds_duplicate_entries_and_skips_padding():
    data = numpy.array([3., 0., 4., -5., 7.], numpy.float32)
    row = numpy.array([0, 0, 1, 0, -1])
    col = numpy.array([0, 1, 2, 0, -1])
    dense = utils.CooMatrix(data, row, col, (2, 3)).to_dense()
    numpy.testing.assert_array_equal(dense, [[-2, 0, 0], [0, 0, 4]])


def test_to_coo_rejects_small_ldnz():
    with pytest.raises(ValueError, match='ldnz'):
        utils.to_coo(numpy.ones((2, 2), numpy.float32), ldnz=3)


@pytest.mark.parametrize('row,col,order', [
    ((0, 0, 1, 1, 2), (0, 1, 1, 2, 2), 'C'),
    ((0, 1, 0, 1), (0, 0, 1, 1), 'F'),
    ((0, 2, 4, 1, 3), (1, 3, 0, 2, 4), 'other'),
    ((0, 1, -1), (0, 0, -1), 'C'),
])
def test_get_order(row, col, order):
    assert utils.get_order(numpy.array(row), numpy.array(col)) == order


def test_get_order_of_a_batch_is_the_order_all_matrices_share():
    # The second matrix (one entry) is in both orders, the first only in F.
    row = numpy.array([[1, 0], [0, -1]])
    col = numpy.array([[0, 1], [1, -1]])
    assert utils.get_order(row, col) == 'F'
    assert utils.get_order(numpy.array([[0, 1], [1, 0]]),
                           numpy.array([[0, 0], [0, 0]])) == 'other'


@pytest.mark.parametrize('row,col', [((0, 1), (0, 1, 2)), ((0, -1), (0, 1))])
def test_get_order_rejects_bad_indices(row, col):
    with pytest.raises(ValueError, match='get_order'):
        utils.get_order(numpy.array(row), numpy.array(col))
