"""``DelegateDataset``: a TabularDataset that forwards to another one."""

from chainerlite.dataset.tabular import tabular_dataset


class DelegateDataset(tabular_dataset.TabularDataset):
    """A tabular dataset that answers with an underlying one.

    Subclass it to give a dataset built with ``from_data`` (or any view) a
    class of its own: the length, keys, mode and ``get_examples`` are those
    of ``dataset``; ``convert`` is the default one (as in Chainer, a
    converter of ``dataset`` is not used: a subclass may define its own).

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
