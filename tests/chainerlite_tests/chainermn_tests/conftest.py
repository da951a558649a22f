"""Fixtures of the ChainerMN tests: they run under ``mpiexec -n N`` (any N)
and as a plain single process; without mpi4py they are skipped."""

import sys

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


class _CountingComm(object):
    """Wraps an mpi4py communicator and counts the calls of each method."""

    def __init__(self, real):
        self._real = real
        self.calls = {}

    def __getattr__(self, name):
        attr = getattr(self._real, name)
        if not callable(attr):
            return attr

        def counted(*args, **kwargs):
            self.calls[name] = self.calls.get(name, 0) + 1
            return attr(*args, **kwargs)

        return counted


@pytest.fixture
def mpi_calls(comm):
    """Counts, by method name, the MPI calls ``comm`` makes from now on."""
    real = comm.mpi_comm
    counting = _CountingComm(real)
    comm.mpi_comm = counting
    yield counting.calls
    comm.mpi_comm = real


def pytest_runtest_logreport(report):
    """Under mpiexec, a test that fails on one rank leaves the other ranks
    waiting in a collective: print the failure and abort the whole job."""
    if not report.failed:
        return
    MPI = sys.modules.get('mpi4py.MPI')
    if MPI is None or MPI.COMM_WORLD.size < 2:
        return
    sys.stderr.write(
        'rank {}: {} failed; aborting every rank\n{}\n'.format(
            MPI.COMM_WORLD.rank, report.nodeid, report.longreprtext
        )
    )
    sys.stderr.flush()
    MPI.COMM_WORLD.Abort(1)
