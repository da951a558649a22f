"""HDF5 serialization, as in a Chainer install without h5py.

chainerlite saves and loads models with NPZ files only
(:mod:`chainerlite.serializers.npz`); ``_available`` is False and the HDF5
functions raise RuntimeError.
"""

_available = False


def _unavailable(what):
    return RuntimeError(
        '{} needs HDF5 support (h5py), which chainerlite does not have; use '
        'chainerlite.serializers.save_npz / load_npz instead.'.format(what)
    )


class HDF5Serializer(object):
    """Would write to an HDF5 file; raises RuntimeError when constructed."""

    def __init__(self, group, compression=4):
        raise _unavailable('HDF5Serializer')


class HDF5Deserializer(object):
    """Would read an HDF5 file; raises RuntimeError when constructed."""

    def __init__(self, group, path='', strict=True):
        raise _unavailable('HDF5Deserializer')


def save_hdf5(filename, obj, compression=4):
    """Would save ``obj`` to an HDF5 file; raises RuntimeError."""
    raise _unavailable('save_hdf5')


def load_hdf5(filename, obj):
    """Would load ``obj`` from an HDF5 file; raises RuntimeError."""
    raise _unavailable('load_hdf5')
