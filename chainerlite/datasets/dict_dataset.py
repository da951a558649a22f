"""DictDataset: examples as dicts of the i-th entries of named datasets."""


class DictDataset(object):
    """Dataset whose ``i``-th example is ``{name: dataset[i]}`` for each
    named dataset.

    Args:
        datasets: Datasets of one length, as keyword arguments.

    Raises:
        ValueError: If no dataset is given or the lengths differ.

    .. admonition:: Example

        >>> from chainerlite.datasets import DictDataset
        >>> ds = DictDataset(x=[1, 2], t=[0, 1])
        >>> ds[1] == {'x': 2, 't': 1}, len(ds)
        (True, 2)

    """

    def __init__(self, **datasets):
        if not datasets:
            raise ValueError('DictDataset needs at least one dataset')
        lengths = {name: len(d) for name, d in datasets.items()}
        if len(set(lengths.values())) != 1:
            raise ValueError(
                'DictDataset: the datasets differ in length: {}'.format(lengths)
            )
        self._datasets = datasets
        self._length = next(iter(lengths.values()))

    def __getitem__(self, index):
        items = {name: d[index] for name, d in self._datasets.items()}
        if not isinstance(index, slice):
            return items
        return [dict(zip(items, values)) for values in zip(*items.values())]

    def __len__(self):
        return self._length
