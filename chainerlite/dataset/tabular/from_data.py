"""``from_data``: a TabularDataset from lists, arrays and callables."""

import itertools

import numpy

from chainerlite.dataset.tabular import tabular_dataset

# keys of columns given without one; unique within the process
_unnamed = itertools.count()


class _Column(tabular_dataset.TabularDataset):
    """One list, array or range as a dataset in mode None."""

    def __init__(self, key, data):
        self._key = key
        self._data = data

    def __len__(self):
        return len(self._data)

    @property
    def keys(self):
        return (self._key,)

    @property
    def mode(self):
        return None

    def get_examples(self, indices, key_indices):
        data = self._data
        if indices is None:
            column = data
        elif isinstance(indices, slice) or not isinstance(data, (list, range)):
            column = data[indices]
        else:
            column = [data[i] for i in indices]
        n_columns = 1 if key_indices is None else len(key_indices)
        return (column,) * n_columns


def from_data(data, *, size=None):
    """Makes a TabularDataset from lists, arrays and callables.

    ``data`` takes one of these forms:

    - a list or array: one column, under a generated key (mode ``None``);
    - ``(key, column)``: one column named ``key`` (mode ``None``); a column
      is a list, an array, or a callable that returns the value of row
      ``i`` when called with ``i``;
    - ``((key, ...), callable)``: several columns computed together; the
      callable returns a tuple or a dict per row (mode ``tuple`` or
      ``dict`` accordingly);
    - a tuple of the above: their columns side by side (mode ``tuple``);
    - a dict ``{key: column, (key, ...): callable, ...}`` (mode ``dict``).

    Args:
        data: The columns, in one of the forms above.
        size (int): The number of rows of the callables. Required when no
            list or array gives it (the first one's length is taken).

    Returns:
        TabularDataset: A dataset that reads ``data`` lazily.

    Raises:
        ValueError: If a callable has no key, the length cannot be found,
            or the columns have different lengths.
        IndexError: If a tuple or dict gives no columns.
        TypeError: If a column is not a list, an array or a callable.

    >>> from chainerlite.dataset import tabular
    >>> dataset = tabular.from_data((('a', [0, 1, 2]), ('b', lambda i: -i)))
    >>> dataset.keys
    ('a', 'b')
    >>> dataset[2]
    (2, -2)
    """
    if isinstance(data, dict):
        entries = tuple(data.items())
    elif isinstance(data, tuple) and not _is_named(data):
        entries = data
    else:
        column = _split(data)
        return _make(*column, size=_size([column], size))
    if not entries:
        raise IndexError('from_data: no columns given')
    columns = [_split(entry) for entry in entries]
    size = _size(columns, size)
    datasets = [_make(key, column, size) for key, column in columns]
    joined = datasets[0].join(*datasets[1:])
    return joined.asdict() if isinstance(data, dict) else joined.astuple()


def _is_named(entry):
    # (key, column) or ((key, ...), callable)
    if not isinstance(entry, tuple) or len(entry) != 2:
        return False
    key, column = entry
    if isinstance(key, str):
        return True
    return (
        isinstance(key, tuple)
        and all(isinstance(k, str) for k in key)
        and callable(column)
    )


def _split(entry):
    # (key or None, column) of an entry, whose form is checked
    if isinstance(entry, (list, numpy.ndarray)):
        return None, entry
    if _is_named(entry):
        key, column = entry
        if callable(column) or isinstance(column, (list, numpy.ndarray)):
            return key, column
        raise TypeError(
            'from_data: the column {!r} is a {}, not a list, an array or a '
            'callable'.format(key, type(column).__name__)
        )
    if callable(entry):
        raise ValueError('from_data: a callable needs a key: pass (key, callable)')
    raise TypeError(
        'from_data: a column is a list, an array, (key, column) or '
        '((key, ...), callable), not {}'.format(type(entry).__name__)
    )


def _size(columns, size):
    # The number of rows of the callables: size, else the length of the
    # first list or array (the lengths are checked by join).
    for _, column in columns:
        if size is None and not callable(column):
            size = len(column)
    if size is None:
        raise ValueError('from_data: size is required when no list or array is given')
    return size


def _make(key, column, size):
    if key is None:
        key = '_{}'.format(next(_unnamed))
    if not callable(column):
        return _Column(key, column)
    rows = _Column('_{}'.format(next(_unnamed)), range(size))
    return rows.transform(key, column)
