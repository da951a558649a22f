"""Every public function of ``chainerlite.functions`` survives random
arguments: no crash, no hang (see ``public_fuzz.py``, run in a subprocess,
each function in a forked child). An absurd ``axis`` of ``F.bias`` hung
for minutes before it was refused. So do the other doors users take to the
compiled core and kernels with the same arguments: Variable operators and
methods, the optimizers with their hooks, the links (``object_fuzz.py``,
each family in a forked child).

``make test`` runs a bounded slice; ``CHAINERLITE_FUZZ=full`` (``make
fuzz``) many more calls.
"""

import os
import pathlib
import subprocess
import sys

import pytest

from chainerlite.testing import random as testing_random

HERE = pathlib.Path(__file__).resolve().parent
FULL = os.environ.get('CHAINERLITE_FUZZ') == 'full'
# (program, calls per function or family, the fewest lines it prints)
PROGRAMS = {
    'public_fuzz.py': (600 if FULL else 4, 201),
    'object_fuzz.py': (20000 if FULL else 100, 3),
}


@pytest.mark.parametrize('program', sorted(PROGRAMS))
def test_public_functions_fuzz(tmp_path, program):
    calls, lines_expected = PROGRAMS[program]
    log = tmp_path / 'last_call.txt'
    proc = subprocess.run(
        [
            sys.executable,
            str(HERE / program),
            str(testing_random.base_seed()),
            str(calls),
            str(log),
        ],
        capture_output=True,
        text=True,
        timeout=7200 if FULL else 300,
        env=dict(os.environ, OMP_NUM_THREADS='1', OPENBLAS_NUM_THREADS='1'),
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = proc.stdout.splitlines()
    failures = [line for line in lines if not line.endswith(' ok')]
    assert failures == [], '\n'.join(failures)
    assert len(lines) >= lines_expected  # every function or family was called
