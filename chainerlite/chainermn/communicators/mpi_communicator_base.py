"""Communicators over an mpi4py communicator: arrays, objects and models."""

import weakref

import numpy

import chainerlite
from chainerlite import backend
from chainerlite.chainermn import _mpi
from chainerlite.chainermn.communicators import _communication_utility
from chainerlite.chainermn.communicators import _memory_utility
from chainerlite.chainermn.communicators import _shared_memory
from chainerlite.chainermn.communicators import communicator_base

try:
    # As ChainerMN's communicator modules do: once one is imported,
    # ``mpi4py.MPI`` is initialized and programs may use it directly.
    import mpi4py.MPI  # NOQA
except ImportError:
    pass  # the communicators then raise, saying what to install


def _header(array):
    return array.shape, array.dtype.str


def _bytes_of(array):
    """The bytes of ``array`` as a flat uint8 NumPy array (copied to host)."""
    return _memory_utility.to_host(array).reshape(-1).view(numpy.uint8)


def _from_bytes(raw, header):
    shape, dtype = header
    return raw.view(numpy.dtype(dtype)).reshape(shape)


def _split_bytes(raw, headers):
    """Cuts a byte buffer into the arrays described by ``headers``."""
    arrays, offset = [], 0
    for shape, dtype in headers:
        nbytes = int(numpy.prod(shape, dtype=numpy.int64)) * numpy.dtype(dtype).itemsize
        arrays.append(_from_bytes(raw[offset : offset + nbytes].copy(), (shape, dtype)))
        offset += nbytes
    return tuple(arrays)


def _counts(headers):
    counts = [
        int(numpy.prod(s, dtype=numpy.int64)) * numpy.dtype(d).itemsize
        for s, d in headers
    ]
    displacements = numpy.concatenate([[0], numpy.cumsum(counts)[:-1]])
    return counts, [int(d) for d in displacements]


class MpiCommunicatorBase(communicator_base.CommunicatorBase):
    """A communicator over ``mpi_comm`` (an ``mpi4py.MPI.Comm``).

    Array collectives stage through host memory and accept arrays of any
    shape and dtype; the ``*_obj`` forms pickle Python objects. Model-level
    operations (:meth:`bcast_data`, :meth:`multi_node_mean_grad`) move all
    parameters in one packed buffer with one MPI call.
    """

    def __init__(self, mpi_comm):
        super(MpiCommunicatorBase, self).__init__()
        self.mpi_comm = mpi_comm
        self._grad_buffers = weakref.WeakKeyDictionary()
        self._ranks = _communication_utility.init_ranks(mpi_comm)
        # the shared-memory mean (False: not every rank on this node);
        # decided at the first exchange of host gradients
        self._node_mean = None

    rank = property(lambda self: self.mpi_comm.rank, doc='Rank of this process.')
    size = property(lambda self: self.mpi_comm.size, doc='Number of processes.')
    intra_rank = property(
        lambda self: self._ranks.intra_rank,
        doc='Rank among the processes of this node.',
    )
    intra_size = property(
        lambda self: self._ranks.intra_size, doc='Number of processes on this node.'
    )
    inter_rank = property(
        lambda self: self._ranks.inter_rank, doc='Rank of this node among the nodes.'
    )
    inter_size = property(lambda self: self._ranks.inter_size, doc='Number of nodes.')

    def split(self, color, key):
        """A communicator of the same kind over ``mpi_comm.Split(color, key)``."""
        child = type(self)(mpi_comm=self.mpi_comm.Split(color, key))
        child._configs.update(self._configs)
        return child

    # ---- arrays --------------------------------------------------------

    def send(self, data, dest, tag):
        """Sends an array, or a tuple/list of arrays, to rank ``dest``."""
        arrays = tuple(data) if isinstance(data, (list, tuple)) else (data,)
        multiple = isinstance(data, (list, tuple))
        self.mpi_comm.send((multiple, [_header(a) for a in arrays]), dest=dest, tag=tag)
        for array in arrays:
            self.mpi_comm.Send(_bytes_of(array), dest=dest, tag=tag)

    def recv(self, source, tag):
        """Receives what :meth:`send` sent: an array or a tuple of arrays."""
        multiple, headers = self.mpi_comm.recv(source=source, tag=tag)
        arrays = []
        for shape, dtype in headers:
            array = numpy.empty(shape, dtype=dtype)
            self.mpi_comm.Recv(
                array.reshape(-1).view(numpy.uint8), source=source, tag=tag
            )
            arrays.append(array)
        return tuple(arrays) if multiple else arrays[0]

    def bcast(self, x, root=0):
        """Broadcasts array ``x`` of rank ``root``; returns it on every rank."""
        is_root = self.rank == root
        header = self.mpi_comm.bcast(_header(x) if is_root else None, root=root)
        if is_root:
            raw = _bytes_of(x).copy()
        else:
            raw = numpy.empty(_counts([header])[0][0], dtype=numpy.uint8)
        self.mpi_comm.Bcast(raw, root=root)
        return _from_bytes(raw, header)

    def gather(self, x, root=0):
        """Gathers one array per rank to ``root`` (a tuple there, None elsewhere)."""
        headers = self.mpi_comm.gather(_header(x), root=root)
        send = _bytes_of(x)
        if self.rank != root:
            self.mpi_comm.Gatherv(send, None, root=root)
            return None
        counts, displacements = _counts(headers)
        raw = numpy.empty(sum(counts), dtype=numpy.uint8)
        self.mpi_comm.Gatherv(
            send, [raw, counts, displacements, _mpi.get_mpi().BYTE], root=root
        )
        return _split_bytes(raw, headers)

    def allgather(self, x):
        """A tuple of every rank's array ``x``, on every rank."""
        headers = self.mpi_comm.allgather(_header(x))
        counts, displacements = _counts(headers)
        raw = numpy.empty(sum(counts), dtype=numpy.uint8)
        self.mpi_comm.Allgatherv(
            _bytes_of(x), [raw, counts, displacements, _mpi.get_mpi().BYTE]
        )
        return _split_bytes(raw, headers)

    def scatter(self, xs, root=0):
        """Sends ``xs[i]`` of rank ``root`` to rank ``i``; returns this rank's."""
        is_root = self.rank == root
        if is_root:
            if len(xs) != self.size:
                raise ValueError(
                    'scatter: {} arrays given for {} processes'.format(
                        len(xs), self.size
                    )
                )
            headers = [_header(x) for x in xs]
        header = self.mpi_comm.scatter(headers if is_root else None, root=root)
        recv = numpy.empty(_counts([header])[0][0], dtype=numpy.uint8)
        if is_root:
            counts, displacements = _counts(headers)
            raw = (
                numpy.concatenate([_bytes_of(x) for x in xs])
                if xs
                else numpy.empty(0, numpy.uint8)
            )
            send = [raw, counts, displacements, _mpi.get_mpi().BYTE]
        else:
            send = None
        self.mpi_comm.Scatterv(send, recv, root=root)
        return _from_bytes(recv, header)

    def alltoall(self, xs):
        """Sends ``xs[i]`` to rank ``i``; returns the tuple received from each."""
        if len(xs) != self.size:
            raise ValueError(
                'alltoall: {} arrays given for {} processes'.format(len(xs), self.size)
            )
        headers = self.mpi_comm.alltoall([_header(x) for x in xs])
        MPI = _mpi.get_mpi()
        send_counts, send_displacements = _counts([_header(x) for x in xs])
        recv_counts, recv_displacements = _counts(headers)
        raw = numpy.empty(sum(recv_counts), dtype=numpy.uint8)
        self.mpi_comm.Alltoallv(
            [
                numpy.concatenate([_bytes_of(x) for x in xs]),
                send_counts,
                send_displacements,
                MPI.BYTE,
            ],
            [raw, recv_counts, recv_displacements, MPI.BYTE],
        )
        return _split_bytes(raw, headers)

    def allreduce(self, x):
        """The elementwise sum of every rank's array ``x``, on every rank."""
        host = _memory_utility.to_host(x)
        out = numpy.empty_like(host)
        op, datatype = _mpi.sum_op(host.dtype)
        self.mpi_comm.Allreduce(
            self._message(host, datatype), self._message(out, datatype), op=op
        )
        return out

    @staticmethod
    def _message(array, datatype):
        return array if datatype is None else [array, datatype]

    # ---- Python objects ------------------------------------------------

    def send_obj(self, obj, dest, tag=0):
        """Sends a picklable object to rank ``dest``."""
        self.mpi_comm.send(obj, dest=dest, tag=tag)

    def recv_obj(self, source, status=None, tag=None):
        """Receives an object from ``source`` (any tag when ``tag`` is None)."""
        if tag is None:
            tag = _mpi.get_mpi().ANY_TAG
        return self.mpi_comm.recv(source=source, tag=tag, status=status)

    def bcast_obj(self, obj, max_buf_len=256 * 1024 * 1024, root=0):
        """Broadcasts a picklable object of ``root`` (chunked when large)."""
        return _communication_utility.chunked_bcast_obj(
            obj, self.mpi_comm, max_buf_len=max_buf_len, root=root
        )

    def gather_obj(self, obj, root=0):
        """A list of every rank's object on ``root``; None elsewhere."""
        return self.mpi_comm.gather(obj, root=root)

    def allgather_obj(self, obj):
        """A list of every rank's object, on every rank."""
        return self.mpi_comm.allgather(obj)

    def scatter_obj(self, objs, root=0):
        """Sends ``objs[i]`` of ``root`` to rank ``i``; returns this rank's."""
        return self.mpi_comm.scatter(objs, root=root)

    def allreduce_obj(self, obj):
        """The sum (``+``) of every rank's object, on every rank."""
        return self.mpi_comm.allreduce(obj)

    # ---- models --------------------------------------------------------

    def bcast_data(self, model):
        """Overwrites every parameter of ``model`` with rank 0's values.

        Raises:
            ValueError: on every rank, when the ranks' parameters differ in
                name, shape or dtype (naming the first difference and the
                rank that has it).
        """
        params = sorted(
            (name, p) for name, p in model.namedparams() if p.data is not None
        )
        layout = [(name, p.data.shape, p.data.dtype.str) for name, p in params]
        _check_same_layout(self, layout)
        arrays = [p.data for _, p in params]
        if not arrays:
            return
        dtype = numpy.result_type(*arrays)
        buffer = _memory_utility.pack(arrays, dtype, self._wire_xp(arrays))
        self.mpi_comm.Bcast(_memory_utility.array_to_buffer_object(buffer), root=0)
        _memory_utility.unpack(buffer, arrays)

    def multi_node_mean_grad(self, model, zero_fill=False):
        """Replaces each gradient of ``model`` with its mean over the ranks.

        All gradients travel in one packed buffer, in
        ``allreduce_grad_dtype`` when it is set (float16 halves the bytes
        on the wire) and otherwise in the widest dtype of the gradients.
        When every rank runs on this node, each rank's buffer lies in an
        MPI shared-memory window and the ranks add it up between two
        barriers, each summing its slice of all buffers; otherwise one
        ``Allreduce`` reduces it in place. The buffer is kept for the next
        call with the same model, and host gradients of its dtype come back
        as views of it, so a step copies the gradients once (scaled by
        ``1 / size`` on the way in). With one process the mean is the
        gradient itself and nothing is exchanged (unless the wire dtype
        would round it).
        Parameters whose gradient is None are left out, or given a zero
        gradient first when ``zero_fill`` is True.
        In debug mode (:func:`chainer.set_debug`) a NaN in the result
        raises ValueError.
        """
        params = _memory_utility.params_with_grad(model, zero_fill)
        grads = [p.grad for p in params]
        if not grads:
            return
        dtype = numpy.dtype(self.allreduce_grad_dtype or numpy.result_type(*grads))
        if self.size == 1 and all(numpy.can_cast(g.dtype, dtype) for g in grads):
            _check_no_nan(grads)
            return
        buffer = None
        if self._wire_xp(grads) is numpy and self._shared_memory() is not None:
            buffer = self._node_mean.mean(model, params, dtype)
        if buffer is None:
            buffer = self._grad_buffer(model, params, dtype)
            # scaled first, so that float16 sums do not overflow
            _memory_utility.pack(grads, dtype, out=buffer, scale=1.0 / self.size)
            self._allreduce_in_place(buffer)
        _check_no_nan([buffer])
        _memory_utility.unpack_grads(buffer, params)

    def allgather_owned(self, arrays, owners):
        """Gives each array the values it has on the rank that owns it.

        Every rank passes the same layout: ``arrays`` (C-contiguous NumPy
        arrays, the same sizes and dtypes on every rank) and ``owners`` (the
        rank owning each). Within one node the bytes go through shared
        memory, and an array given as the slot handed back for it by the
        last call (kept, say, as an optimizer state) lives there: it is not
        copied at all; otherwise one ``Allgatherv`` moves each rank's owned
        arrays, packed.

        Returns:
            list: Arrays with the values of ``arrays``: their slots in the
            node's shared memory, or ``arrays`` themselves.

        Raises:
            ValueError: when ``arrays`` and ``owners`` differ in length, or
                (on every rank, within one node) when the ranks' layouts
                differ.
        """
        if len(arrays) != len(owners):
            raise ValueError(
                'allgather_owned: {} arrays but {} owners'.format(
                    len(arrays), len(owners)
                )
            )
        if self.size == 1:
            return list(arrays)
        if self._shared_memory() is not None:
            return self._node_mean.allgather_owned(arrays, owners)
        flats = [a.reshape(-1).view(numpy.uint8) for a in arrays]
        counts = [
            sum(f.size for f, o in zip(flats, owners) if o == rank)
            for rank in range(self.size)
        ]
        raw = numpy.empty(sum(counts), dtype=numpy.uint8)
        displacements = [int(d) for d in numpy.cumsum([0] + counts[:-1])]
        mine = [f for f, o in zip(flats, owners) if o == self.rank]
        if mine:
            start = displacements[self.rank]
            raw[start : start + counts[self.rank]] = numpy.concatenate(mine)
        MPI = _mpi.get_mpi()
        self.mpi_comm.Allgatherv(MPI.IN_PLACE, [raw, counts, displacements, MPI.BYTE])
        offsets = list(displacements)
        for flat, owner in zip(flats, owners):
            if owner != self.rank:
                flat[...] = raw[offsets[owner] : offsets[owner] + flat.size]
            offsets[owner] += flat.size
        return list(arrays)

    def shares_node_memory(self):
        """Whether every rank runs on this node and exchanges arrays
        through shared memory (collective on first use)."""
        return self._shared_memory() is not None

    def _shared_memory(self):
        """The shared-memory mean of this node, or None when not usable."""
        if self._node_mean is None:
            self._node_mean = _shared_memory.create(self.mpi_comm) or False
        return self._node_mean or None

    def finalize(self):
        """Frees the shared-memory windows (collective: every rank calls it).

        Gradients that were views of them get their own copy first.
        """
        if self._node_mean:
            self._node_mean.free()
        self._node_mean = None

    def _grad_buffer(self, model, params, dtype):
        """The flat buffer of ``params``' gradients, kept from the last call.

        One per model, and a new one when the parameters taking part, their
        sizes or the dtype change: gradients handed back earlier are views
        of it at their own offsets, so packing into it never overwrites a
        gradient not yet read.
        """
        xp = self._wire_xp([p.grad for p in params])
        layout = (xp, dtype, tuple((id(p), p.grad.size) for p in params))
        try:
            kept = self._grad_buffers.get(model)
        except TypeError:  # a model not hashable or weakly referable
            return xp.empty(sum(p.grad.size for p in params), dtype=dtype)
        if kept is not None and kept[0] == layout:
            return kept[1]
        buffer = xp.empty(sum(p.grad.size for p in params), dtype=dtype)
        self._grad_buffers[model] = (layout, buffer)
        return buffer

    def _allreduce_in_place(self, buffer):
        op, datatype = _mpi.sum_op(buffer.dtype)
        self.mpi_comm.Allreduce(
            _mpi.get_mpi().IN_PLACE,
            self._message(_memory_utility.array_to_buffer_object(buffer), datatype),
            op=op,
        )

    def _wire_xp(self, arrays):
        """The array module of the packed buffers handed to MPI (host here)."""
        return numpy


def _check_no_nan(arrays):
    """In debug mode, raises ValueError when one of ``arrays`` holds NaN."""
    if not chainerlite.is_debug():
        return
    for array in arrays:
        if bool(backend.get_array_module(array).isnan(array).any()):
            raise ValueError(
                'multi_node_mean_grad: parameters diverged after the '
                'allreduce (a gradient holds NaN)'
            )


def _check_same_layout(comm, layout):
    """Raises on every rank when ``layout`` differs from rank 0's."""
    reference = comm.mpi_comm.bcast(layout, root=0)
    problem = None
    if layout != reference:
        problem = _describe_difference(reference, layout, comm.rank)
    problems = comm.mpi_comm.allgather(problem)
    for rank, problem in enumerate(problems):
        if problem is not None:
            raise ValueError(
                'bcast_data: the parameters of rank {} do not match those of '
                'rank 0 ({}); every rank must build the same model'.format(
                    rank, problem
                )
            )


def _describe_difference(reference, layout, rank):
    for theirs, mine in zip(reference, layout):
        if theirs != mine:
            return 'rank 0 has {} {} {}, rank {} has {} {} {}'.format(
                theirs[0], theirs[1], theirs[2], rank, mine[0], mine[1], mine[2]
            )
    return 'rank 0 has {} parameters, rank {} has {}'.format(
        len(reference), rank, len(layout)
    )
