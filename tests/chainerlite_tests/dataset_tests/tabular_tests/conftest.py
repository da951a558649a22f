import numpy
import pytest

from chainerlite.dataset.tabular import tabular_dataset


class Table(tabular_dataset.TabularDataset):
    """Row ``i`` of key ``k`` is ``data[k, i]``; records every request."""

    def __init__(self, data, keys, mode):
        self.data = data
        self._keys = keys
        self._mode = mode
        self.requests = []

    def __len__(self):
        return self.data.shape[1]

    @property
    def keys(self):
        return self._keys

    @property
    def mode(self):
        return self._mode

    def get_examples(self, indices, key_indices):
        self.requests.append((indices, key_indices))
        data = self.data
        if indices is not None:
            data = data[:, indices]
        if key_indices is not None:
            data = data[list(key_indices)]
        return tuple(data)


@pytest.fixture
def table():
    def make(n=6, keys=('a', 'b', 'c'), mode=tuple, start=0):
        data = numpy.arange(start, start + len(keys) * n).reshape(len(keys), n)
        return Table(data, keys, mode)

    return make
