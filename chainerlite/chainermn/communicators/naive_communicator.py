"""The communicator that works with any MPI and any device."""

from chainerlite.chainermn.communicators import mpi_communicator_base


class NaiveCommunicator(mpi_communicator_base.MpiCommunicatorBase):
    """Stages every buffer through host memory, so any MPI build works.

    Recommended for CPU training and tests.
    """

    def __init__(self, mpi_comm):
        super(NaiveCommunicator, self).__init__(mpi_comm)
