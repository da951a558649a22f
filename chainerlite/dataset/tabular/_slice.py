"""``dataset.slice[indices, keys]``: a view of some rows and columns."""

import numbers
import operator

from chainerlite.dataset.tabular import _rows
from chainerlite.dataset.tabular import tabular_dataset


class SliceHelper(object):
    """The object behind ``TabularDataset.slice``."""

    def __init__(self, dataset):
        self._dataset = dataset

    def __getitem__(self, args):
        if isinstance(args, tuple):
            indices, keys = args
        else:
            indices, keys = args, None
        return Slice(self._dataset, indices, keys)


class Slice(tabular_dataset.TabularDataset):
    """Rows ``indices`` and columns ``keys`` of a dataset."""

    def __init__(self, dataset, indices, keys):
        self._dataset = dataset
        self._indices = _rows.normalize(indices, len(dataset))
        if keys is None:
            self._key_indices = None
        elif isinstance(keys, tuple):
            self._key_indices = tuple(_key_index(dataset.keys, key) for key in keys)
        else:
            self._key_indices = (_key_index(dataset.keys, keys),)
        self._key_spec = keys

    def __len__(self):
        return _rows.count(self._indices, len(self._dataset))

    @property
    def keys(self):
        keys = self._dataset.keys
        if self._key_indices is None:
            return keys
        return tuple(keys[i] for i in self._key_indices)

    @property
    def mode(self):
        if self._key_spec is None:
            return self._dataset.mode
        if isinstance(self._key_spec, tuple):
            return self._dataset.mode or tuple
        return None

    def get_examples(self, indices, key_indices):
        indices = _rows.compose(self._indices, indices, len(self._dataset))
        if self._key_indices is not None and key_indices is not None:
            key_indices = tuple(self._key_indices[i] for i in key_indices)
        elif key_indices is None:
            key_indices = self._key_indices
        return self._dataset.get_examples(indices, key_indices)

    def convert(self, data):
        return self._dataset.convert(data)


def _key_index(keys, key):
    # an integer is a position, anything else a key name (as in Chainer)
    if not isinstance(key, numbers.Integral):
        if key not in keys:
            raise KeyError(
                'key {!r} is not among the keys {} of the tabular dataset'.format(
                    key, keys
                )
            )
        return keys.index(key)
    index = operator.index(key)
    if not -len(keys) <= index < len(keys):
        raise IndexError(
            'key index {} is out of range for the keys {} of the tabular '
            'dataset'.format(index, keys)
        )
    return index % len(keys)
