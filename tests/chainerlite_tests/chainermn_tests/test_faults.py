"""A failing rank ends the whole job, naming itself; nothing hangs."""

import os
import subprocess
import sys

import pytest

PROGRAM = '''
import chainerlite.chainermn as chainermn
comm = chainermn.create_communicator('naive')
if comm.rank == 1:
    raise RuntimeError('boom on purpose')
comm.mpi_comm.barrier()         # rank 0 would wait here forever
'''


def _mpiexec():
    pytest.importorskip('mpi4py')
    from chainerlite.chainermn.testing import find_mpiexec

    found = find_mpiexec()
    if found is None:
        pytest.skip('no mpiexec')
    if 'PMI_RANK' in os.environ or 'OMPI_COMM_WORLD_RANK' in os.environ:
        pytest.skip('runs its own mpiexec: only from a single process')
    return found


def test_raising_rank_aborts_every_rank(tmp_path):
    script = tmp_path / 'fail.py'
    script.write_text(PROGRAM)
    out = subprocess.run(
        [_mpiexec(), '-n', '2', sys.executable, str(script)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode != 0
    assert 'rank 1 of 2 raised an uncaught exception' in out.stderr
    assert 'boom on purpose' in out.stderr
