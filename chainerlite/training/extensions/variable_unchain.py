"""Chainer's module path of :func:`unchain_variables`."""

from chainerlite.training.extensions.unchain_variables import unchain_variables  # NOQA
