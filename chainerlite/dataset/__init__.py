"""Dataset abstractions and converters (``chainer.dataset``)."""

from chainerlite.dataset import convert  # NOQA
from chainerlite.dataset import dataset_mixin  # NOQA
from chainerlite.dataset import download  # NOQA
from chainerlite.dataset import iterator  # NOQA

from chainerlite.dataset.convert import concat_examples  # NOQA
from chainerlite.dataset.convert import ConcatWithAsyncTransfer  # NOQA
from chainerlite.dataset.convert import converter  # NOQA
from chainerlite.dataset.convert import Converter  # NOQA
from chainerlite.dataset.convert import to_device  # NOQA
from chainerlite.dataset.dataset_mixin import DatasetMixin  # NOQA
from chainerlite.dataset.download import cache_or_load_file  # NOQA
from chainerlite.dataset.download import cached_download  # NOQA
from chainerlite.dataset.download import get_dataset_directory  # NOQA
from chainerlite.dataset.download import get_dataset_root  # NOQA
from chainerlite.dataset.download import set_dataset_root  # NOQA
from chainerlite.dataset.iterator import Iterator  # NOQA

# Tabular datasets (chainerlite.dataset.tabular) are imported below.
from chainerlite.dataset import tabular  # NOQA
from chainerlite.dataset.tabular.tabular_dataset import TabularDataset  # NOQA
