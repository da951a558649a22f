"""Small data sets shipped with chainerlite, for examples and tests."""

from chainerlite.datasets.digits import get_digits  # NOQA
