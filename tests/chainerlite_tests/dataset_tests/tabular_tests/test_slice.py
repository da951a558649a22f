import numpy
import pytest


@pytest.mark.parametrize(
    'indices',
    [
        slice(None),
        slice(4, None, -2),
        slice(1, 5),
        slice(7, -8, -1),
        [3, -1, 0, 3],
        [numpy.int32(2)],
        [True, False, False, True, True, False],
        numpy.array([1, 4]),
        [],
    ],
)
def test_rows(table, indices):
    data = table()
    view = data.slice[indices]
    expected = data.data[:, indices]
    assert len(view) == expected.shape[1]
    assert view.keys == data.keys and view.mode is tuple
    numpy.testing.assert_equal(view.fetch(), tuple(expected))


@pytest.mark.parametrize('outer', [slice(None, None, -1), slice(1, 6, 2)])
@pytest.mark.parametrize(
    'inner', [slice(None, None, -1), slice(1, None), slice(5, 9), [1, 0]]
)
def test_rows_of_rows(table, outer, inner):
    data = table(n=8)
    view = data.slice[outer]
    out = view.get_examples(inner, None)
    numpy.testing.assert_equal(out, tuple(data.data[:, outer][:, inner]))
    # a slice of a slice reaches the dataset as a slice
    assert isinstance(data.requests[-1][0], type(inner))


@pytest.mark.parametrize(
    'keys, expected_keys, mode',
    [
        ('b', ('b',), None),
        (-1, ('c',), None),
        (('c', 0), ('c', 'a'), tuple),
        ((), (), tuple),
    ],
)
def test_keys(table, keys, expected_keys, mode):
    data = table()
    view = data.slice[[4, 1], keys]
    assert view.keys == expected_keys and view.mode is mode
    rows = [data.data[data.keys.index(k), [4, 1]] for k in expected_keys]
    numpy.testing.assert_equal(view.get_examples(None, None), tuple(rows))
    assert data.requests[-1][1] == tuple(data.keys.index(k) for k in expected_keys)


def test_keys_of_dict_dataset_keep_dict(table):
    view = table(mode=dict).slice[:, ('a',)]
    assert view.mode is dict
    numpy.testing.assert_equal(view.fetch(), {'a': [0, 1, 2, 3, 4, 5]})


def test_keys_of_keys(table):
    data = table()
    view = data.slice[:, ('c', 'a', 'b')].slice[1:3, (2, 0)]
    assert view.keys == ('b', 'c')
    numpy.testing.assert_equal(view.fetch(), ([7, 8], [13, 14]))
    assert data.requests == [(slice(1, 3, 1), (1, 2))]


@pytest.mark.parametrize(
    'args, error',
    [
        ([6], IndexError),
        ([-7], IndexError),
        ([True] * 5, ValueError),
        (slice(None, None, 0), ValueError),
        ((1, 2), TypeError),
        ((slice(None), 'd'), KeyError),
        ((slice(None), 3), IndexError),
        ((slice(None), ('a', -4)), IndexError),
    ],
)
def test_invalid(table, args, error):
    with pytest.raises(error):
        table().slice[args]


@pytest.mark.parametrize(
    'indices, rows',
    [
        (range(1, 4), [1, 2, 3]),
        ((True,) * 6, [0, 1, 2, 3, 4, 5]),
        ([1.0, 4.9], [1, 4]),
        (numpy.array([0.0, 5.0]), [0, 5]),
    ],
)
def test_rows_by_any_sequence(table, indices, rows):
    # as Chainer: any sequence, its numbers taken as int() does
    data = table()
    view = data.slice[indices, None]  # (a tuple alone would be rows and keys)
    numpy.testing.assert_equal(view.fetch(), tuple(data.data[:, rows]))


def test_a_key_that_is_no_position_is_looked_up_by_name(table):
    data = table()
    with pytest.raises(KeyError):
        data.slice[:, ['a']]
    assert data.slice[:, numpy.int64(2)].keys == ('c',)
