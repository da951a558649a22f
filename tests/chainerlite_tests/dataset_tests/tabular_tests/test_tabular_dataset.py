import numpy
import pytest

from chainerlite import dataset
from chainerlite.dataset.tabular import tabular_dataset


def test_alias_and_base():
    assert dataset.TabularDataset is tabular_dataset.TabularDataset
    assert issubclass(dataset.TabularDataset, dataset.DatasetMixin)


@pytest.mark.parametrize(
    'mode, expected',
    [(tuple, ([0, 1, 2], [3, 4, 5])), (dict, {'a': [0, 1, 2], 'b': [3, 4, 5]})],
)
def test_fetch_and_convert(table, mode, expected):
    data = table(n=3, keys=('a', 'b'), mode=mode)
    fetched = data.fetch()
    numpy.testing.assert_equal(fetched, expected)
    assert data.requests == [(None, None)]
    converted = data.convert(
        {k: list(v) for k, v in fetched.items()}
        if mode is dict
        else tuple(list(v) for v in fetched)
    )
    numpy.testing.assert_equal(converted, expected)
    values = converted.values() if mode is dict else converted
    assert all(isinstance(v, numpy.ndarray) for v in values)


def test_mode_none_gives_the_column(table):
    data = table(n=3, keys=('a',), mode=None)
    numpy.testing.assert_equal(data.fetch(), [0, 1, 2])
    assert data.get_example(1) == 1
    assert isinstance(data.convert([1, 2]), numpy.ndarray)


def test_get_example_reads_one_row(table):
    data = table(mode=dict)
    assert data.get_example(4) == {'a': 4, 'b': 10, 'c': 16}
    assert data.requests == [([4], None)]


@pytest.mark.parametrize(
    'index, rows',
    [(slice(1, None, 2), [1, 3, 5]), ([5, 0], [5, 0]), (numpy.array([2, 2]), [2, 2])],
)
def test_getitem_reads_rows_at_once(table, index, rows):
    data = table()
    assert data[index] == [(r, 6 + r, 12 + r) for r in rows]
    assert data.requests == [(rows, None)]


def test_getitem_int_and_iteration(table):
    data = table(n=3, keys=('a', 'b'))
    assert data[2] == (2, 5)
    assert list(data) == [(0, 3), (1, 4), (2, 5)]


def test_abstract_methods_raise():
    base = tabular_dataset.TabularDataset()
    with pytest.raises(NotImplementedError):
        len(base)
    with pytest.raises(NotImplementedError):
        base.keys
    with pytest.raises(NotImplementedError):
        base.get_examples(None, None)


def test_unknown_mode_is_rejected():
    with pytest.raises(ValueError, match='mode'):
        tabular_dataset.format_example(list, ('a',), [1])
