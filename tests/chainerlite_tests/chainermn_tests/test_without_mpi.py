"""Importing chainerlite (and chainermn) never needs MPI; using it says what
to install."""

import subprocess
import sys

PROGRAM = '''
import sys
sys.modules['mpi4py'] = None          # as if mpi4py were not installed
import chainerlite
import chainerlite.chainermn as chainermn
try:
    chainermn.create_communicator('naive')
except ImportError as error:
    print(error)
'''


def test_clear_error_without_mpi4py():
    out = subprocess.run(
        [sys.executable, '-c', PROGRAM], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert 'pip install "chainerlite[mpi]"' in out.stdout
