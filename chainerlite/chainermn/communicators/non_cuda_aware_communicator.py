"""NCCL inside a node and MPI on host buffers between nodes."""

from chainerlite.chainermn.communicators import _nccl_check
from chainerlite.chainermn.communicators import mpi_communicator_base


class NonCudaAwareCommunicator(mpi_communicator_base.MpiCommunicatorBase):
    """NCCL within a node, host-staged MPI across nodes; needs CuPy with NCCL."""

    def __init__(self, mpi_comm):
        _nccl_check.require_nccl('NonCudaAwareCommunicator')
        super(NonCudaAwareCommunicator, self).__init__(mpi_comm)
