"""Datasets over several processes."""

from chainerlite.chainermn.datasets.empty_dataset import create_empty_dataset  # NOQA
from chainerlite.chainermn.datasets.scatter import scatter_dataset  # NOQA
from chainerlite.chainermn.datasets.scatter import scatter_index  # NOQA
