"""``concat()``: datasets with the same keys, one below the other."""

import bisect
import itertools

from chainerlite.dataset.tabular import tabular_dataset


class Concat(tabular_dataset.TabularDataset):
    """The rows of several datasets, in order, as one dataset.

    A request is split into one request per dataset that holds some of the
    rows (a slice stays a slice); the others are not asked. A single part
    comes back as that dataset returned it, several parts as lists.
    """

    def __init__(self, *datasets):
        keys = tuple(datasets[0].keys)
        for number, dataset in enumerate(datasets[1:], 1):
            if tuple(dataset.keys) != keys:
                raise ValueError(
                    'concat: dataset {} has the keys {}, the first one {}'.format(
                        number, tuple(dataset.keys), keys
                    )
                )
        self._datasets = datasets
        # _ends[k]: the row after the last one of dataset k
        self._ends = list(itertools.accumulate(len(d) for d in datasets))

    def __len__(self):
        return self._ends[-1]

    @property
    def keys(self):
        return self._datasets[0].keys

    @property
    def mode(self):
        return self._datasets[0].mode

    def get_examples(self, indices, key_indices):
        if isinstance(indices, list):
            return self._get_listed(indices, key_indices)
        if indices is None:
            parts = [d.get_examples(None, key_indices) for d in self._datasets]
        else:
            parts = [
                self._datasets[number].get_examples(rows, key_indices)
                for number, rows in self._split_slice(indices)
            ]
        if len(parts) == 1:
            return parts[0]
        if not parts:
            return self._empty(key_indices)
        return tuple(
            list(itertools.chain.from_iterable(columns)) for columns in zip(*parts)
        )

    def convert(self, data):
        return self._datasets[0].convert(data)

    def _empty(self, key_indices):
        n_columns = len(self.keys if key_indices is None else key_indices)
        return tuple([] for _ in range(n_columns))

    def _split_slice(self, indices):
        # [(dataset number, local slice)], in the order of the rows.
        start, stop, step = indices.indices(len(self))
        rows = range(start, stop, step)
        parts = []
        offset = 0
        for number, end in enumerate(self._ends):
            if step > 0:
                first = max(0, _ceil_div(offset - start, step))
                last = min(len(rows), _ceil_div(end - start, step))
            else:
                first = max(0, _ceil_div(start - end + 1, -step))
                last = min(len(rows), (start - offset) // -step + 1)
            if first < last:
                local_stop = stop - offset
                if not 0 <= local_stop < end - offset:
                    local_stop = None
                parts.append((number, slice(rows[first] - offset, local_stop, step)))
            offset = end
        return parts if step > 0 else parts[::-1]

    def _get_listed(self, indices, key_indices):
        n = len(self)
        requests = {}
        for position, index in enumerate(indices):
            if not -n <= index < n:
                raise IndexError(
                    'index {} is out of range for a tabular dataset of '
                    'length {}'.format(index, n)
                )
            index %= n
            number = bisect.bisect_right(self._ends, index)
            offset = self._ends[number - 1] if number else 0
            requests.setdefault(number, []).append((position, index - offset))
        if len(requests) == 1:
            ((number, request),) = requests.items()
            return self._datasets[number].get_examples(
                [row for _, row in request], key_indices
            )
        columns = [[None] * len(indices) for _ in self._empty(key_indices)]
        for number, request in sorted(requests.items()):
            positions, rows = zip(*request)
            data = self._datasets[number].get_examples(list(rows), key_indices)
            for column, part in zip(columns, data):
                for position, value in zip(positions, part):
                    column[position] = value
        return tuple(columns)


def _ceil_div(a, b):
    return -(-a // b)
