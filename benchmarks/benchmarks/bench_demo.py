"""The whole demo (`make demo`): MLP and CNN on the digits, wall time.

The demo's accuracy is checked by the tests; its speed only here. It runs
in a subprocess with the settings `make demo` uses (one BLAS thread, glibc
keeping freed memory).
"""

import os
import subprocess
import sys
import tempfile

DEMO_ENV = {
    'OPENBLAS_NUM_THREADS': '1',
    'MALLOC_TRIM_THRESHOLD_': '1073741824',
    'MALLOC_MMAP_THRESHOLD_': '1073741824',
}


class Demo:
    timeout = 600
    number = 1
    repeat = 1

    def time_full_run(self):
        with tempfile.TemporaryDirectory() as out:
            subprocess.run(
                [
                    sys.executable,
                    '-m',
                    'chainerlite.examples.demo',
                    '--no-progress',
                    '--out',
                    out,
                ],
                env=dict(os.environ, **DEMO_ENV),
                check=True,
                stdout=subprocess.DEVNULL,
            )
