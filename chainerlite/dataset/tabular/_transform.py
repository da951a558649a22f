"""``transform()`` and ``transform_batch()``: views computed by a function.

The mode of the view is the form the function returns (a tuple, a dict, or
one value); it is learned from the first call, and a later call that
returns another form is an error. Asking for ``mode`` before any data has
been read calls the function on the first row (an empty dataset that never
called it reports ``tuple``).
"""

from chainerlite.dataset.tabular import _rows
from chainerlite.dataset.tabular import tabular_dataset

_UNKNOWN = object()


class _Transform(tabular_dataset.TabularDataset):
    def __init__(self, dataset, keys, func):
        self._dataset = dataset
        self._func = func
        # One key (not a tuple): whatever the function returns is the value.
        self._single = not isinstance(keys, tuple)
        self._keys = (keys,) if self._single else keys
        self._mode = None if self._single else _UNKNOWN

    def __len__(self):
        return len(self._dataset)

    @property
    def keys(self):
        return self._keys

    @property
    def mode(self):
        if self._mode is _UNKNOWN:
            if not len(self):
                return tuple
            self.get_examples([0], ())
        return self._mode

    def convert(self, data):
        return self._dataset.convert(data)

    def _call(self, data):
        # Calls the function on data (the values or columns of the dataset)
        # and returns what it gave as a tuple in the order of the keys.
        mode = self._dataset.mode
        out = tabular_dataset.call_with_example(
            self._func,
            mode,
            tabular_dataset.format_example(mode, self._dataset.keys, data),
        )
        if self._single:
            return (out,)
        mode = _mode_of(out)
        if self._mode is not _UNKNOWN and mode is not self._mode:
            raise ValueError(
                '{} returned a {} after a {}'.format(
                    self._name, _FORMS[mode], _FORMS[self._mode]
                )
            )
        if mode is dict:
            if set(out) != set(self._keys):
                raise ValueError(
                    '{} returned the keys {}; expected {}'.format(
                        self._name, tuple(out), self._keys
                    )
                )
            values = tuple(out[key] for key in self._keys)
        else:
            values = out if mode is tuple else (out,)
        if len(values) != len(self._keys):
            raise ValueError(
                '{} returned {} values for the keys {}'.format(
                    self._name, len(values), self._keys
                )
            )
        self._mode = mode
        return values


_FORMS = {tuple: 'tuple', dict: 'dict', None: 'single value'}


def _mode_of(out):
    if isinstance(out, tuple):
        return tuple
    if isinstance(out, dict):
        return dict
    return None


class Transform(_Transform):
    """Examples of a dataset mapped one by one by ``transform``."""

    _name = 'transform'

    def get_examples(self, indices, key_indices):
        data = self._dataset.get_examples(indices, None)
        n = _rows.count(indices, len(self._dataset))
        columns = tuple([] for _ in self._keys)
        for i in range(n):
            for column, value in zip(
                columns, self._call([column[i] for column in data])
            ):
                column.append(value)
        return _select(columns, key_indices)


class TransformBatch(_Transform):
    """Columns of a dataset mapped at once by ``transform_batch``."""

    _name = 'transform_batch'

    def get_examples(self, indices, key_indices):
        data = self._dataset.get_examples(indices, None)
        n = _rows.count(indices, len(self._dataset))
        columns = self._call(data)
        for key, column in zip(self._keys, columns):
            if len(column) != n:
                raise ValueError(
                    'transform_batch returned {} rows for key {!r} from a '
                    'batch of {}'.format(len(column), key, n)
                )
        return _select(columns, key_indices)


def _select(columns, key_indices):
    if key_indices is None:
        return tuple(columns)
    return tuple(columns[i] for i in key_indices)
