"""``DelegateDataset``: a TabularDataset that forwards to another one."""

from chainerlite.dataset.tabular import tabular_dataset


class DelegateDataset(tabular_dataset.TabularDataset):
    """A tabular dataset that answers with an underlying one.

    Subclass it to give a dataset built with ``from_data`` (or any view) a
    class of its own: the length, keys, mode, ``get_examples`` and
    ``convert`` are those of ``dataset``.

    Args:
        dataset (TabularDataset): The underlying dataset, kept as
            ``self.dataset``.
    """

    def __init__(self, dataset):
        self.dataset = dataset

    def __len__(self):
        return len(self.dataset)

    @property
    def keys(self):
        return self.dataset.keys

    @property
    def mode(self):
        return self.dataset.mode

    def get_examples(self, indices, key_indices):
        return self.dataset.get_examples(indices, key_indices)

    def convert(self, data):
        return self.dataset.convert(data)
