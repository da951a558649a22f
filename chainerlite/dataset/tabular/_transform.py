"""``transform()`` and ``transform_batch()``: views computed by a function.

``keys`` is a tuple of keys, or one key that stands for a tuple of one. The
mode of the view is the form the function returns: a tuple (mode
``tuple``; the ``k``-th key reads its ``k``-th item), a dict (mode
``dict``; a key reads the item of that name) or any other value (mode
``None``; it is the one item). The mode is learned from the first call,
and a later call that returns another form is an error. Asking for
``mode`` before any data has been read calls the function on the first
row (an empty dataset that never called it reports ``tuple``).

Only the requested keys are read from what the function returns: a
missing one raises the error of the lookup (IndexError for a tuple or a
value, KeyError for a dict), as in Chainer.
"""

from chainerlite.dataset.tabular import _rows
from chainerlite.dataset.tabular import tabular_dataset

_UNKNOWN = object()
_FORMS = {tuple: 'tuple', dict: 'dict', None: 'single value'}


class _Transform(tabular_dataset.TabularDataset):
    def __init__(self, dataset, keys, func):
        self._dataset = dataset
        self._func = func
        self._keys = keys if isinstance(keys, tuple) else (keys,)
        self._mode = _UNKNOWN

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
            self.get_examples([0], None)
        return self._mode

    def convert(self, data):
        return self._dataset.convert(data)

    def _call(self, data):
        # The function applied to data (the values or columns of the
        # dataset, spread by its mode), with the form it returned checked
        # against the earlier calls'.
        mode = self._dataset.mode
        out = tabular_dataset.call_with_example(
            self._func,
            mode,
            tabular_dataset.format_example(mode, self._dataset.keys, data),
        )
        form = _mode_of(out)
        if self._mode is not _UNKNOWN and form is not self._mode:
            raise ValueError(
                '{} returned a {} after a {}'.format(
                    self._name, _FORMS[form], _FORMS[self._mode]
                )
            )
        self._mode = form
        return out

    def _item(self, out, key_index):
        # The value of key number key_index in what the function returned.
        if self._mode is dict:
            return out[self._keys[key_index]]
        if self._mode is tuple:
            return out[key_index]
        return (out,)[key_index]

    def _key_indices(self, key_indices):
        return range(len(self._keys)) if key_indices is None else key_indices


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
        key_indices = self._key_indices(key_indices)
        data = self._dataset.get_examples(indices, None)
        n = _rows.count(indices, len(self._dataset))
        columns = tuple([] for _ in key_indices)
        for i in range(n):
            out = self._call([column[i] for column in data])
            for column, key_index in zip(columns, key_indices):
                column.append(self._item(out, key_index))
        return columns


class TransformBatch(_Transform):
    """Columns of a dataset mapped at once by ``transform_batch``."""

    _name = 'transform_batch'

    def get_examples(self, indices, key_indices):
        key_indices = self._key_indices(key_indices)
        data = self._dataset.get_examples(indices, None)
        n = _rows.count(indices, len(self._dataset))
        out = self._call(data)
        if self._mode is dict:
            returned = out.items()
        else:
            returned = enumerate(out if self._mode is tuple else (out,))
        for key, column in returned:
            if len(column) != n:
                raise ValueError(
                    'transform_batch returned {} rows for {!r} from a batch '
                    'of {}'.format(len(column), key, n)
                )
        return tuple(self._item(out, key_index) for key_index in key_indices)
