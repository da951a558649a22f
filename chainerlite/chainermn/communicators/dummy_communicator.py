"""A communicator that packs gradients but exchanges nothing (for profiling)."""

from chainerlite.chainermn.communicators import mpi_communicator_base


class DummyCommunicator(mpi_communicator_base.MpiCommunicatorBase):
    """Does the packing work of :meth:`multi_node_mean_grad` without the allreduce.

    Training with it measures the cost of everything but the network; its
    results are not averaged over ranks. The other collectives are MPI's.
    """

    def __init__(self, mpi_comm):
        super(DummyCommunicator, self).__init__(mpi_comm)

    def _allreduce_in_place(self, buffer):
        buffer *= buffer.dtype.type(self.size)  # undoes the 1/size scaling

    def _shared_memory(self):
        return None  # not even within a node
