"""Dataset abstraction (``chainerlite.dataset``), as in ``chainer.dataset``."""
from chainerlite.dataset import tabular  # NOQA
from chainerlite.dataset.tabular.tabular_dataset import TabularDataset  # NOQA
