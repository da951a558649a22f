"""serializers.hdf5: chainerlite has no HDF5 support, as Chainer without h5py."""

import pytest

import chainerlite
from chainerlite import serializers
from chainerlite.serializers import hdf5


def test_hdf5_is_not_available():
    assert hdf5._available is False
    link = chainerlite.links.Linear(2, 3)
    with pytest.raises(RuntimeError, match='save_npz'):
        serializers.save_hdf5('model.h5', link)
    with pytest.raises(RuntimeError, match='h5py'):
        serializers.load_hdf5('model.h5', link)
    with pytest.raises(RuntimeError, match='h5py'):
        serializers.HDF5Serializer(None)
    with pytest.raises(RuntimeError, match='h5py'):
        serializers.HDF5Deserializer(None)
