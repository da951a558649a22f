"""Serializers: save and load links and optimizers (npz format)."""

from chainerlite.serializers.npz import DictionarySerializer  # NOQA
from chainerlite.serializers.npz import load_npz  # NOQA
from chainerlite.serializers.npz import NpzDeserializer  # NOQA
from chainerlite.serializers.npz import save_npz  # NOQA
