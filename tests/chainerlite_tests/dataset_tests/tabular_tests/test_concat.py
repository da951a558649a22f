import numpy
import pytest


def _datasets(table, mode=tuple):
    return (
        table(n=5, mode=mode),
        table(n=3, mode=mode, start=100),
        table(n=4, mode=mode, start=200),
    )


@pytest.mark.parametrize(
    'indices',
    [
        None,
        slice(None),
        slice(None, None, -1),
        slice(10, 2, -3),
        slice(1, None, 4),
        slice(6, 7),
        [11, 0, 6, 5, -1, 0],
        [2, 1],
        [],
    ],
)
def test_rows(table, indices):
    datasets = _datasets(table)
    view = datasets[0].concat(*datasets[1:])
    assert len(view) == 12 and view.keys == ('a', 'b', 'c')
    table_data = numpy.hstack([d.data for d in datasets])
    expected = table_data if indices is None else table_data[:, indices]
    out = view.get_examples(indices, (2, 0))
    numpy.testing.assert_equal(out, tuple(expected[[2, 0]]))
    # each dataset is asked once, for its own rows only, or not at all
    for d in datasets:
        assert len(d.requests) <= 1
        for rows, key_indices in d.requests:
            assert key_indices == (2, 0)
            assert rows is None or len(d.data[:, rows][0]) > 0
            assert type(rows) is type(indices)


def test_local_slices(table):
    datasets = _datasets(table)
    datasets[0].concat(*datasets[1:]).get_examples(slice(10, 2, -3), None)
    assert [d.requests for d in datasets] == [
        [(slice(4, 2, -3), None)],
        [(slice(2, None, -3), None)],
        [(slice(2, None, -3), None)],
    ]


def test_one_part_comes_back_unchanged(table):
    a, b, _ = _datasets(table)
    out = a.concat(b).get_examples([6, 5], None)
    assert all(isinstance(column, numpy.ndarray) for column in out)
    out = a.concat(b).get_examples([4, 5], None)
    assert all(isinstance(column, list) for column in out)


def test_mode_and_convert_of_the_first(table):
    a, b, _ = _datasets(table, mode=dict)
    view = a.concat(b)
    assert view.mode is dict
    assert isinstance(view.convert(view.fetch())['a'], numpy.ndarray)


@pytest.mark.parametrize('keys', [('a', 'b'), ('a', 'c', 'b')])
def test_different_keys(table, keys):
    with pytest.raises(ValueError, match='concat'):
        table().concat(table(keys=keys))
