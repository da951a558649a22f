import pytest


@pytest.mark.parametrize(
    'mode, expected', [(tuple, ((0, 1, 2), {})), (dict, ((), {'a': 0, 'b': 1, 'c': 2}))]
)
def test_converter_gets_the_data_spread(table, mode, expected):
    view = table(n=1, mode=mode).with_converter(lambda *args, **kwargs: (args, kwargs))
    assert view.mode is mode and len(view) == 1
    fetched = view.fetch()
    fetched = (
        {k: v[0] for k, v in fetched.items()}
        if mode is dict
        else tuple(v[0] for v in fetched)
    )
    assert view.convert(fetched) == expected


def test_single_value(table):
    view = table(keys=('a',), mode=None).with_converter(lambda a: a[::-1])
    assert list(view.convert(view.fetch())) == [5, 4, 3, 2, 1, 0]


@pytest.mark.parametrize(
    'data, expected',
    [((1, 2), ((1, 2), {})), ({'k': 1}, ((), {'k': 1})), (3, ((3,), {}))],
)
def test_spread_by_the_form_of_the_data(table, data, expected):
    # whatever the mode, a tuple is spread as arguments, a dict as keywords
    view = table(keys=('a',), mode=None).with_converter(lambda *a, **k: (a, k))
    assert view.convert(data) == expected
    assert view.slice[1:].convert(data) == expected
