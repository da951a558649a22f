"""Rank layout and chunked object broadcast over mpi4py."""

import collections
import pickle

import numpy

from chainerlite.chainermn import _mpi

INT_MAX = 2**31 - 1

Ranks = collections.namedtuple(
    'Ranks', 'rank intra_rank intra_size inter_rank inter_size'
)


def init_ranks(mpi_comm):
    """Where this process sits among the hosts of ``mpi_comm``.

    Processes with the same processor name form one node. Returns
    ``(rank, intra_rank, intra_size, inter_rank, inter_size)``: the intra
    values count processes on this node, the inter values count nodes (in
    the order their first rank appears).
    """
    host = _mpi.get_mpi().Get_processor_name()
    hosts = mpi_comm.allgather(host)
    nodes = list(collections.OrderedDict.fromkeys(hosts))
    rank = mpi_comm.rank
    local = [r for r, h in enumerate(hosts) if h == host]
    return Ranks(rank, local.index(rank), len(local), nodes.index(host), len(nodes))


def chunked_bcast_obj(obj, mpi_comm, max_buf_len=256 * 1024 * 1024, root=0):
    """Broadcasts a picklable object in chunks of at most ``max_buf_len`` bytes.

    MPI counts are C ints, so one message carries less than ``INT_MAX``
    bytes; larger pickles are sent piece by piece.
    """
    assert 0 < max_buf_len < INT_MAX, (
        'chunked_bcast_obj: max_buf_len must be in (0, INT_MAX)'
    )
    if mpi_comm.rank == root:
        payload = numpy.frombuffer(
            bytearray(pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)),
            dtype=numpy.uint8,
        )
        length = mpi_comm.bcast(payload.size, root=root)
    else:
        length = mpi_comm.bcast(None, root=root)
        payload = numpy.empty(length, dtype=numpy.uint8)
    for start in range(0, length, max_buf_len):
        mpi_comm.Bcast(payload[start : start + max_buf_len], root=root)
    return pickle.loads(payload.tobytes())
