"""The mean of gradients over ranks that share one node's memory.

Each rank packs its (scaled) gradients into its own segment of an MPI
shared-memory window; after a barrier, rank ``r`` adds up slice ``r`` of
every rank's segment and writes the sum into that slice of every segment;
after a second barrier each segment holds the whole mean, and the
gradients are handed back as views of the rank's own segment. No MPI call
moves data, so nothing waits for MPI's progress engine. Rank ``r`` packs
its own slice piece by piece while summing it (the piece is still in cache
when it is added), so a step moves each gradient element through memory
fewer times than packing everything first would.
"""

import sys
import weakref
import zlib

import numpy

from chainerlite.chainermn import _mpi
from chainerlite.chainermn.communicators import _memory_utility
from chainerlite.chainermn.communicators import _shared_gather

# rank slices start at multiples of this many bytes (a few cache lines)
_ALIGN = 256
# elements summed and copied out per pass, so the sum is still in cache
_CHUNK = 1 << 16
# bytes before each rank's gradients: its layout key, read by the others
_HEADER = 64
# windows that were still viewed by some array when their communicator
# was finalized: kept (not freed) until MPI itself finalizes
_kept_until_exit = []


def create(mpi_comm):
    """A :class:`NodeMean` when every rank of ``mpi_comm`` (more than one)
    is on this node; None otherwise (the mean then needs an Allreduce)."""
    if mpi_comm.size < 2:
        return None
    MPI = _mpi.get_mpi()
    node = mpi_comm.Split_type(MPI.COMM_TYPE_SHARED, key=mpi_comm.rank)
    if node.size != mpi_comm.size:
        node.Free()
        return None
    return NodeMean(node)


def _layout_key(params, dtype):
    """A 63-bit digest of the gradients' sizes and the buffer dtype."""
    sizes = numpy.array([p.grad.size for p in params], dtype=numpy.int64)
    text = numpy.dtype(dtype).str.encode() + sizes.tobytes()
    return (zlib.crc32(text) << 31) ^ zlib.adler32(text) ^ len(sizes)


class _Window(object):
    """One shared-memory window: a flat gradient segment per rank."""

    def __init__(self, node, model, params, dtype, key):
        MPI = _mpi.get_mpi()
        self.model = weakref.ref(model)
        self.key = key
        self.dtype = numpy.dtype(dtype)
        self.size = sum(p.grad.size for p in params)
        self.params = [weakref.ref(p) for p in params]
        self.param_ids = [id(p) for p in params]
        info = MPI.Info.Create()
        info.Set('alloc_shared_noncontig', 'true')
        nbytes = _HEADER + self.size * self.dtype.itemsize
        self.win = MPI.Win.Allocate_shared(nbytes, 1, info=info, comm=node)
        info.Free()
        self.win.Lock_all(MPI.MODE_NOCHECK)
        self._raws = [
            numpy.frombuffer(self.win.Shared_query(rank)[0], dtype=numpy.uint8)
            for rank in range(node.size)
        ]
        self.headers = [raw[:_HEADER].view(numpy.int64) for raw in self._raws]
        self.segments = [raw[_HEADER:].view(self.dtype) for raw in self._raws]
        self.mine = self.segments[node.rank]
        self.own = []  # (offset, gradient piece) of the rank's slice
        step = max(1, _ALIGN // self.dtype.itemsize)
        blocks = -(-self.size // step)
        bounds = [
            min(self.size, step * (blocks * r // node.size))
            for r in range(node.size + 1)
        ]
        self.slice = slice(bounds[node.rank], bounds[node.rank + 1])

    def pack(self, grads, scale):
        """Packs ``grads`` times ``scale`` into the rank's segment, except
        the pieces in its own slice, which :meth:`NodeMean._reduce` packs."""
        self.own = []
        offset, part = 0, self.slice
        for grad in grads:
            flat = _memory_utility.to_host(grad).reshape(-1)
            end = offset + flat.size
            start, stop = max(part.start, offset), min(part.stop, end)
            if start >= stop:
                start = stop = end
            else:
                self.own.append((start, flat[start - offset : stop - offset]))
            _scale_into(flat[: start - offset], self.mine[offset:start], scale)
            _scale_into(flat[stop - offset :], self.mine[stop:end], scale)
            offset = end

    def publish(self, rank, key):
        self.headers[rank][0] = key

    def keys(self):
        return [int(header[0]) for header in self.headers]

    def detach(self):
        """Gives gradients that are views of this window their own copy."""
        for ref in self.params:
            param = ref()
            if param is None or param.grad is None:
                continue
            if numpy.may_share_memory(param.grad, self.mine):
                param.grad = param.grad.copy()

    def retire(self):
        """Stops using the window; it is freed once no array views it."""
        self.detach()
        self.headers = self.segments = self.mine = None
        self.own = []

    def viewed(self):
        """Whether an array (a gradient kept somewhere) still views it."""
        # each count: the list's reference, the loop's and the call's
        return any(sys.getrefcount(raw) > 3 for raw in self._raws)

    def free(self):
        self._raws = None
        self.win.Unlock_all()
        self.win.Free()


def _scale_into(source, out, scale):
    # scaled before the sum, so that float16 sums do not overflow
    numpy.multiply(source, scale, out=out, casting='unsafe')


class NodeMean(object):
    """The gradient means of models over a communicator within one node."""

    def __init__(self, node):
        self.node = node
        self._windows = weakref.WeakKeyDictionary()
        self._all = []  # every window in use, freed by :meth:`free`
        self._retired = []  # windows replaced, not yet freed
        self._gather = None  # the window of :meth:`allgather_owned`

    def allgather_owned(self, arrays, owners):
        """Copies each of ``arrays`` from the rank ``owners[i]`` into the
        others'; returns their slots (see :mod:`._shared_gather`)."""
        old = self._gather
        self._gather, slots = _shared_gather.allgather(
            self.node, old, arrays, owners, self._sync
        )
        if old is not None and old is not self._gather:
            self._retired.append(old)  # freed once no array views it
        return slots

    def mean(self, model, params, dtype):
        """Replaces the gradients of ``params`` (``model``'s) by their mean.

        Returns the rank's segment that now holds the packed mean, or None
        when ``model`` cannot key a window (not hashable or weakly
        referable: the caller then uses an Allreduce).

        Raises:
            ValueError: on every rank, when the ranks' gradients differ in
                number, sizes or dtype.
        """
        node = self.node
        grads = [p.grad for p in params]
        key = _layout_key(params, dtype)
        try:
            window = self._windows.get(model)
        except TypeError:
            return None
        if window is None:
            self._check_keys(node.allgather(key))
            window = self._replace(model, None, params, dtype, key)
        ready = window.key == key
        if ready:
            self._adopt(window, params)
            window.pack(grads, 1.0 / node.size)
        window.publish(node.rank, key)
        self._barrier(window)
        keys = window.keys()
        if len(set(keys)) > 1:
            self._barrier(window)  # every rank has read the keys
            self._check_keys(keys)
        if not ready or keys[0] != window.key:
            # every rank changed its parameters the same way
            window = self._replace(model, window, params, dtype, key)
            window.pack(grads, 1.0 / node.size)
            window.publish(node.rank, key)
            self._barrier(window)
        self._reduce(window)
        self._barrier(window)
        return window.mine

    def _check_keys(self, keys):
        for rank, key in enumerate(keys):
            if key != keys[0]:
                raise ValueError(
                    'multi_node_mean_grad: the gradients of rank {} differ from '
                    "rank 0's in number, sizes or dtype (a parameter without a "
                    'gradient on some ranks only? use zero_fill=True); every '
                    'rank must send the same parameters'.format(rank)
                )

    def _replace(self, model, old, params, dtype, key):
        """A new window for ``params`` (collective), retiring ``old``."""
        if old is not None:
            self._all.remove(old)
            old.retire()
            self._retired.append(old)
        self._tidy()
        window = _Window(self.node, model, params, dtype, key)
        self._all.append(window)
        self._windows[model] = window
        return window

    def _adopt(self, window, params):
        """Takes other parameters of the same sizes into ``window``."""
        ids = [id(p) for p in params]
        if ids != window.param_ids:
            window.detach()
            window.params = [weakref.ref(p) for p in params]
            window.param_ids = ids

    def _barrier(self, window):
        self._sync(window.win)

    def _sync(self, win):
        win.Sync()
        self.node.Barrier()
        win.Sync()

    def _reduce(self, window):
        # the rank's slice: its own gradients packed a piece at a time,
        # summed in rank order into rank 0's segment, then copied out
        segments, scale = window.segments, 1.0 / self.node.size
        for offset, source in window.own:
            for start in range(0, source.size, _CHUNK):
                stop = min(start + _CHUNK, source.size)
                piece = slice(offset + start, offset + stop)
                _scale_into(source[start:stop], window.mine[piece], scale)
                total = segments[0][piece]
                for segment in segments[1:]:
                    numpy.add(total, segment[piece], out=total)
                for segment in segments[1:]:
                    segment[piece] = total
        window.own = []

    def _tidy(self):
        """Collectively retires the windows whose model is gone on every
        rank, and frees the retired windows that no rank's arrays view.

        A window that some array still views is kept: freeing it would
        leave that array pointing at unmapped memory. Every rank made the
        same windows in the same order, so their positions match.
        """
        flags = self.node.allgather(
            (
                [w.model() is None for w in self._all],
                [w.viewed() for w in self._retired],
            )
        )
        gone = [all(f) for f in zip(*(dead for dead, _ in flags))]
        viewed = [any(f) for f in zip(*(views for _, views in flags))]
        for window, is_viewed in zip(list(self._retired), viewed):
            if not is_viewed:
                self._retired.remove(window)
                window.free()
        for window, is_gone in zip(list(self._all), gone):
            if is_gone:
                self._all.remove(window)
                window.retire()
                self._retired.append(window)

    def free(self):
        """Frees the windows (collective); gradients get their own copies.

        Windows that other arrays still view stay until MPI finalizes.
        """
        for window in self._all:
            window.retire()
        self._retired += self._all
        self._all = []
        if self._gather is not None:
            self._retired.append(self._gather)
            self._gather = None
        self._windows = weakref.WeakKeyDictionary()
        self._tidy()
        _kept_until_exit.extend(self._retired)
        self._retired = []
        self.node.Free()
