"""The communicator that hands device buffers to a CUDA-aware MPI."""

from chainerlite import backend
from chainerlite.chainermn.communicators import mpi_communicator_base


class FlatCommunicator(mpi_communicator_base.MpiCommunicatorBase):
    """Packs the gradients into one buffer on their own device.

    On the CPU it behaves as :class:`NaiveCommunicator`. With CuPy arrays the
    packed buffer stays on the GPU and is passed to MPI as it is, which
    needs an MPI built with CUDA support.
    """

    def __init__(self, mpi_comm):
        super(FlatCommunicator, self).__init__(mpi_comm)

    def _wire_xp(self, arrays):
        return backend.get_array_module(arrays[0])
