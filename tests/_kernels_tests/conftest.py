import os
import subprocess
import sys

import numpy as np
import pytest


@pytest.fixture
def thread_results(tmp_path):
    """Runs a program with a given number of OpenMP threads in its own
    interpreter (the thread count is read when OpenMP starts) and returns
    the arrays it saves (``np.savez`` to the path in ``sys.argv[1]``)."""

    def run(program, threads):
        path = tmp_path / f'threads{threads}.npz'
        env = dict(os.environ, OMP_NUM_THREADS=str(threads))
        done = subprocess.run(
            [sys.executable, '-c', program, str(path)],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        return dict(np.load(path))

    return run
