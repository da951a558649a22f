"""Finding the mpiexec that starts processes of this Python."""

import os
import shutil
import sys


def find_mpiexec():
    """The ``mpiexec`` next to the running Python (the mpich wheel puts it
    there), else the one on ``PATH``, else None."""
    return shutil.which(
        'mpiexec', path=os.path.dirname(sys.executable)
    ) or shutil.which('mpiexec')
