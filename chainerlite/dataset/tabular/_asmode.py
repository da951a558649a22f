"""``astuple()`` and ``asdict()``: a view with another mode."""

from chainerlite.dataset.tabular import delegate_dataset


class AsMode(delegate_dataset.DelegateDataset):
    """The rows of a dataset, with examples in the form ``mode``."""

    def __init__(self, dataset, mode):
        super(AsMode, self).__init__(dataset)
        self._mode = mode

    @property
    def mode(self):
        return self._mode

    def convert(self, data):
        return self.dataset.convert(data)
