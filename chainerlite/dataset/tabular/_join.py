"""``join()``: datasets of the same length side by side."""

from chainerlite.dataset.tabular import tabular_dataset


class Join(tabular_dataset.TabularDataset):
    """The columns of several datasets, in order, as one dataset."""

    def __init__(self, *datasets):
        length = len(datasets[0])
        # owner of each key index: (dataset number, key index in it)
        self._owners = []
        keys = []
        for number, dataset in enumerate(datasets):
            if len(dataset) != length:
                raise ValueError(
                    'join: dataset {} has length {}, the first one {}'.format(
                        number, len(dataset), length
                    )
                )
            for index, key in enumerate(dataset.keys):
                if key in keys:
                    raise ValueError(
                        'join: key {!r} appears in more than one dataset'.format(key)
                    )
                keys.append(key)
                self._owners.append((number, index))
        self._datasets = datasets
        self._keys = tuple(keys)

    def __len__(self):
        return len(self._datasets[0])

    @property
    def keys(self):
        return self._keys

    @property
    def mode(self):
        for dataset in self._datasets:
            if dataset.mode is not None:
                return dataset.mode
        return tuple

    def get_examples(self, indices, key_indices):
        if key_indices is None:
            return tuple(
                column
                for dataset in self._datasets
                for column in dataset.get_examples(indices, None)
            )
        # which positions of the result each dataset fills, with what keys
        requests = {}
        for position, key_index in enumerate(key_indices):
            number, index = self._owners[key_index]
            requests.setdefault(number, []).append((position, index))
        columns = [None] * len(key_indices)
        for number, request in sorted(requests.items()):
            positions, local_keys = zip(*request)
            data = self._datasets[number].get_examples(indices, local_keys)
            for position, column in zip(positions, data):
                columns[position] = column
        return tuple(columns)

    def convert(self, data):
        return self._datasets[0].convert(data)
