"""The data-parallel example trains under mpiexec -n 2."""

import os
import subprocess
import sys

import pytest


def test_two_processes_learn(tmp_path):
    pytest.importorskip('mpi4py')
    from chainerlite.chainermn.testing import find_mpiexec

    mpiexec = find_mpiexec()
    if mpiexec is None:
        pytest.skip('no mpiexec')
    if 'PMI_RANK' in os.environ or 'OMPI_COMM_WORLD_RANK' in os.environ:
        pytest.skip('runs its own mpiexec: only from a single process')
    env = dict(os.environ, OPENBLAS_NUM_THREADS='1')
    out = subprocess.run(
        [
            mpiexec,
            '-n',
            '2',
            sys.executable,
            '-m',
            'chainerlite.examples.train_digits_mpi',
            '--epoch',
            '3',
            '--seed',
            '0',
            '--out',
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.count('2 processes') == 1  # rank 0 alone prints
    # the last row of PrintReport, after its erase sequence (as Chainer's)
    last = out.stdout.strip().splitlines()[-1].replace('\033[J', '').split()
    assert last[0] == '3'
    assert float(last[4]) > 0.8  # validation accuracy
