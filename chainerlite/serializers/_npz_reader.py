"""Reading the arrays of an npz archive without trusting it.

A source answers ``key in source``, ``source.keys()``, ``source.header(key)``
(the shape and dtype of the stored array, or ``None`` for a stored
``None``) and ``source.read(key)`` (the array). An archive member's header
is read before its data, so that a caller can reject a shape or dtype
before anything is inflated, and its declared size must match the bytes
the member holds. Nothing is ever unpickled: an object array is an error,
except the 0-dimensional one holding ``None`` that
:class:`~chainerlite.serializers.DictionarySerializer` writes for a
``None`` value, which is recognised by reading its pickle opcodes without
running them.
"""

import math
import pickletools
import zipfile
import zlib

import numpy
from numpy.lib import format as npy_format
from numpy.lib import npyio

from chainerlite.backends import cuda
from chainerlite.utils import _chainer_errors

# Kinds of arrays a state may hold: bool, numbers, byte and text strings.
_KINDS = 'biufcSU'
# A pickled ``numpy.asarray(None)`` takes 150 bytes or so.
_MAX_NONE_PICKLE = 1024
_MEMO_OPS = frozenset(['MEMOIZE', 'PUT', 'BINPUT', 'LONG_BINPUT'])


def open_source(npz):
    """Wraps an npz file or a dictionary of arrays as a source.

    Args:
        npz: An object returned by :func:`numpy.load` on an npz file (read
            through its zip archive, whatever ``allow_pickle`` it was opened
            with), or a dictionary of arrays.

    Returns:
        A source of the arrays.

    """
    if isinstance(npz, npyio.NpzFile):
        return _ZipSource(npz.zip)
    return _MappingSource(npz)


def _error(key, message, label='NpzDeserializer', cls=ValueError):
    return cls('{}: key {!r} {}'.format(label, key, message))


def _objects_error(key, more=''):
    # a TypeError too: Chainer 7.8.1 fails copying the objects into the
    # target array with one
    return _error(
        key,
        'holds Python objects (an object array)' + more,
        cls=_chainer_errors.TypedValueError,
    )


def check_kind(key, dtype, label='NpzDeserializer'):
    """Rejects a stored dtype that is not a number or a boolean."""
    if dtype.kind not in _KINDS:
        raise _error(key, 'holds an array of unsupported dtype {}'.format(dtype), label)


class _MappingSource:
    label = 'NpzDeserializer'  # names the reader in error messages

    def __init__(self, mapping):
        self._mapping = mapping

    def __contains__(self, key):
        return key in self._mapping

    def keys(self):
        return self._mapping.keys()

    def header(self, key):
        array = self.read(key)
        if array.dtype.hasobject:
            if array.shape == () and array[()] is None:
                return None
            raise _objects_error(key)
        check_kind(key, array.dtype)
        return array.shape, array.dtype

    def read(self, key):
        return numpy.asarray(cuda.to_cpu(self._mapping[key]))


class _ZipSource:
    label = 'NpzDeserializer'

    def __init__(self, archive):
        self._archive = archive
        self._members = {}
        for info in archive.infolist():
            name = info.filename
            self._members[name[:-4] if name.endswith('.npy') else name] = info

    def __contains__(self, key):
        return key in self._members

    def keys(self):
        return self._members.keys()

    def header(self, key):
        with self._archive.open(self._members[key]) as fp:
            shape, _, dtype = self._read_header(key, fp)
            if dtype.hasobject:
                if (
                    dtype.kind == 'O'
                    and shape == ()
                    and _is_pickled_none(fp.read(_MAX_NONE_PICKLE + 1))
                ):
                    return None
                raise _objects_error(key, '; npz files are loaded without unpickling')
        return shape, dtype

    def read(self, key):
        with self._archive.open(self._members[key]) as fp:
            shape, fortran, dtype = self._read_header(key, fp)
            if dtype.hasobject:
                raise _objects_error(key)
            flat = numpy.empty(math.prod(shape), dtype)
            try:
                _fill(fp, memoryview(flat.view(numpy.uint8)))
            except (zipfile.BadZipFile, EOFError, zlib.error) as e:
                raise _error(key, 'is corrupt: {}'.format(e)) from e
        return flat.reshape(shape, order='F' if fortran else 'C')

    def _read_header(self, key, fp):
        try:
            version = npy_format.read_magic(fp)
            if version == (1, 0):
                shape, fortran, dtype = npy_format.read_array_header_1_0(fp)
            elif version == (2, 0):
                shape, fortran, dtype = npy_format.read_array_header_2_0(fp)
            else:
                raise ValueError('format version {} is not supported'.format(version))
        except (ValueError, zipfile.BadZipFile) as e:
            raise _error(key, 'is not a valid .npy member: {}'.format(e)) from e
        if not dtype.hasobject:
            check_kind(key, dtype)
            size = self._members[key].file_size - fp.tell()
            if size != math.prod(shape) * dtype.itemsize:
                raise _error(
                    key,
                    'declares shape {} of {} ({} bytes) but '
                    'holds {} bytes of data'.format(
                        shape, dtype, math.prod(shape) * dtype.itemsize, size
                    ),
                )
        return shape, fortran, dtype


def _fill(fp, buf):
    filled = 0
    while filled < len(buf):
        n = fp.readinto(buf[filled:])
        if not n:
            raise EOFError('the data ends early')
        filled += n
    fp.read(1)  # reaching the end checks the member's CRC


def _is_pickled_none(payload):
    """Tells whether a pickled object array holds ``[None]`` as its data.

    The opcodes are only listed, never run, so a payload that merely
    looks like one is read as ``None`` and cannot do anything else.
    """
    if len(payload) > _MAX_NONE_PICKLE:
        return False
    try:
        ops = [
            op.name
            for op, _, _ in pickletools.genops(payload)
            if op.name not in _MEMO_OPS
        ]
    except ValueError:
        return False
    if ops.count('EMPTY_LIST') != 1 or 'LIST' in ops:
        return False
    start = ops.index('EMPTY_LIST')
    return ops[start + 1 : start + 3] == ['NONE', 'APPEND']
