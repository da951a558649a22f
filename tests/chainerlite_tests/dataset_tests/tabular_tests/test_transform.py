import numpy
import pytest


def _tuple(a, b, c):
    return a + b, c


def _dict(a, b, c):
    return {'y': c, 'x': a + b}


def _single(a, b, c):
    return a * c


@pytest.mark.parametrize('batch', [False, True])
@pytest.mark.parametrize(
    'func, keys, mode',
    [
        (_tuple, ('x', 'y'), tuple),
        (_dict, ('x', 'y'), dict),
        (_single, 'x', None),
        (_single, ('x',), None),
    ],
)
def test_transform(table, batch, func, keys, mode):
    data = table()
    view = (data.transform_batch if batch else data.transform)(keys, func)
    assert len(view) == 6 and view.mode is mode
    a, b, c = data.data
    expected = (a * c,) if mode is None else (a + b, c)
    out = view.get_examples([4, 1], None)
    numpy.testing.assert_equal(out, tuple(e[[4, 1]] for e in expected))
    assert all(isinstance(column, numpy.ndarray if batch else list) for column in out)
    numpy.testing.assert_equal(
        view.get_examples(slice(2, 4), (len(expected) - 1,)), (expected[-1][2:4],)
    )


def test_examples_are_spread_by_mode(table):
    calls = []
    data = table(keys=('a', 'b'), mode=dict)
    view = data.transform('s', lambda **kw: calls.append(kw) or kw['a'])
    assert view.get_example(2) == 2
    assert calls == [{'a': 2, 'b': 8}]
    view = data.slice[:, 'b'].transform('s', lambda b: -b)
    assert view.fetch() == [-6, -7, -8, -9, -10, -11]


def test_mode_is_learned_once(table):
    forms = iter([(1,), {'x': 1}])
    view = table().transform(('x',), lambda a, b, c: next(forms))
    view.get_examples([0], None)
    with pytest.raises(ValueError, match='dict after a tuple'):
        view.get_examples([0], None)


@pytest.mark.parametrize(
    'keys, out, error',
    [
        (('x', 'y'), {'x': 1}, KeyError),
        (('x', 'y'), 1, IndexError),
        (('x', 'y'), (1,), IndexError),
    ],
)
def test_missing_outputs(table, keys, out, error):
    # the lookup of a key in what the function returned fails as in Chainer
    view = table().transform(keys, lambda a, b, c: out)
    with pytest.raises(error):
        view.fetch()
    # a key that is there reads fine
    assert view.slice[:2, 0].fetch() == [1, 1]
    with pytest.raises(KeyError):
        table().transform(('x',), lambda a, b, c: {'y': 1}).fetch()


@pytest.mark.parametrize('batch', [False, True])
def test_extra_outputs_are_dropped(table, batch):
    data = table(n=2)
    view = (data.transform_batch if batch else data.transform)(
        ('x',), lambda a, b, c: (a, b, c)
    )
    assert list(view.fetch()[0]) == [0, 1]
    view = (data.transform_batch if batch else data.transform)(
        'x', lambda a, b, c: {'x': c, 'y': b}
    )
    assert view.mode is dict and list(view.fetch()['x']) == [4, 5]


def test_mode_reads_the_first_row(table):
    # one key is a tuple of one: the mode is the form the function returns
    rows = []
    view = table(keys=('a',), mode=None).transform(
        's', lambda a: rows.append(a) or {'s': a * 2}
    )
    assert view.mode is dict and rows == [0]
    assert view[3] == {'s': 6}
    view = table(keys=('a',), mode=None).transform('s', lambda a: (a,))
    assert view.mode is tuple and view[1] == (1,)


def test_batch_mode_is_learned_once(table):
    forms = iter([lambda a: (a,), lambda a: a])
    view = table(keys=('a',), mode=None).transform_batch('x', lambda a: next(forms)(a))
    assert list(view.fetch()[0]) == [0, 1, 2, 3, 4, 5]
    with pytest.raises(ValueError, match='single value after a tuple'):
        view.fetch()


def test_batch_length_changed(table):
    view = table().transform_batch(('x',), lambda a, b, c: (a[:-1],))
    with pytest.raises(ValueError, match='5 rows'):
        view.fetch()


def test_convert_of_the_source(table):
    view = (
        table().with_converter(lambda *cs: 'source').transform('x', lambda a, b, c: a)
    )
    assert view.convert(view.fetch()) == 'source'
