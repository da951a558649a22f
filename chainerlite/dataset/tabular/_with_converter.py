"""``with_converter()``: a view whose ``convert`` is a given function."""

from chainerlite.dataset.tabular import delegate_dataset


class WithConverter(delegate_dataset.DelegateDataset):
    """The rows of a dataset, converted by ``converter``."""

    def __init__(self, dataset, converter):
        super(WithConverter, self).__init__(dataset)
        self._converter = converter

    def convert(self, data):
        # spread by the form of data (not by the mode): a tuple as
        # arguments, a dict as keyword arguments, anything else as one
        if isinstance(data, tuple):
            return self._converter(*data)
        if isinstance(data, dict):
            return self._converter(**data)
        return self._converter(data)
