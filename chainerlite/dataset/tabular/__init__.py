"""Tabular datasets: tables of named columns read in batches, with views."""

from chainerlite.dataset.tabular.delegate_dataset import DelegateDataset  # NOQA
from chainerlite.dataset.tabular.from_data import from_data  # NOQA
