"""Serializers: save and load links and optimizers (npz format)."""

from chainerlite.serializers.npz import DictionarySerializer  # NOQA
from chainerlite.serializers.npz import load_npz  # NOQA
from chainerlite.serializers.npz import NpzDeserializer  # NOQA
from chainerlite.serializers.npz import save_npz  # NOQA
from chainerlite.serializers import hdf5  # NOQA
from chainerlite.serializers.hdf5 import HDF5Deserializer  # NOQA
from chainerlite.serializers.hdf5 import HDF5Serializer  # NOQA
from chainerlite.serializers.hdf5 import load_hdf5  # NOQA
from chainerlite.serializers.hdf5 import save_hdf5  # NOQA
