"""Chainer's second module path of :class:`SimplifiedDropconnect`."""

from chainerlite.links.connection.simplified_dropconnect import SimplifiedDropconnect  # NOQA
