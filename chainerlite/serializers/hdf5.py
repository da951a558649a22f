"""Saving and loading object states in HDF5 files, through h5py.

As in Chainer, h5py is optional: where it is installed, ``save_hdf5``
writes one group per link and one dataset per value, and ``load_hdf5``
reads them back; where it is not, ``_available`` is False and every entry
point raises a RuntimeError saying what to install. h5py is imported on
first use, not with chainerlite.

Loading is :class:`~chainerlite.serializers.NpzDeserializer`'s, on the
datasets of the file: the file is not trusted (a dataset's shape and dtype
are checked against its target before its data is read; datasets of
Python objects or other non-numeric types are refused), and every value is
checked before any is assigned, so that an error leaves the object as it
was. Data is read only from the group being loaded: external links,
external raw storage, virtual datasets and soft links that leave the group
are refused before anything is read (see ``_hdf5_links``).
"""

import importlib.util

import numpy

from chainerlite import serializer as serializer_module
from chainerlite.backends import cuda
from chainerlite.serializers import _hdf5_links
from chainerlite.serializers import _npz_reader
from chainerlite.serializers import npz
from chainerlite.utils import _chainer_errors

# find_spec imports nothing; it answers None where h5py is missing (or
# blocked with sys.modules['h5py'] = None).
_available = importlib.util.find_spec('h5py') is not None


def _h5py(what):
    if not _available:
        raise RuntimeError(
            '{} needs h5py (pip install h5py, or pip install '
            '"chainerlite[hdf5]"); save_npz / load_npz need nothing more'.format(what)
        )
    import h5py

    return h5py


class HDF5Serializer(serializer_module.Serializer):
    """Serializer that writes values into an HDF5 group.

    Each value becomes a dataset of the group and each child
    (``serializer['child']``) a subgroup; ``None`` is stored as an empty
    dataset.

    Args:
        group (h5py.Group): The group (or open file) to write into.
        compression (int): gzip level of the datasets of more than one
            element (a scalar is stored uncompressed).

    Raises:
        RuntimeError: If h5py is not installed.

    """

    def __init__(self, group, compression=4):
        self._h5py = _h5py('HDF5Serializer')
        self.group = group
        self.compression = compression

    def __getitem__(self, key):
        # an optimizer's keys start with '/'; h5py would read that as the
        # file's root
        return HDF5Serializer(
            self.group.require_group(key.strip('/')), self.compression
        )

    def __call__(self, key, value):
        key = key.lstrip('/')
        if value is None:
            if self._h5py.version.version_tuple < (2, 7, 0):
                raise RuntimeError(
                    'HDF5Serializer: h5py>=2.7.0 is required to serialize None '
                    '(as an empty dataset)'
                )
            self.group.create_dataset(key, data=self._h5py.Empty('f'))
            return value
        array = numpy.asarray(cuda.to_cpu(value))
        compression = None if array.size <= 1 else self.compression
        self.group.create_dataset(key, data=array, compression=compression)
        return value


class _GroupSource:
    """The datasets under an h5py group, as a source of
    :class:`~chainerlite.serializers.NpzDeserializer` (keys are the
    datasets' paths from the group, ``'child/W'``)."""

    label = 'HDF5Deserializer'
    # Chainer's type for a missing group and h5py's for a missing dataset
    missing_error = _chainer_errors.KeyValueError

    def __init__(self, group, h5py):
        self._group = group
        self._dataset_type = h5py.Dataset

    def _dataset(self, key):
        item = self._group.get(key) if key else None
        return item if isinstance(item, self._dataset_type) else None

    def __contains__(self, key):
        return self._dataset(key) is not None

    def keys(self):
        names = []

        def visit(name, item):
            if isinstance(item, self._dataset_type):
                names.append(name)

        self._group.visititems(visit)
        return names

    def header(self, key):
        dataset = self._dataset(key)
        if dataset.shape is None:  # an empty dataset: a saved None
            return None
        _npz_reader.check_kind(key, dataset.dtype, self.label)
        return tuple(dataset.shape), dataset.dtype

    def read(self, key):
        dataset = self._dataset(key)
        array = numpy.empty(dataset.shape, dataset.dtype)
        if array.size:
            dataset.read_direct(array)
        return array


class HDF5Deserializer(npz.NpzDeserializer):
    """Deserializer that reads values from an HDF5 group.

    It reads as :class:`~chainerlite.serializers.NpzDeserializer` does,
    the keys being the paths of the datasets under ``group``: arrays are
    filled in place, scalars converted to the type of the current value, an
    empty dataset (a saved ``None``) loads as ``None``; every value is
    checked before any is assigned.

    Args:
        group (h5py.Group): The group (or open file) to read from.
        strict (bool): If ``True``, a value missing from the file raises
            ``KeyError`` (also a ``ValueError``); otherwise the current
            value is kept.
        path (str): The path of ``group`` in its file; only informative
            (reading starts at ``group``). Keyword only: Chainer 7.8.1
            takes ``strict`` second.
        ignore_names (str, callable or list of them): Keys to skip (see
            :class:`~chainerlite.serializers.NpzDeserializer`).

    Raises:
        RuntimeError: If h5py is not installed.
        ValueError: If data under ``group`` would be read from elsewhere:
            an external link, a soft link leaving ``group``, a dataset with
            external storage or a virtual dataset (the error names the
            key; checked before anything is read).

    """

    def __init__(self, group, strict=True, *, path='', ignore_names=None):
        h5py = _h5py('HDF5Deserializer')
        # NpzDeserializer's reading and checks, on the group's datasets
        # (its keys start at the group: no key prefix)
        super().__init__({}, strict=strict, ignore_names=ignore_names)
        self.group = group
        self.group_path = path
        _hdf5_links.check_group(group, h5py, _GroupSource.label)
        self._source = _GroupSource(group, h5py)

    def __getitem__(self, key):
        """The deserializer of a child: it reads under ``key``, and its
        ``group`` is that group of the file, as in Chainer (None where the
        file has none: reading from it then fails as a missing value)."""
        child = super().__getitem__(key)
        name = key.strip('/')
        child.group = None if self.group is None else self.group.get(name)
        child.group_path = self.group_path.rstrip('/') + '/' + name
        return child


def save_hdf5(filename, obj, compression=4):
    """Saves the state of an object (a link, an optimizer...) to an HDF5 file.

    Args:
        filename (str): The file to write (replaced if it exists).
        obj: The object (see :meth:`~chainerlite.serializer.Serializer.save`),
            or a dict of arrays, each written as a dataset under its key.
        compression (int): gzip level of the array datasets.

    Raises:
        RuntimeError: If h5py is not installed.

    """
    h5py = _h5py('save_hdf5')
    with h5py.File(filename, 'w') as f:
        if isinstance(obj, dict):
            _save_items(f, obj, compression)
        else:
            HDF5Serializer(f, compression=compression).save(obj)


def _save_items(f, items, compression):
    # A dict (a state saved by an older version of a link, say) is written
    # as it is, one dataset per item, as Chainer writes it.
    for key, value in items.items():
        array = numpy.asarray(value)
        try:
            f.create_dataset(
                '/' + key.lstrip('/'),
                data=array,
                compression=None if array.size <= 1 else compression,
            )
        except TypeError as e:
            raise TypeError(
                'save_hdf5: the item {!r} ({} of dtype {}) cannot be stored in '
                'HDF5: {}'.format(key, type(value).__name__, array.dtype, e)
            ) from e


def load_hdf5(filename, obj, path='', strict=True, ignore_names=None):
    """Loads the state of an object from an HDF5 file written by
    :func:`save_hdf5` (checked as :func:`~chainerlite.serializers.load_npz`
    checks an npz file).

    Args:
        filename (str): The file to read.
        obj: The object to load into.
        path (str): The group of ``obj`` in the file (``''``: the root).
        strict (bool): Whether a value missing from the file is an error.
        ignore_names (str, callable or list of them): Keys to skip.

    Raises:
        RuntimeError: If h5py is not installed.
        KeyError: If ``strict`` and a value is missing (also a
            ``ValueError``, as Chainer raises for a missing group), or
            ``path`` is not a group of the file.
        ValueError: If a stored dataset does not fit its target (shape,
            range) or holds no numbers, or if the file would have data read
            from elsewhere (see :class:`HDF5Deserializer`); nothing is
            assigned then.
        TypeError: If a stored dtype cannot be cast to the target's.

    """
    h5py = _h5py('load_hdf5')
    with h5py.File(filename, 'r') as f:
        group = f
        for name in path.strip('/').split('/') if path.strip('/') else ():
            # each step a hard link: a soft or external one could lead
            # anywhere (into another file)
            link = group.get(name, getlink=True)
            if not isinstance(link, h5py.HardLink) or not isinstance(
                group[name], h5py.Group
            ):
                raise KeyError(
                    'load_hdf5: {!r} is not a group of {} (reached through '
                    'groups only, not links)'.format(path, filename)
                )
            group = group[name]
        HDF5Deserializer(group, strict, path=path, ignore_names=ignore_names).load(obj)
