import numpy
import pytest

from chainerlite.dataset import tabular


def test_array_and_list_columns():
    data = tabular.from_data((numpy.arange(4), ('b', [5, 6, 7, 8])))
    assert len(data) == 4 and data.mode is tuple and data.keys[1] == 'b'
    a, b = data.slice[[3, 0]].fetch()
    numpy.testing.assert_equal(a, [3, 0])
    assert isinstance(a, numpy.ndarray)
    assert b == [8, 5]
    assert data[1:3] == [(1, 6), (2, 7)]


def test_single_columns_are_mode_none():
    assert tabular.from_data([4, 5, 6]).fetch() == [4, 5, 6]
    data = tabular.from_data(('a', lambda i: i + 10), size=3)
    assert data.keys == ('a',) and data.mode is None
    assert data.fetch() == [10, 11, 12]


@pytest.mark.parametrize(
    'func, mode', [(lambda i: (i, -i), tuple), (lambda i: {'b': -i, 'a': i}, dict)]
)
def test_callable_with_keys(func, mode):
    data = tabular.from_data((('a', 'b'), func), size=3)
    assert data.keys == ('a', 'b') and data.mode is mode
    assert data.slice[::2, ('b',)].fetch() == (
        {'b': [0, -2]} if mode is dict else ([0, -2],)
    )


def test_dict():
    data = tabular.from_data({'a': [1, 2], ('b', 'c'): lambda i: (i, 2 * i)})
    assert data.mode is dict and set(data.keys) == {'a', 'b', 'c'}
    assert data[1] == {'a': 2, 'b': 1, 'c': 2}


def test_generated_keys_are_unique():
    assert tabular.from_data([1]).keys != tabular.from_data([1]).keys


@pytest.mark.parametrize(
    'data, kwargs, match',
    [
        (lambda i: i, {'size': 2}, 'key'),
        ((lambda i: i, [1, 2]), {}, 'key'),
        (('a', lambda i: i), {}, 'size'),
        ({'a': lambda i: i}, {}, 'size'),
        (([1, 2], [1, 2, 3]), {}, 'length'),
        (([1, 2], ('f', lambda i: i)), {'size': 3}, 'length'),
    ],
)
def test_invalid(data, kwargs, match):
    with pytest.raises(ValueError, match=match):
        tabular.from_data(data, **kwargs)


def test_size_counts_the_rows_of_callables_only():
    # a list or an array keeps its own length whatever size says (Chainer's
    # from_data hands size to the callables alone)
    assert len(tabular.from_data([1, 2], size=3)) == 2
    data = tabular.from_data((numpy.zeros(2), ('f', lambda i: i * 5)), size=2)
    assert data.fetch()[1] == [0, 5]
    # without size, the first list or array gives it
    assert tabular.from_data({'f': lambda i: -i, 'a': [7, 8, 9]})[2] == {
        'f': -2,
        'a': 9,
    }


@pytest.mark.parametrize('data', [(), {}])
def test_no_columns(data):
    with pytest.raises(IndexError, match='no columns'):
        tabular.from_data(data)


@pytest.mark.parametrize('data', [3, ('a', 3), ([1], 'x')])
def test_not_columns(data):
    with pytest.raises(TypeError, match='from_data'):
        tabular.from_data(data)
