"""Fixtures of the ChainerMN tests: they run under ``mpiexec -n N`` (any N)
and as a plain single process; without mpi4py they are skipped."""
import pytest


@pytest.fixture
def comm():
    pytest.importorskip('mpi4py')
    import chainerlite.chainermn
    communicator = chainerlite.chainermn.create_communicator('naive')
    yield communicator
    communicator.mpi_comm.barrier()
    communicator.finalize()


@pytest.fixture
def comm2(comm):
    """The communicator of a run with at least two processes."""
    if comm.size < 2:
        pytest.skip('needs mpiexec -n 2 or more (make test-mpi)')
    return comm
