"""Tabular datasets: a hand-made table's modes, slices by rows and columns,
fetch and convert, the views (astuple, asdict, concat, join, transform,
with_converter) and from_data; what each refuses and with which error."""

import numpy

from tools.surface_probes import _values

attempt = _values.attempt


def _table(c, mode=tuple, n=5, keys=('a', 'b', 'c'), lists=False, calls=None):
    """A table of ``n`` rows whose column ``k`` holds ``10 * k + row``; its
    get_examples calls are appended to ``calls``."""

    class Table(c.chainer.dataset.TabularDataset):
        def __len__(self):
            return n

        @property
        def keys(self):
            return keys

        @property
        def mode(self):
            return mode

        def get_examples(self, indices, key_indices):
            if calls is not None:
                calls.append([_plain(indices), _plain(key_indices)])
            data = numpy.arange(n)[None] + 10 * numpy.arange(len(keys))[:, None]
            if indices is not None:
                data = data[:, indices]
            if key_indices is not None:
                data = data[list(key_indices)]
            cols = tuple(data)
            return tuple(list(col) for col in cols) if lists else cols

    return Table()


def _plain(value):
    if isinstance(value, slice):
        return ['slice', value.start, value.stop, value.step]
    if value is None:
        return None
    return [int(v) for v in value]


def _view(d):
    """What a table shows: length, keys, mode's name and every row."""
    mode = getattr(d.mode, '__name__', d.mode)
    return [len(d), list(d.keys), mode, [d[i] for i in range(len(d))]]


def modes_and_rows(c):
    return [_view(_table(c, m)) for m in (tuple, dict)] + [
        _view(_table(c, None, keys=('a',)))
    ]


def getitem_forms(c):
    d = _table(c)
    return [
        d[-1],
        d[1:4],
        d[::-2],
        d[[0, 3]],
        d[numpy.array([4, 1])],
        attempt(lambda: d[5]),
        attempt(lambda: d['a']),
        list(iter(d)),
    ]


def fetch_and_convert(c):
    out = []
    for mode, keys in ((tuple, ('a', 'b')), (dict, ('a', 'b')), (None, ('a',))):
        d = _table(c, mode, keys=keys, lists=True)
        fetched = d.fetch()
        converted = d.convert(fetched)
        out.append([fetched, type(fetched).__name__, converted])
    out.append(_table(c).convert(([1, 2], numpy.ones(3, numpy.float32))))
    out.append(_table(c).convert({'a': [1.5], 'b': numpy.zeros((2, 1))}))
    return out


def convert_of_no_rows_or_a_scalar(c):
    d = _table(c)
    return [attempt(lambda: d.convert(5)), attempt(lambda: d.convert(([],)))]


def slice_rows(c):
    d = _table(c)
    out = []
    for rows in (
        slice(1, 4),
        slice(None, None, -1),
        slice(-2, None),
        slice(10, 20),
        [4, 0, 0],
        [-1, -5],
        numpy.array([2, 3]),
        [True, False, True, False, True],
        numpy.array([False] * 4 + [True]),
        [],
    ):
        out.append(_view(d.slice[rows]))
    return out


def slice_keys(c):
    out = []
    for mode in (tuple, dict):
        d = _table(c, mode)
        for keys in (('c', 'a'), (0,), 'b', 1, -1, ('a', 'a'), (), (-3, 'b')):
            out.append(attempt(lambda: _view(d.slice[:, keys])))
        out.append(attempt(lambda: _view(d.slice[[1, 2], 'c'])))
    return out


def slice_errors(c):
    d = _table(c)
    return [
        attempt(lambda: d.slice[[True, False]]),
        attempt(lambda: d.slice[[5]]),
        attempt(lambda: d.slice[[-6]]),
        attempt(lambda: d.slice[:, 'z']),
        attempt(lambda: d.slice[:, 3]),
        attempt(lambda: d.slice[:, -4]),
        attempt(lambda: d.slice[:, ('a', 7)]),
        attempt(lambda: d.slice[3]),
        attempt(lambda: d.slice[None]),
        attempt(lambda: _view(d.slice[:, None])),
    ]


def slice_of_slice(c):
    d = _table(c, n=10)
    out = []
    for first, second in (
        (slice(1, 9), slice(2, None, 2)),
        (slice(None, None, -1), slice(1, 4)),
        (slice(8, 0, -2), slice(None, None, -1)),
        (slice(2, 8), [0, 5, -1]),
        ([9, 1, 4, 2], slice(1, 3)),
        ([9, 1, 4, 2], [3, 0]),
        (slice(0, 10, 3), slice(5, 9)),
    ):
        out.append(_view(d.slice[first].slice[second]))
    out.append(_view(d.slice[2:, ('c', 'a')].slice[1:3, 'a']))
    return out


def slice_reads_what_it_needs(c):
    calls = []
    d = _table(c, calls=calls, n=8)
    view = d.slice[1:7:2, ('c', 'a')]
    view[1]
    view.fetch()
    view.slice[[2, 0], 'a'].fetch()
    view.slice[::-1].fetch()
    return calls


def as_modes(c):
    out = []
    for mode in (tuple, dict, None):
        keys = ('a',) if mode is None else ('a', 'b')
        d = _table(c, mode, keys=keys)
        for view in (d.astuple(), d.asdict()):
            out.append(_view(view))
            out.append(view.fetch())
    return out


def as_mode_of_one_key_slice(c):
    d = _table(c, dict)
    one = d.slice[:, 'b']
    return [_view(one), _view(one.astuple()), _view(one.asdict()), one.fetch()]


def concat_tables(c):
    a = _table(c, tuple, n=3)
    b = _table(c, dict, n=4)
    e = _table(c, tuple, n=0)
    cat = a.concat(b, e, a)
    out = [_view(cat), cat.fetch()]
    for rows in (
        slice(1, 8),
        slice(None, None, -1),
        slice(8, 0, -3),
        slice(2, 3),
        slice(20, 30),
        [9, 0, 5, 3],
        [4, 5],
        [],
    ):
        out.append(cat.slice[rows, ('c', 'a')].fetch())
    out.append(attempt(lambda: a.concat(_table(c, keys=('a', 'b')))))
    out.append(attempt(lambda: a.concat(_table(c, keys=('b', 'a', 'c')))))
    out.append(_view(a.concat()))
    return out


def concat_negative_step_from_past_a_part(c):
    a = _table(c, tuple, n=3)
    cat = a.concat(_table(c, dict, n=4), a)
    return [cat.slice[9:1:-3, 'a'].fetch(), cat[9:1:-3]]


def join_tables(c):
    a = _table(c, None, keys=('a',))
    b = _table(c, dict, keys=('b', 'c'))
    t = _table(c, tuple, keys=('d',))
    joined = a.join(b, t)
    out = [_view(joined), joined.fetch()]
    out.append(joined.slice[[4, 1], ('d', 'a', 'c', 'c')].fetch())
    out.append(_view(a.join(_table(c, None, keys=('z',)))))
    out.append(attempt(lambda: a.join(_table(c, keys=('x', 'y'), n=4))))
    out.append(attempt(lambda: a.join(_table(c, keys=('x', 'a')))))
    out.append(attempt(lambda: a.join(b, _table(c, keys=('c',)))))
    return out


def transform_examples(c):
    d = _table(c, dict, keys=('a', 'b'))
    out = []
    for fn, keys in (
        (lambda a, b: (a + b, a - b), ('s', 'd')),
        (lambda a, b: {'p': a * b, 'q': -a}, ('q', 'p')),
        (lambda a, b: a * 2, 'dbl'),
        (lambda a, b: (a,), ('only',)),
    ):
        t = d.transform(keys, fn)
        out.append(_view(t))
        out.append(t.slice[1:3].fetch())
    tup = _table(c, tuple, keys=('a', 'b')).transform(('x',), lambda a, b: b)
    out.append(_view(tup))
    single = _table(c, None, keys=('a',)).transform('y', lambda a: a + 100)
    out.append(_view(single))
    return out


def transform_mode_needs_a_row(c):
    seen = []
    d = _table(c, tuple, keys=('a', 'b'))

    def fn(a, b):
        seen.append(int(a))
        return {'s': a + b}

    t = d.transform('s', fn)
    mode = t.mode
    return [getattr(mode, '__name__', mode), seen, t[3], seen]


def transform_changes_its_type(c):
    d = _table(c, tuple, keys=('a',))
    flip = d.transform(('x',), lambda a: (a,) if a % 2 else a)
    keyed = d.transform(('x',), lambda a: {'x': a} if a < 2 else (a,))
    return [
        attempt(lambda: flip.fetch()),
        attempt(lambda: keyed.fetch()),
        attempt(lambda: d.transform(('x', 'y'), lambda a: (a,)).fetch()),
        attempt(lambda: d.transform(('x',), lambda a: {'y': a}).fetch()),
    ]


def transform_batch_columns(c):
    d = _table(c, dict, keys=('a', 'b'))
    out = []
    for fn, keys in (
        (lambda a, b: (numpy.add(a, b), numpy.subtract(a, b)), ('s', 'd')),
        (lambda a, b: {'p': numpy.multiply(a, b), 'q': [-v for v in a]}, ('q', 'p')),
        (lambda a, b: numpy.asarray(a) * 2, 'dbl'),
    ):
        t = d.transform_batch(keys, fn)
        out.append(_view(t))
        out.append(t.slice[::2, 0].fetch())
    return out


def transform_batch_errors(c):
    d = _table(c, tuple, keys=('a',))
    calls = []

    def flips(a):
        calls.append(len(a))
        return (a,) if len(calls) % 2 else a

    flip = d.transform_batch('x', flips)
    return [
        attempt(lambda: d.transform_batch('x', lambda a: a[:-1]).fetch()),
        attempt(lambda: d.transform_batch(('x',), lambda a: (a[1:],)).fetch()),
        attempt(lambda: d.transform_batch('x', lambda a: {'x': a[:1]}).fetch()),
        attempt(lambda: flip.fetch()),
        attempt(lambda: flip.fetch()),
        attempt(lambda: d.transform_batch('x', lambda a: a).slice[[]].fetch()),
        calls,
    ]


def with_converter_calls(c):
    seen = []

    def conv(*args, **kwargs):
        seen.append([len(args), sorted(kwargs)])
        return 'converted'

    out = []
    for mode, keys in ((tuple, ('a', 'b')), (dict, ('a', 'b')), (None, ('a',))):
        d = _table(c, mode, keys=keys).with_converter(conv)
        out.append([_view(d), d.convert(d.fetch())])
    cat = _table(c).with_converter(conv).concat(_table(c))
    out.append(cat.convert(cat.fetch()))
    joined = _table(c, keys=('x',)).join(_table(c).with_converter(conv))
    out.append(type(joined.convert(joined.fetch())).__name__)
    out.append(_table(c).with_converter(conv).slice[1:].convert(None))
    out.append(seen)
    return out


def delegate(c):
    base = _table(c, dict)
    D = c.chainer.dataset.tabular.DelegateDataset

    class Wrapped(D):
        pass

    w = Wrapped(base)
    return [_view(w), w.dataset is base, w.slice[1:3, 'a'].fetch(), w.fetch()]


def from_data_forms(c):
    fd = c.chainer.dataset.tabular.from_data
    x = numpy.arange(4, dtype=numpy.float32)
    out = []
    for data in (
        x,
        [1, 2, 3],
        ('a', x),
        ('a', [5, 6]),
        (x, [0, 1, 2, 3]),
        (('a', x), ('b', lambda i: i * 3)),
        {'a': x, 'b': [7, 8, 9, 10]},
        {'a': x, 'f': lambda i: -i},
    ):
        d = fd(data)
        keys = [k if not k.startswith('_') else '_' for k in d.keys]
        mode = getattr(d.mode, '__name__', d.mode)
        out.append([len(d), keys, mode, [d[i] for i in range(len(d))], d.fetch()])
    return out


def from_data_callables(c):
    fd = c.chainer.dataset.tabular.from_data
    out = []
    d = fd(('f', lambda i: i * i), size=3)
    out.append(_view(d))
    d = fd((('p', 'q'), lambda i: (i, -i)), size=2)
    out.append(_view(d))
    d = fd((('p', 'q'), lambda i: {'p': i, 'q': 2 * i}), size=2)
    out.append(_view(d))
    d = fd({'f': lambda i: i + 1}, size=2)
    out.append(_view(d))
    d = fd((numpy.zeros(3), ('g', lambda i: i)))
    out.append(_view(d)[2:])
    out.append(attempt(lambda: fd(lambda i: i, size=3)))
    out.append(attempt(lambda: fd(('f', lambda i: i))))
    out.append(attempt(lambda: fd({'f': lambda i: i})))
    out.append(attempt(lambda: fd(((lambda i: i), [1, 2]))))
    out.append(attempt(lambda: fd((numpy.zeros(2), numpy.zeros(3)))))
    out.append(attempt(lambda: fd((('a', [1]), ('a', [2])))))
    out.append(attempt(lambda: fd(())))
    out.append(attempt(lambda: fd({})))
    return out


def from_data_of_no_column(c):
    fd = c.chainer.dataset.tabular.from_data
    return [attempt(lambda: fd(5)), attempt(lambda: fd(('a', 5)))]


def from_data_size_and_types(c):
    fd = c.chainer.dataset.tabular.from_data
    x = numpy.arange(6).reshape(3, 2)
    d = fd(x, size=99)
    sl = fd([10, 11, 12, 13])
    return [
        len(d),
        d[1],
        d.slice[::2].fetch(),
        d.slice[[2, 0]].fetch(),
        sl.slice[1:3].fetch(),
        sl.slice[[3, 0]].fetch(),
        type(sl.fetch()).__name__,
        type(sl.convert(sl.fetch())).__name__,
        sl.convert(sl.fetch()),
        fd(('a', x)).slice[:, ('a', 'a')].fetch(),
    ]


def base_class_is_abstract(c):
    T = c.chainer.dataset.TabularDataset
    t = T()
    return [
        attempt(lambda: len(t)),
        attempt(lambda: t.keys),
        attempt(lambda: t.mode),
        attempt(lambda: t.get_examples(None, None)),
        attempt(lambda: t[0]),
        isinstance(t, c.chainer.dataset.DatasetMixin),
    ]


def slice_by_other_sequences(c):
    d = _table(c)
    out = []
    for rows in (
        range(1, 4),
        (0, 2),
        [numpy.int64(4), numpy.int32(1)],
        numpy.array([3]),
        numpy.array([], dtype=numpy.int64),
        (True, False, True, False, False),
        [numpy.bool_(True)] * 5,
        [True, 1],
        [1.0, 2.7],
        numpy.array([0.0, 4.0]),
        'ab',
    ):
        out.append(attempt(lambda: _view(d.slice[rows])))
    return out


def slice_by_odd_keys(c):
    d = _table(c)
    out = []
    for keys in (numpy.int64(1), ['a'], ('a', numpy.int32(2)), (), ('b',) * 3):
        out.append(attempt(lambda: _view(d.slice[:, keys])))
    return out


def delegate_convert(c):
    D = c.chainer.dataset.tabular.DelegateDataset
    base = _table(c, tuple, keys=('a', 'b'), lists=True).with_converter(
        lambda a, b: 'from the wrapped converter'
    )
    w = D(base)
    return [w.convert(w.fetch()), D(w).convert(([1], [2]))]


PROBES = _values.probes(globals(), __name__)
