"""Round trips through the serializers, for tests of ``serialize``."""

import os
import tempfile


def save_and_load(src, dst, filename, saver, loader):
    """Saves ``src`` with ``saver`` and loads the file into ``dst``.

    Args:
        src: The object to save (a Link, Optimizer or anything with a
            ``serialize`` method).
        dst: The object to load into.
        filename (str): The file to write.
        saver (callable): ``saver(filename, src)``, e.g.
            :func:`chainerlite.serializers.save_npz`.
        loader (callable): ``loader(filename, dst)``.

    """
    saver(filename, src)
    loader(filename, dst)


def _round_trip(src, dst, saver, loader):
    fd, path = tempfile.mkstemp()
    os.close(fd)
    try:
        save_and_load(src, dst, path, saver, loader)
    finally:
        os.remove(path)


def save_and_load_npz(src, dst):
    """Copies the state of ``src`` into ``dst`` through an NPZ file.

    The file is temporary and removed afterwards.

    Args:
        src: The object to save.
        dst: The object to load into.

    """
    from chainerlite import serializers

    _round_trip(src, dst, serializers.save_npz, serializers.load_npz)


def save_and_load_hdf5(src, dst):
    """Copies the state of ``src`` into ``dst`` through an HDF5 file.

    Needs the HDF5 serializers (``chainerlite.serializers.save_hdf5`` and
    ``load_hdf5``, which need h5py).

    Args:
        src: The object to save.
        dst: The object to load into.

    Raises:
        RuntimeError: If the HDF5 serializers are not available.

    """
    from chainerlite import serializers

    saver = getattr(serializers, 'save_hdf5', None)
    loader = getattr(serializers, 'load_hdf5', None)
    if saver is None or loader is None:
        raise RuntimeError(
            'save_and_load_hdf5 needs chainerlite.serializers.save_hdf5 and '
            'load_hdf5, which this installation does not have'
        )
    _round_trip(src, dst, saver, loader)
