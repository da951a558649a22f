"""The communicator that reduces gradients with NCCL between GPUs."""

from chainerlite.chainermn.communicators import _nccl_check
from chainerlite.chainermn.communicators import mpi_communicator_base


class PureNcclCommunicator(mpi_communicator_base.MpiCommunicatorBase):
    """Gradient exchange over NCCL; needs CuPy with NCCL and CUDA GPUs."""

    def __init__(self, mpi_comm):
        _nccl_check.require_nccl('PureNcclCommunicator')
        super(PureNcclCommunicator, self).__init__(mpi_comm)
