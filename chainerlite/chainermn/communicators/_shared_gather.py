"""Arrays handed from their owner rank to the others through node memory.

Every rank gives the same list of host arrays (the same sizes and dtypes)
and the rank that owns each. The owner copies an array into its slot of an
MPI shared-memory window; after a barrier every other rank copies it out,
and a second barrier lets the owners write again. No MPI call moves data.
The slots are handed back: an array given as its own slot (a view kept
from an earlier call) is not copied at all, by its owner or by the others,
so arrays that live in the window cost nothing to share.
"""

import sys
import zlib

import numpy

from chainerlite.chainermn import _mpi

# each slot starts at a multiple of this many bytes (a cache line)
_ALIGN = 64
# bytes per rank at the start of the window: its layout key
_KEY_BYTES = 8


def layout_key(arrays, owners):
    """A 63-bit digest of the arrays' sizes and dtypes and their owners."""
    text = repr([(a.nbytes, a.dtype.str, o) for a, o in zip(arrays, owners)])
    text = text.encode()
    return (zlib.crc32(text) << 31) ^ zlib.adler32(text) ^ len(arrays)


class GatherWindow(object):
    """The shared window of one layout of arrays (made collectively)."""

    def __init__(self, node, arrays, key):
        MPI = _mpi.get_mpi()
        self.key = key
        self.ranks = node.size
        self.offsets, offset = [], node.size * _KEY_BYTES
        for array in arrays:
            offset = -(-offset // _ALIGN) * _ALIGN
            self.offsets.append(offset)
            offset += array.nbytes
        nbytes = offset if node.rank == 0 else 0
        self.win = MPI.Win.Allocate_shared(nbytes, 1, comm=node)
        self.win.Lock_all(MPI.MODE_NOCHECK)
        self.raw = numpy.frombuffer(self.win.Shared_query(0)[0], dtype=numpy.uint8)

    def keys(self):
        return self.raw[: self.ranks * _KEY_BYTES].view(numpy.int64)

    def slot(self, index, array):
        """The slot of ``arrays[index]``: a view of its shape and dtype."""
        start = self.offsets[index]
        raw = self.raw[start : start + array.nbytes]
        return raw.view(array.dtype).reshape(array.shape)

    def viewed(self):
        """Whether an array (a slot kept somewhere) still views it."""
        # the counts: the attribute's reference and the call's
        return sys.getrefcount(self.raw) > 2

    def free(self):
        self.raw = None
        self.win.Unlock_all()
        self.win.Free()


def _check_keys(keys):
    for other, theirs in enumerate(keys):
        if theirs != keys[0]:
            raise ValueError(
                'allgather_owned: the arrays of rank {} differ from rank '
                "0's in number, sizes, dtypes or owners; every rank must "
                'give the same layout'.format(other)
            )


def _is(array, slot):
    return array.__array_interface__['data'][0] == slot.__array_interface__['data'][0]


def allgather(node, window, arrays, owners, barrier):
    """Gives each of ``arrays`` (C-contiguous host arrays) its owner's
    values. Returns the window used (``window``, or a new one made
    collectively when every rank's layout changed the same way; the caller
    frees the old one once nothing views it) and the slots.

    Raises:
        ValueError: on every rank, when the ranks' layouts differ.
    """
    key, rank = layout_key(arrays, owners), node.rank
    if window is None:
        keys = node.allgather(key)
    else:
        window.keys()[rank] = key
        if key == window.key:
            for index, (array, owner) in enumerate(zip(arrays, owners)):
                slot = window.slot(index, array)
                if owner == rank and not _is(array, slot):
                    slot[...] = array
        barrier(window.win)
        keys = [int(k) for k in window.keys()]
    _check_keys(keys)
    if window is None or key != window.key:
        if window is not None:
            barrier(window.win)  # every rank has read the keys
        window = GatherWindow(node, arrays, key)
        return allgather(node, window, arrays, owners, barrier)
    slots = []
    for index, (array, owner) in enumerate(zip(arrays, owners)):
        slot = window.slot(index, array)
        if owner != rank and not _is(array, slot):
            array[...] = slot
        slots.append(slot)
    barrier(window.win)  # every rank has read: the owners may write again
    return window, slots
