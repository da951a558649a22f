import numpy
import pytest


@pytest.mark.parametrize('key_indices', [None, (3, 0, 4), (1, 1), (4,), ()])
def test_columns(table, key_indices):
    a, b = table(n=4), table(n=4, keys=('d', 'e'), start=100)
    view = a.join(b)
    assert len(view) == 4 and view.keys == ('a', 'b', 'c', 'd', 'e')
    expected = numpy.vstack((a.data, b.data))[:, [3, 0]]
    if key_indices is not None:
        expected = expected[list(key_indices)]
    numpy.testing.assert_equal(view.get_examples([3, 0], key_indices), tuple(expected))


@pytest.mark.parametrize(
    'key_indices, requests_a, requests_b',
    [
        (None, [None], [None]),
        ((4, 2, 3), [(2,)], [(1, 0)]),
        ((1,), [(1,)], []),
        ((), [], []),
    ],
)
def test_only_datasets_with_asked_keys_are_read(
    table, key_indices, requests_a, requests_b
):
    a, b = table(n=4), table(n=4, keys=('d', 'e'))
    a.join(b).get_examples(None, key_indices)
    assert [k for _, k in a.requests] == requests_a
    assert [k for _, k in b.requests] == requests_b


@pytest.mark.parametrize(
    'modes, expected',
    [((tuple, dict), tuple), ((None, dict), dict), ((None, None), tuple)],
)
def test_mode(table, modes, expected):
    a = table(keys=('a',), mode=modes[0])
    b = table(keys=('b',), mode=modes[1])
    assert a.join(b).mode is expected


def test_three_datasets_and_convert(table):
    view = table(keys=('a',)).join(table(keys=('b',)), table(keys=('c',)))
    assert view.keys == ('a', 'b', 'c')
    out = view.convert(view.fetch())
    assert all(isinstance(column, numpy.ndarray) for column in out)


def test_different_length(table):
    with pytest.raises(ValueError, match='length'):
        table().join(table(n=5, keys=('d',)))


def test_repeated_key(table):
    with pytest.raises(ValueError, match="'c'"):
        table().join(table(keys=('d', 'c')))
