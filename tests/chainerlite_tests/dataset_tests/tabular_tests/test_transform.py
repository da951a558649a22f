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
    'keys, out, match',
    [
        (('x',), (1, 2), '2 values'),
        (('x', 'y'), {'x': 1}, 'keys'),
        (('x',), {'y': 1}, 'keys'),
        (('x', 'y'), 1, '1 values'),
    ],
)
def test_wrong_outputs(table, keys, out, match):
    view = table().transform(keys, lambda a, b, c: out)
    with pytest.raises(ValueError, match=match):
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
