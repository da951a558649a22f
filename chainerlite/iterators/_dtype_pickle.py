"""Pickles that keep the byte order of NumPy arrays.

NumPy's own pickles give back arrays of a non-native byte order (``'>f4'``
on a little-endian machine) as native arrays with the same values, before
protocol 5 for every dtype and at every protocol for datetimes. Examples
that travel between processes must arrive as they were: here such an
array travels as its bytes viewed in the native order, and is viewed back
in its own dtype (whose pickle keeps the order) on arrival.
"""

import copyreg
import io
import pickle

import numpy


def _view(native, dtype):
    return native.view(dtype)


def _reduce_array(array):
    dtype = array.dtype
    if dtype.isnative or dtype.hasobject:
        return array.__reduce_ex__(pickle.HIGHEST_PROTOCOL)
    return _view, (array.view(dtype.newbyteorder('=')), dtype)


class _Pickler(pickle.Pickler):
    dispatch_table = copyreg.dispatch_table.copy()
    dispatch_table[numpy.ndarray] = _reduce_array


def dumps(obj):
    """Pickles ``obj``; its NumPy arrays (exact ``numpy.ndarray``) keep
    their dtype, byte order included."""
    buffer = io.BytesIO()
    _Pickler(buffer, pickle.HIGHEST_PROTOCOL).dump(obj)
    return buffer.getvalue()


loads = pickle.loads
