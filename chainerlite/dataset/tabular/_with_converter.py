"""``with_converter()``: a view whose ``convert`` is a given function."""

from chainerlite.dataset.tabular import delegate_dataset
from chainerlite.dataset.tabular import tabular_dataset


class WithConverter(delegate_dataset.DelegateDataset):
    """The rows of a dataset, converted by ``converter``."""

    def __init__(self, dataset, converter):
        super(WithConverter, self).__init__(dataset)
        self._converter = converter

    def convert(self, data):
        return tabular_dataset.call_with_example(self._converter, self.mode, data)
