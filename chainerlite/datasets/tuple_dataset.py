"""TupleDataset: examples made of the i-th entries of several datasets."""


class TupleDataset(object):
    """Dataset whose ``i``-th example is the tuple of the ``i``-th entries
    of the given datasets.

    Args:
        datasets: Datasets (arrays, lists, ...) of one length.

    Raises:
        ValueError: If no dataset is given or the lengths differ.

    .. admonition:: Example

        >>> from chainerlite.datasets import TupleDataset
        >>> ds = TupleDataset([0, 1, 2], ['a', 'b', 'c'])
        >>> ds[1], len(ds), ds[:2]
        ((1, 'b'), 3, [(0, 'a'), (1, 'b')])

    """

    def __init__(self, *datasets):
        if not datasets:
            raise ValueError('TupleDataset needs at least one dataset')
        length = len(datasets[0])
        for i, dataset in enumerate(datasets):
            if len(dataset) != length:
                raise ValueError(
                    'TupleDataset: dataset {} has {} examples where dataset 0 '
                    'has {}'.format(i, len(dataset), length)
                )
        self._datasets = datasets
        self._length = length

    def __getitem__(self, index):
        items = [dataset[index] for dataset in self._datasets]
        if isinstance(index, slice):
            return list(zip(*items))
        return tuple(items)

    def __len__(self):
        return self._length
