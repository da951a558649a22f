"""Every public function of ``chainerlite.functions`` survives random
arguments: no crash, no hang (see ``public_fuzz.py``, run in a subprocess,
each function in a forked child). An absurd ``axis`` of ``F.bias`` hung
for minutes before it was refused.

``make test`` runs a bounded slice; ``CHAINERLITE_FUZZ=full`` (``make
fuzz``) many more calls.
"""

import os
import pathlib
import subprocess
import sys

from chainerlite.testing import random as testing_random

HERE = pathlib.Path(__file__).resolve().parent
FULL = os.environ.get('CHAINERLITE_FUZZ') == 'full'
CALLS = 600 if FULL else 4


def test_public_functions_fuzz(tmp_path):
    log = tmp_path / 'last_call.txt'
    proc = subprocess.run(
        [
            sys.executable,
            str(HERE / 'public_fuzz.py'),
            str(testing_random.base_seed()),
            str(CALLS),
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
    assert len(lines) > 200  # every public function was called
